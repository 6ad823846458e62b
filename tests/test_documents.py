"""The documents users read stand alone: the README is read in five minutes (at most 250
lines), no user document points outside the repository (a clone has nothing beside it), and
every relative link in them leads to a file of the repository. The contributors' documents
name no file the tree does not have, and contributing.md's layout is the tree's."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from docsync.generate import CONTRIBUTING_PAGE, REPOSITORY, USUAL, generated

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
#: a path climbing out of its directory, or the design documents a clone does not have
CLIMB = re.compile(r"(?:\.\./)+[^\s`'\")\]]*")
BESIDE = re.compile(r"\bshared/(?:INTERFACE|DESIGN|STYLE)\.md|\bshared/reference/")
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")


def user_documents() -> list[Path]:
    """The README, docs/, the examples' READMEs and the examples themselves (read and copied)."""
    examples = [p for p in (REPO / "examples").rglob("*") if p.is_file()]
    return [README, *sorted((REPO / "docs").glob("*.md")), *sorted(examples)]


def outside(path: Path) -> list[str]:
    """What in `path` points outside the repository."""
    text = path.read_text("utf-8")
    found = [m.group(0) for m in BESIDE.finditer(text)]
    for match in CLIMB.finditer(text):
        if text[: match.start()].endswith("$schema="):
            continue  # an editor's directive in an example manifest: relative to that manifest
        target = (path.parent / match.group(0)).resolve()
        if not target.is_relative_to(REPO):
            found.append(match.group(0))
    return found


def test_the_readme_is_read_in_five_minutes() -> None:
    lines = README.read_text("utf-8").splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines: move detail to docs/"


def test_no_user_document_points_outside_the_repository() -> None:
    found = {str(path.relative_to(REPO)): outside(path) for path in user_documents()}
    assert {name: what for name, what in found.items() if what} == {}
    # The check sees what a clone lacks.
    probe = REPO / "docs" / "probe.md"
    assert CLIMB.search("see `../shared/INTERFACE.md`") and BESIDE.search("shared/DESIGN.md")
    assert not (probe.parent / "../CHANGELOG.md").resolve().is_relative_to(REPO / "docs")


def test_every_relative_link_leads_to_a_file_of_the_repository() -> None:
    broken = {}
    for path in user_documents():
        if path.suffix != ".md":
            continue
        for target in LINK.findall(path.read_text("utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            resolved = (path.parent / target).resolve()
            if not resolved.exists() or not resolved.is_relative_to(REPO):
                broken.setdefault(str(path.relative_to(REPO)), []).append(target)
    assert broken == {}


#: an install pinned by commit, and the `--version` line shown after it
PINNED = re.compile(r'pip install "docsync-iac @ git\+\S+@([0-9a-f]{40})"')
SAYS = re.compile(r"docsync --version\s+# (docsync .*\(distribution docsync-iac, commit (\w+)\))")


def test_the_version_shown_after_an_install_is_the_commit_it_pinned() -> None:
    """docs/usage.md showed `commit 1a2b3c4d5e6f` after the README's very install line, whose
    `--version` says the commit it pins."""
    shown = {}
    for path in (README, REPO / "docs" / "usage.md"):
        text = path.read_text("utf-8")
        (pin,) = PINNED.findall(text)
        (said,) = SAYS.findall(text)
        assert said[1] == pin[:12], f"{path.name}: --version says {said[1]}, the pin is {pin}"
        shown[path.name] = said[0]
    assert len(set(shown.values())) == 1, shown


#: the contributors' documents, which name the code's files
CONTRIBUTORS = ("docs/contributing.md", "docs/architecture.md", "docs/testing.md")
#: a file or directory named in backquotes: a path with a slash, or a file with its suffix
NAMED = re.compile(r"`([\w./-]*(?:/[\w.-]*|\.(?:py|md|ya?ml|json|j2|sh|cjs)))`")


def _tracked() -> list[str]:
    found = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True)
    return found.stdout.splitlines()


def test_the_layout_in_contributing_is_the_trees() -> None:
    text = (REPO / CONTRIBUTING_PAGE).read_text("utf-8")
    assert "<!-- generated: layout -->" in text
    assert generated(CONTRIBUTING_PAGE, text) == text, "run `bash scripts/generate`"
    top = {path.split("/")[0] + ("/" if "/" in path else "") for path in _tracked()}
    assert top - USUAL - {"docsync/"} == set(REPOSITORY), "describe it in generate.REPOSITORY"


def test_the_contributors_documents_name_files_the_tree_has() -> None:
    """A file or directory a contributor's document names in backquotes (`sites/driver.py`,
    `tests/kit.py`, `kinds/`) is a path of the tree, or the end of one."""
    tracked = _tracked()
    paths = {*tracked, *(path.rsplit("/", i)[0] + "/" for path in tracked for i in (1, 2, 3))}
    gone = {
        f"{page}: {name}"
        for page in CONTRIBUTORS
        for name in NAMED.findall((REPO / page).read_text("utf-8"))
        if not name.startswith(("/", "..", "http", ".cache/", ".venv/"))
        and not any(path == name or path.endswith("/" + name) for path in paths)
    }
    assert gone == set(), "named, but the tree has no such file"

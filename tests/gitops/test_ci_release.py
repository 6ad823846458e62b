"""Releases: the CI example, the Action snippet, the pre-commit snippet and the README pin one
release by its commit, its version in a comment (`@<commit>  # vX.Y.Z`): tags do not travel
with every clone, a commit does. The pinned commit is in the history (a fresh clone has it) and
is the release of the version its comment names (its pyproject.toml's, and the commit whose
changelog dates it); it is the newest release, except on the
release commit itself (the next commit pins it). What the examples use, the pinned release
knows (its manifest schema, its Action's inputs), or the changelog's `## Unreleased` announces
it: the next release brings it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import jinja2
import jsonschema
import pytest
import yaml

from tests.gitops.ci import REPO, WORKFLOWS, docsync_steps, missing, project_version

GITOPS_DOC = REPO / "docs" / "gitops.md"
README = REPO / "README.md"
#: the commit the CI example pinned before docsync had releases (0.1.0)
OLD_PIN = "e8c1ae2c3673ca01003640521ffd1a8a6e967470"
MANIFEST_MARK = re.compile(r"\$schema=(\.\./)+schemas/manifest\.schema\.json$")
#: a pin of docsync: the repository at a commit, or pre-commit's `rev:`, then the version
PIN = re.compile(
    r"(?:OWNER/docsync@|<owner>/docsync\S*\s+rev: |rev: )([0-9a-f]{40})\"?\s+#\s+"
    r"(?:frozen: )?v(\d+\.\d+\.\d+)"
)
#: a pin by tag, which a clone may not have
TAG_PIN = re.compile(r"docsync@v\d|rev: v\d")
#: where a release is pinned, and how many pins each holds
PINNED_IN = {
    "README.md": 2,  # the install, the Action's snippet
    "docs/usage.md": 1,
    "docs/gitops.md": 2,  # the Action's snippet, the pre-commit snippet
    "examples/ci/docsync.yml": 3,  # the plan, its rehearsal, the drift check
    "examples/ci/docsync-apply.yml": 1,
}


def git(*args: str, where: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True)


def has_history() -> bool:
    return (REPO / ".git").exists() and shutil.which("git") is not None


def pins() -> dict[str, list[tuple[str, str]]]:
    """Each file's pins, (commit, version), in order."""
    return {name: PIN.findall((REPO / name).read_text("utf-8")) for name in PINNED_IN}


def pinned() -> tuple[str, str]:
    """The release every pin names: (commit, version)."""
    found = {pin for each in pins().values() for pin in each}
    assert len(found) == 1, f"the pins name different releases: {sorted(found)}"
    (pin,) = found
    return pin


def version_at(commit: str) -> str | None:
    shown = git("show", f"{commit}:pyproject.toml")
    if shown.returncode != 0:
        return None
    version: str = tomllib.loads(shown.stdout)["project"]["version"]
    return version


def dated(commit: str, version: str) -> bool:
    """Whether CHANGELOG.md at `commit` has the dated section of `version`."""
    shown = git("show", f"{commit}:CHANGELOG.md")
    return shown.returncode == 0 and f"\n## {version} — " in shown.stdout


def release_commit(version: str) -> str | None:
    """The commit that released `version`: the one whose changelog first dates its section
    (and whose pyproject.toml is that version), as the release step makes it."""
    changed = git("log", "--format=%H", "-S", f"## {version} — ", "--", "CHANGELOG.md")
    for commit in changed.stdout.split():
        if dated(commit, version) and not dated(f"{commit}^", version):
            return commit if version_at(commit) == version else None
    return None


def release_file(path: str) -> bytes | None:
    """A file of the pinned release (None: the release has no such file)."""
    shown = subprocess.run(
        ["git", "-C", str(REPO), "show", f"{pinned()[0]}:{path}"], capture_output=True
    )
    return shown.stdout if shown.returncode == 0 else None


def unreleased() -> str:
    """What the releases after the pinned one bring: the changelog above the pinned release's
    section (`## Unreleased`, and on a release commit, before the next commit pins it, that
    release's own section)."""
    text = (REPO / "CHANGELOG.md").read_text("utf-8")
    return text.split("## Unreleased", 1)[1].split(f"\n## {pinned()[1]} ", 1)[0]


@pytest.fixture(autouse=True)
def _history() -> None:
    if not has_history():
        missing("this checkout has no git history: the pinned release cannot be checked")


def test_every_pin_names_the_same_release_commit_and_none_a_tag() -> None:
    found = pins()
    assert {name: len(each) for name, each in found.items()} == PINNED_IN
    for name in PINNED_IN:
        assert not TAG_PIN.search((REPO / name).read_text("utf-8")), f"{name} pins a tag"
    pinned()
    package = f"docsync-iac @ git+https://github.com/OWNER/docsync@{pinned()[0]}"
    assert f'pip install "{package}"  # v{pinned()[1]}' in README.read_text("utf-8")
    # The check refuses a pin of another commit, and a tag.
    other = "uses: OWNER/docsync@" + "0" * 40 + " # v0.2.0\nrev: v0.2.0"
    assert PIN.findall(other) == [("0" * 40, "0.2.0")] and TAG_PIN.search(other)


def test_the_pinned_commit_is_in_the_history_and_is_the_release_its_comment_names() -> None:
    commit, version = pinned()
    assert git("cat-file", "-e", f"{commit}^{{commit}}").returncode == 0, (
        f"the pinned commit {commit} is not in this repository's history"
    )
    assert version_at(commit) == version, (
        f"the pinned commit {commit} is version {version_at(commit)}, not v{version}"
    )
    assert release_commit(version) == commit, (
        f"the pinned commit is not the one that released {version}: {release_commit(version)}"
    )


def test_the_pin_is_the_newest_release_but_on_the_release_commit_itself() -> None:
    _, version = pinned()
    if version == project_version():
        return
    head = git("rev-parse", "HEAD").stdout.strip()
    assert release_commit(project_version()) == head, (
        f"pyproject.toml is {project_version()} but the pins name v{version}: pin the release "
        f"commit (`git log --grep 'Release {project_version()}' --format=%H`) everywhere "
        "docs/gitops.md#releases says"
    )


def test_a_fresh_clone_has_the_pinned_commit_without_any_tag(tmp_path: Path) -> None:
    """What `pip install "docsync-iac @ git+<repository>@<commit>"` needs from a clone: the
    commit and its files, whatever tags the clone has (none, here)."""
    clone = tmp_path / "clone"
    done = subprocess.run(
        ["git", "clone", "--quiet", "--no-checkout", str(REPO), str(clone)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert git("tag", where=clone).stdout == ""
    commit, version = pinned()
    shown = git("show", f"{commit}:pyproject.toml", where=clone)
    assert shown.returncode == 0, shown.stderr
    assert tomllib.loads(shown.stdout)["project"]["version"] == version
    assert git("rev-parse", "-q", "--verify", f"refs/tags/v{version}", where=clone).returncode


def documented_pre_commit_config() -> dict[str, Any]:
    block = re.search(
        r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", GITOPS_DOC.read_text("utf-8"), re.S
    )
    assert block, "docs/gitops.md shows no .pre-commit-config.yaml"
    config: dict[str, Any] = yaml.safe_load(block.group(1))
    return config


def test_the_pre_commit_snippet_pins_the_release_which_has_the_hook() -> None:
    (repo,) = documented_pre_commit_config()["repos"]
    assert repo["rev"] == pinned()[0]
    hooks = release_file(".pre-commit-hooks.yaml")
    assert hooks is not None, "the pinned release has no .pre-commit-hooks.yaml"
    ids = {hook["id"] for hook in yaml.safe_load(hooks)}
    assert {hook["id"] for hook in repo["hooks"]} <= ids


def test_the_changelog_has_a_section_for_unreleased_changes_and_for_each_release() -> None:
    headings = re.findall(r"^## (.+)$", (REPO / "CHANGELOG.md").read_text("utf-8"), re.M)
    assert headings[0] == "Unreleased" and headings[-1].startswith("0.1.0")
    # The pinned release's section is there, dated (and pyproject's, on its release commit).
    for version in {pinned()[1], project_version()}:
        assert any(
            re.fullmatch(rf"{re.escape(version)} — \d{{4}}-\d\d-\d\d", h) for h in headings
        ), version


def release_schema() -> dict[str, Any]:
    text = release_file("schemas/manifest.schema.json")
    assert text is not None, "the pinned release has no schemas/manifest.schema.json"
    schema: dict[str, Any] = json.loads(text)
    return schema


def announced(key: str) -> bool:
    """Whether the changelog's `## Unreleased` names this key (`policies:`)."""
    return f"`{key}:" in unreleased() or f"`{key}`" in unreleased()


def keys_unknown_to(schema: dict[str, Any], document: Any) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema)
    return [
        f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
        for e in validator.iter_errors(document)
    ]


def rendered(value: Any, variables: dict[str, Any]) -> Any:
    """A manifest's values with their templates rendered, as docsync reads them (env() gives a
    stand-in: the schema judges its place, not the secret)."""
    if isinstance(value, dict):
        return {k: rendered(v, variables) for k, v in value.items()}
    if isinstance(value, list):
        return [rendered(v, variables) for v in value]
    if isinstance(value, str) and "{{" in value:
        template = jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(value)
        return template.render(**variables, env=lambda name, default="": f"stand-in-{name}")
    return value


def example_sets() -> list[tuple[Path, dict[str, Any]]]:
    """Each manifest file of examples/ with the variables of each environment it has."""
    found = []
    for path in sorted((REPO / "examples").rglob("*.yaml")):
        if MANIFEST_MARK.search(path.read_text("utf-8").splitlines()[0]):
            var_files = sorted((path.parent.parent / "vars").glob("*.yaml"))
            found += [(path, yaml.safe_load(v.read_text("utf-8"))) for v in var_files] or [
                (path, {})
            ]
    return found


def test_examples_write_only_keys_the_pinned_release_knows_or_the_next_one_brings() -> None:
    schema = release_schema()
    sets = example_sets()
    assert {(p.parent.name, v.get("organization")) for p, v in sets} == {
        ("acme", None),
        ("multilingual", None),
        ("policies", None),
        ("manifests", "org_acme_staging"),
        ("manifests", "org_acme"),
    }
    for path, variables in sets:
        document = rendered(yaml.safe_load(path.read_text("utf-8")), variables)
        unknown = [u for u in keys_unknown_to(schema, document) if not announced(_key(u))]
        assert unknown == [], f"{path}: unknown to the pinned release, and not under Unreleased"
    # The check refuses what the release does not know.
    wrong = {"organization": "o", "sites": [{"title": "Docs", "colour": "red"}]}
    assert (
        "Additional properties are not allowed ('colour' was unexpected)"
        in keys_unknown_to(schema, wrong)[0]
    )


def _key(problem: str) -> str:
    """The key a schema problem refuses: `policies` of "...('policies' was unexpected)"."""
    found = re.search(r"\('([^']+)' was unexpected\)", problem)
    return found.group(1) if found else problem


def test_an_unannounced_key_unknown_to_the_release_is_refused() -> None:
    problem = keys_unknown_to(release_schema(), {"organization": "o", "frobnicate": []})[0]
    assert _key(problem) == "frobnicate" and not announced("frobnicate")


def test_the_check_refuses_the_examples_for_the_commit_the_example_pinned_before_releases() -> None:
    """The CI example once installed commit e8c1ae2, which knew neither access nor a site's
    presentation: examples/acme fails it, as it failed the users who copied the example."""
    old = git("show", f"{OLD_PIN}:schemas/manifest.schema.json")
    assert old.returncode == 0, f"commit {OLD_PIN} is not in this clone's history"
    sites = yaml.safe_load((REPO / "examples" / "acme" / "sites.yaml").read_text("utf-8"))
    found = keys_unknown_to(json.loads(old.stdout), rendered(sites, {}))
    assert any("'permissions'" in f for f in found) and any("'redirects'" in f for f in found)


def test_the_pinned_release_has_the_action_the_workflows_use_or_the_next_one_brings() -> None:
    """Each `uses: OWNER/docsync@<commit>` step runs the Action of the pinned commit: it takes
    the inputs the step gives. Before any release has the Action, the changelog's Unreleased
    section announces it (`action.yml`)."""
    given = {key for _, entry in docsync_steps() for key in entry["with"]}
    assert given and all(path.exists() for path in WORKFLOWS)
    metadata = release_file("action.yml")
    if metadata is None:
        assert "`action.yml`" in unreleased(), (
            "the workflows use the docsync Action, which the pinned release does not have"
        )
        return
    inputs = set(yaml.safe_load(metadata)["inputs"])
    assert given <= inputs, f"the pinned release's Action lacks {sorted(given - inputs)}"

"""Every manifest set under examples/ validates, given as a directory and as a list of files,
with each variable file of its environments (a `vars/` directory beside it) when it has some."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from docsync.manifest import load_manifests
from tests.manifest.conftest import run_validate

EXAMPLES = Path(__file__).parents[2] / "examples"
MARKER = re.compile(r"\$schema=(\.\./)+schemas/manifest\.schema\.json$")


def _manifest_sets() -> list[tuple[Path, Path | None]]:
    """Directories holding manifests (files that declare the manifest schema on line one), each
    with every variable file of its environments, or with none."""
    files = [
        path
        for path in EXAMPLES.rglob("*")
        if path.name.endswith((".yaml", ".yml", ".yaml.j2"))
        and MARKER.search(path.read_text(encoding="utf-8").splitlines()[0])
    ]
    found: list[tuple[Path, Path | None]] = []
    for directory in sorted({path.parent for path in files}):
        var_files = sorted((directory.parent / "vars").glob("*.yaml"))
        found += [(directory, var_file) for var_file in var_files or [None]]
    return found


SETS = _manifest_sets()
DIRS = [directory for directory, _ in SETS]


def _name(case: tuple[Path, Path | None]) -> str:
    directory, var_file = case
    return directory.name + (f"-{var_file.stem}" if var_file else "")


def test_there_are_examples() -> None:
    assert (EXAMPLES / "acme", None) in SETS
    environments = EXAMPLES / "environments"
    assert [v.name for d, v in SETS if d.parent == environments and v] == [
        "production.yaml",
        "staging.yaml",
    ]


@pytest.mark.parametrize("case", SETS, ids=_name)
def test_example_directory_validates(case: tuple[Path, Path | None]) -> None:
    directory, var_file = case
    options = ["--var-file", str(var_file)] if var_file else []
    result = run_validate(str(directory), *options, env={"OKTA_CERT": "MIIC-test"})
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("OK: ")


@pytest.mark.parametrize("case", SETS, ids=_name)
def test_example_files_validate(case: tuple[Path, Path | None]) -> None:
    directory, var_file = case
    files = sorted(
        str(path) for path in directory.iterdir() if path.name.endswith((".yaml", ".yml", ".j2"))
    )
    variables = yaml.safe_load(var_file.read_text("utf-8")) if var_file else {}
    loaded = load_manifests(files, variables=variables, environ={"OKTA_CERT": "MIIC-test"})
    assert loaded.files == files
    assert loaded.manifest.organization == variables.get("organization", "org_acme")


def test_acme_example_content() -> None:
    loaded = load_manifests([EXAMPLES / "acme"], environ={})
    manifest = loaded.manifest
    assert manifest.organization == "org_acme"
    assert [site.title for site in manifest.sites] == ["Developer Docs", "Handbook"]
    handbook = manifest.sites[1]
    assert handbook.siteSpaces is not None and handbook.siteSpaces[0].space == "Internal Handbook"
    assert manifest.saml[0].certificate == "MIIC...demo"
    assert loaded.is_sensitive(("saml", 0, "certificate"))

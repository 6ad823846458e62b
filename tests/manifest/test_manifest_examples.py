"""Every manifest set under examples/ validates, given as a directory and as a list of files."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsync.manifest import load_manifests
from tests.manifest.conftest import run_validate

EXAMPLES = Path(__file__).parents[2] / "examples"
MARKER = "$schema=../../schemas/manifest.schema.json"


def _manifest_dirs() -> list[Path]:
    """Directories holding manifests: files that declare the manifest schema on line one."""
    files = [
        path
        for path in EXAMPLES.rglob("*")
        if path.name.endswith((".yaml", ".yml", ".yaml.j2"))
        and MARKER in path.read_text(encoding="utf-8").splitlines()[0]
    ]
    return sorted({path.parent for path in files})


DIRS = _manifest_dirs()


def test_there_are_examples() -> None:
    assert EXAMPLES / "acme" in DIRS


@pytest.mark.parametrize("directory", DIRS, ids=lambda path: path.name)
def test_example_directory_validates(directory: Path) -> None:
    result = run_validate(str(directory), env={"OKTA_CERT": "MIIC-test"})
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("OK: ")


@pytest.mark.parametrize("directory", DIRS, ids=lambda path: path.name)
def test_example_files_validate(directory: Path) -> None:
    files = sorted(str(path) for path in directory.iterdir() if path.suffix in (".yaml", ".yml"))
    loaded = load_manifests(files, environ={})
    assert loaded.files == files
    assert loaded.manifest.organization


def test_acme_example_content() -> None:
    loaded = load_manifests([EXAMPLES / "acme"], environ={})
    manifest = loaded.manifest
    assert manifest.organization == "org_acme"
    assert [site.title for site in manifest.sites] == ["Developer Docs", "Handbook"]
    handbook = manifest.sites[1]
    assert handbook.siteSpaces is not None and handbook.siteSpaces[0].space == "Internal Handbook"
    assert manifest.saml[0].certificate == "MIIC...demo"
    assert loaded.is_sensitive(("saml", 0, "certificate"))

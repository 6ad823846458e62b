"""`docsync --version` says the release this code is and the commit; the distribution is not a
namesake's. The release comes from the checkout's pyproject.toml, else from the metadata of the
installed distribution that holds this code, never from another copy's."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from docsync import __version__, version
from docsync.cli import main

REPO = Path(__file__).resolve().parents[2]
COMMIT = "0123456789abcdef0123456789abcdef01234567"
#: semantic versioning's MAJOR.MINOR.PATCH, with an optional pre-release
SEMVER = re.compile(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?")


def project() -> dict[str, object]:
    found: dict[str, object] = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))[
        "project"
    ]
    return found


def test_the_distribution_has_its_own_name_a_semantic_version_and_the_command_docsync() -> None:
    assert project()["name"] == version.DISTRIBUTION == "docsync-iac"
    assert project()["scripts"] == {"docsync": "docsync.cli:run"}
    assert SEMVER.fullmatch(str(project()["version"])), project()["version"]
    assert project()["version"] == __version__ == version.release()


def test_in_a_checkout_the_version_names_the_checked_out_commit() -> None:
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: the commit comes from git here")
    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output.startswith(f"docsync {__version__} (distribution docsync-iac, commit ")
    assert head[:12] in result.output


class Installed:
    """A distribution as importlib.metadata gives it, with the direct_url.json pip wrote."""

    def __init__(self, recorded: str | None) -> None:
        self.recorded = recorded

    def read_text(self, name: str) -> str | None:
        assert name == "direct_url.json"
        return self.recorded


def test_an_install_from_a_git_url_names_the_commit_pip_recorded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    info = {"url": "https://example.invalid/docsync", "vcs_info": {"vcs": "git"}}
    info["vcs_info"]["commit_id"] = COMMIT
    monkeypatch.setattr(version, "_commit_from_checkout", lambda: None)
    monkeypatch.setattr(version, "_this_distribution", lambda: Installed(json.dumps(info)))
    assert version.version_line().endswith("commit 0123456789ab)")


@pytest.mark.parametrize("recorded", [None, "", "not json", json.dumps({"url": "file:///x"})])
def test_without_git_or_a_recorded_commit_the_commit_is_unknown_not_an_error(
    monkeypatch: pytest.MonkeyPatch, recorded: str | None
) -> None:
    monkeypatch.setattr(version, "_commit_from_checkout", lambda: None)
    monkeypatch.setattr(version, "_this_distribution", lambda: Installed(recorded))
    assert (
        version.version_line()
        == f"docsync {__version__} (distribution docsync-iac, commit unknown)"
    )


def run_version(site: Path) -> subprocess.CompletedProcess[str]:
    """`docsync --version` of the package copied into `site`, the first entry of sys.path."""
    return subprocess.run(
        [sys.executable, "-c", "from docsync.cli import main; main()", "--version"],
        cwd=site,
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def copy_package(site: Path) -> None:
    shutil.copytree(
        REPO / "docsync", site / "docsync", ignore=shutil.ignore_patterns("__pycache__")
    )


def test_an_installed_distribution_reports_its_own_version_and_commit(tmp_path: Path) -> None:
    """As pip leaves it in site-packages: the package beside its .dist-info (METADATA, RECORD,
    direct_url.json), whatever version the checkout's pyproject.toml says now."""
    copy_package(tmp_path)
    info = tmp_path / "docsync_iac-9.8.7.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: docsync-iac\nVersion: 9.8.7\n", "utf-8"
    )
    (info / "RECORD").write_text("docsync/__init__.py,,\n", "utf-8")
    direct = {
        "url": "https://github.com/o/docsync",
        "vcs_info": {"vcs": "git", "commit_id": COMMIT},
    }
    (info / "direct_url.json").write_text(json.dumps(direct), "utf-8")
    done = run_version(tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "docsync 9.8.7 (distribution docsync-iac, commit 0123456789ab)\n"


def test_a_copy_of_the_package_is_not_the_distribution_installed_beside_it(
    tmp_path: Path,
) -> None:
    """No .git, no pyproject.toml, no metadata of its own: this environment's docsync-iac (the
    checkout, installed editable) is another copy, so the version is unknown, and nothing fails."""
    copy_package(tmp_path)
    done = run_version(tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "docsync unknown (distribution docsync-iac, commit unknown)\n"

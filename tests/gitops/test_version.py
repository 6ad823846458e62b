"""`docsync --version` says the release and the commit; the distribution is not a namesake's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

from docsync import __version__, version
from docsync.cli import main

REPO = Path(__file__).resolve().parents[2]


def test_the_distribution_has_its_own_name_and_the_command_stays_docsync() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    assert project["name"] == version.DISTRIBUTION == "docsync-iac"
    assert project["scripts"] == {"docsync": "docsync.cli:main"}
    assert project["version"] == __version__


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


def test_an_install_from_a_git_url_names_the_commit_pip_recorded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Installed:
        def read_text(self, name: str) -> str | None:
            assert name == "direct_url.json"
            info = {"url": "https://example.invalid/docsync", "vcs_info": {"vcs": "git"}}
            info["vcs_info"]["commit_id"] = "0123456789abcdef0123456789abcdef01234567"
            return json.dumps(info)

    monkeypatch.setattr(version, "_commit_from_checkout", lambda: None)
    monkeypatch.setattr(metadata, "distribution", lambda name: Installed())
    assert version.version_line().endswith("commit 0123456789ab)")


@pytest.mark.parametrize("recorded", [None, "", "not json", json.dumps({"url": "file:///x"})])
def test_without_git_or_a_recorded_commit_the_commit_is_unknown_not_an_error(
    monkeypatch: pytest.MonkeyPatch, recorded: str | None
) -> None:
    class Installed:
        def read_text(self, name: str) -> str | None:
            return recorded

    monkeypatch.setattr(version, "_commit_from_checkout", lambda: None)
    monkeypatch.setattr(metadata, "distribution", lambda name: Installed())
    assert (
        version.version_line()
        == f"docsync {__version__} (distribution docsync-iac, commit unknown)"
    )


def test_outside_any_checkout_the_version_still_prints(tmp_path: Path) -> None:
    """A copy of the package with no .git beside it: the commit is unknown, nothing fails."""
    shutil.copytree(
        REPO / "docsync", tmp_path / "docsync", ignore=shutil.ignore_patterns("__pycache__")
    )
    done = subprocess.run(
        [sys.executable, "-c", "from docsync.cli import main; main()", "--version"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"docsync {__version__} (distribution docsync-iac, commit unknown)\n"

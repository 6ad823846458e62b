"""Helpers for the manifest tests: write manifest files and run `docsync validate`."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from docsync.cli import main


def run_validate(*args: str, env: dict[str, str] | None = None) -> Result:
    """Run `docsync validate` in-process, as a user would from a shell."""
    return CliRunner().invoke(main, ["validate", *args], env=env, catch_exceptions=True)


@pytest.fixture
def write(tmp_path: Path):  # type: ignore[no-untyped-def]
    """write(name, text) -> path: a manifest file under the test's temporary directory."""

    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    return _write

"""Helpers for the manifest tests: run `docsync validate` (`write` is in tests/conftest.py)."""

from __future__ import annotations

from click.testing import CliRunner, Result

from docsync.cli import main


def run_validate(*args: str, env: dict[str, str] | None = None) -> Result:
    """Run `docsync validate` in-process, as a user would from a shell."""
    return CliRunner().invoke(main, ["validate", *args], env=env, catch_exceptions=True)

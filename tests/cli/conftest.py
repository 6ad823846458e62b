"""Fixtures of the CLI tests: the CLI in-process (CliRunner) or as a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from docsync.cli import main
from tests.emulator_harness import EmulatorHandle

REPO = Path(__file__).resolve().parents[2]
ACME = REPO / "examples" / "acme"

Run = Callable[..., Result]


@pytest.fixture
def cli(emulator: EmulatorHandle) -> Run:
    """cli(*args, env=None) -> Result: docsync in-process against the emulator as tok_ada."""

    def run(*args: str | Path, env: dict[str, str] | None = None) -> Result:
        merged = {
            "DOCSYNC_API_URL": emulator.url,
            "DOCSYNC_TOKEN": "tok_ada",
            "NO_COLOR": "1",
            **(env or {}),
        }
        return CliRunner().invoke(main, [str(a) for a in args], env=merged)

    return run


def run_process(
    *args: str | Path, env: dict[str, str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """docsync as a separate process (logging set-up and stderr as a user sees them)."""
    merged = {**os.environ, "NO_COLOR": "1", **env}
    return subprocess.run(
        [sys.executable, "-c", "from docsync.cli import main; main()", *map(str, args)],
        env=merged,
        cwd=cwd or REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )

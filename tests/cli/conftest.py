"""Fixtures of the CLI tests: the CLI in-process or as a process (tests/kit.py)."""

from __future__ import annotations

import pytest

from tests.emulator_harness import REPO
from tests.kit import Docsync, run_process

ACME = REPO / "examples" / "acme"

#: cli(*args, env=None) -> Result
Run = Docsync

__all__ = ["ACME", "REPO", "Run", "run_process"]


@pytest.fixture
def cli(docsync: Docsync) -> Run:
    """cli(*args, env=None) -> Result: docsync in-process against the emulator as tok_ada."""
    return docsync

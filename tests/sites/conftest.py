"""Fixtures of the sites tests: the CLI in-process against the session emulator."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.sites.kit import SitesRun


@pytest.fixture
def sites(emulator: EmulatorHandle, tmp_path: Path) -> SitesRun:
    """Apply, plan and read back sites against a freshly reset emulator."""
    return SitesRun(emulator, tmp_path)

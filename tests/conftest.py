"""Shared fixtures: one emulator per test session, reset to the example seed before each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.emulator_harness import EmulatorHandle, start_emulator


@pytest.fixture(scope="session")
def emulator_server() -> Iterator[EmulatorHandle]:
    """The session's emulator (real HTTP on loopback)."""
    with start_emulator() as handle:
        yield handle


@pytest.fixture
def emulator(emulator_server: EmulatorHandle) -> EmulatorHandle:
    """The session emulator, freshly reset to examples/emulator-seed.yaml with faults off."""
    emulator_server.reset()
    return emulator_server

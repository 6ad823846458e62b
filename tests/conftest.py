"""Shared fixtures: one emulator per test session, reset to the example seed before each test."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests.emulator_harness import EmulatorHandle, start_emulator

# Every end-to-end test is a conformance test: answers and requests checked against production.
pytest_plugins = ["tests.contract.plugin"]

# In CI the property tests draw the same examples every run, so a run's verdict can be reproduced;
# on a developer's machine they explore new ones each time.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


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

"""Helpers of the review tests: apply, plan and read the emulator directly."""

from __future__ import annotations

from typing import Any

from tests.emulator_harness import EmulatorHandle
from tests.engine.conftest import Docsync, listed

ORG = "/v1/orgs/org_acme"


def apply(docsync: Docsync, path: Any, *extra: str) -> str:
    result = docsync("apply", path, "--auto-approve", *extra)
    assert result.exit_code == 0, result.output
    assert "0 failed, 0 skipped" in result.stdout or "No changes" in result.stdout, result.output
    return str(result.stdout)


def converged(docsync: Docsync, path: Any) -> None:
    result = docsync("plan", path, "--detailed-exitcode")
    assert result.exit_code == 0, result.output
    assert "No changes." in result.stdout, result.output


def id_of(emulator: EmulatorHandle, what: str, key: str, value: str) -> str:
    """The id of the live item of list `what` (under the org) whose `key` is `value`."""
    items = listed(emulator, f"{ORG}/{what}")
    return str(next(i["id"] for i in items if i.get(key) == value))

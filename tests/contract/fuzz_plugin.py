"""The suite's contract fuzzing, in figures: each run of tests/contract/test_fuzz.py records its
summary here, and the terminal summary prints them (summed over xdist workers), so every
`scripts/test` shows how many requests each contract mode sent and in how long."""

from __future__ import annotations

import json
from typing import Any

import pytest

#: "fuzz --contract <mode>: N requests ..." of each fuzz test run in this process
SUMMARIES: list[str] = []


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["fuzz"] = json.dumps(SUMMARIES)


@pytest.hookimpl(optionalhook=True)  # an xdist hook: `pytest -p no:xdist` must still run
def pytest_testnodedown(node: Any, error: Any) -> None:
    SUMMARIES.extend(json.loads(getattr(node, "workeroutput", {}).get("fuzz", "[]")))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if hasattr(terminalreporter.config, "workeroutput"):
        return
    for summary in sorted(SUMMARIES):
        terminalreporter.write_line(summary)

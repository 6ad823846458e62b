"""A flaky but living server is waited out: a request is tried again, with backoff, until its
deadline (`--timeout`), not five times. At 30% 5xx a request fails five times in a row now and
then: the apply gave up on it (4 misses of 8 in the soak while planning, before any write), and
a DELETE of an MCP server whose first try was carried out, its answer lost, exited 1 though it
was done."""

from __future__ import annotations

from typing import Any

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.engine.conftest import Docsync, Write, apply_ok, assert_converged
from tests.kit import ORG, listed

SERVED = """\
organization: org_acme
sites:
  - title: Docs
    mcpServers:
%s"""
SERVERS = (
    '      - {name: Billing, url: "https://mcp.acme.example"}\n'
    '      - {name: Status, url: "https://status.acme.example/mcp"}\n'
)
#: more failed tries in a row than the five the client once allowed
FAILURES = 7


def failing(method: str, path: str, count: int = FAILURES) -> dict[str, Any]:
    return {"method": method, "path": path, "status": 503, "count": count}


@pytest.mark.usefixtures("quick_retries")
def test_a_delete_whose_answer_was_lost_is_done_through_failures_after_it(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    apply_ok(docsync, write("m.yaml", SERVED % SERVERS))
    site = listed(emulator, f"{ORG}/sites")[0]["id"]
    fewer = write("m.yaml", SERVED % SERVERS.split("      - {name: Status")[0])
    drop = {"method": "DELETE", "path": "/mcp-servers/[^/]+$", "drop": True, "count": 1}
    emulator.set_faults(rules=[drop, failing("DELETE", "/mcp-servers/[^/]+$")])
    result = apply_ok(docsync, fewer)
    assert 'ok      update site["Docs"].mcpServers' in result.stdout, result.output
    assert sum(emulator.stats()["faults"].values()) == 1 + FAILURES
    emulator.set_faults()
    assert [s["name"] for s in listed(emulator, f"{ORG}/sites/{site}/mcp-servers")] == ["Billing"]
    assert_converged(docsync, fewer)


@pytest.mark.usefixtures("quick_retries")
def test_reads_that_fail_more_than_five_times_in_a_row_still_plan(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    manifest = write("m.yaml", "organization: org_acme\nteams: [{title: Platform}]\n")
    emulator.set_faults(rules=[failing("GET", "/teams$")])
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    assert '+ create team["Platform"]' in planned.stdout
    assert sum(emulator.stats()["faults"].values()) == FAILURES

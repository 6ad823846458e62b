"""A write sent again after its answer was lost, refused as a conflict: production answers 409
to a write that would change nothing, which the lost attempt may have made so. A PUT or PATCH
is settled by reading the resource back: done when it holds what was sent, else the conflict
stands; a 409 to a first attempt is a conflict as ever."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from docsync.api.errors import Conflict, OutcomeUnknown
from tests.api.apikit import FakeClock, error_body, mock_client, run

TEAM = "/v1/orgs/o/teams/t1"
CONFLICT = error_body(409, "Operation would not result in any update")


def _server(held: dict[str, Any], *, lose_first: bool) -> tuple[list[str], Any]:
    seen: list[str] = []

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request.method)
        if request.method == "GET":
            return httpx.Response(200, json=held)
        if lose_first and seen.count(request.method) == 1:
            held.update(json.loads(request.content))  # carried out, its answer lost
            raise httpx.RemoteProtocolError("the server dropped the connection")
        return httpx.Response(409, json=CONFLICT)

    return seen, handle


def test_a_patch_refused_after_its_answer_was_lost_is_done_when_read_back() -> None:
    held = {"id": "t1", "title": "Old", "condition": None}
    seen, handle = _server(held, lose_first=True)

    async def scenario() -> Any:
        async with mock_client(FakeClock(), handle) as client:
            return await client.write("PATCH", TEAM, {"title": "New", "condition": None})

    assert run(scenario())["title"] == "New"
    assert seen == ["PATCH", "PATCH", "GET"]


def test_read_back_not_holding_what_was_sent_is_the_conflict() -> None:
    held = {"id": "t1", "title": "Other"}
    seen, handle = _server(held, lose_first=False)

    def handle_lost(request: httpx.Request) -> httpx.Response:
        if request.method == "PATCH" and seen.count("PATCH") == 0:
            seen.append("PATCH")
            raise httpx.RemoteProtocolError("the server dropped the connection")
        return handle(request)

    async def scenario() -> Any:
        async with mock_client(FakeClock(), handle_lost) as client:
            return await client.write("PATCH", TEAM, {"title": "New"})

    with pytest.raises(Conflict) as raised:
        run(scenario())
    assert "read back, it does not hold what was sent" in str(raised.value)


def test_a_409_to_a_first_attempt_is_a_conflict() -> None:
    seen, handle = _server({"id": "t1"}, lose_first=False)

    async def scenario() -> Any:
        async with mock_client(FakeClock(), handle) as client:
            return await client.write("PATCH", TEAM, {"title": "New"})

    with pytest.raises(Conflict) as raised:
        run(scenario())
    assert not isinstance(raised.value, OutcomeUnknown) and seen == ["PATCH"]

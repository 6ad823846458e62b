"""Deletes as production answers them, over real HTTP on loopback: 205 when the resource was
deleted, 204 when it did not exist; both are a done delete, also when the 204 answers the retry
of a delete whose first answer was lost after the server carried it out."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

from docsync.api import ApiClient, RetryPolicy
from tests.api.apikit import TOKEN, loopback, run

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
TEAMS = "/v1/orgs/o/teams"


class DeletingApp:
    """Holds teams t1..t3; DELETE answers 205 (deleted) or 204 (no such team), and can lose
    the answer of its first DELETE after deleting, by closing the connection."""

    def __init__(self) -> None:
        self.teams = {"t1", "t2", "t3"}
        self.answers: list[tuple[str, int]] = []
        self.lose_next = False

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        assert scope["type"] == "http" and scope["method"] == "DELETE"
        while (await receive()).get("more_body"):
            pass
        team = scope["path"].rsplit("/", 1)[-1]
        status = 205 if team in self.teams else 204
        self.teams.discard(team)
        if self.lose_next:
            self.lose_next = False
            await send({"type": "http.response.start", "status": 200, "headers": _length(10)})
            await send({"type": "http.response.body", "body": b"{", "more_body": True})
            return  # incomplete: the server closes the connection
        self.answers.append((team, status))
        await send({"type": "http.response.start", "status": status, "headers": _length(0)})
        await send({"type": "http.response.body", "body": b""})


def _length(size: int) -> list[tuple[bytes, bytes]]:
    return [(b"content-length", str(size).encode())]


@pytest.fixture
def server() -> Iterator[tuple[str, DeletingApp]]:
    app = DeletingApp()
    with loopback(app) as url:
        yield url, app


def _client(url: str) -> ApiClient:
    return ApiClient(url, TOKEN, retry=RetryPolicy(max_attempts=3, base=0.001, cap=0.01))


def test_205_deleted_and_204_absent_are_both_a_done_delete(
    server: tuple[str, DeletingApp],
) -> None:
    url, app = server

    async def scenario() -> list[Any]:
        async with _client(url) as client:
            return [await client.write("DELETE", f"{TEAMS}/{t}") for t in ("t1", "t1", "t9")]

    assert run(scenario()) == [None, None, None]
    assert app.answers == [("t1", 205), ("t1", 204), ("t9", 204)]
    assert app.teams == {"t2", "t3"}


def test_a_delete_whose_205_was_lost_is_done_when_the_retry_gets_204(
    server: tuple[str, DeletingApp],
) -> None:
    url, app = server
    app.lose_next = True

    async def scenario() -> tuple[Any, int]:
        async with _client(url) as client:
            answer = await client.write("DELETE", f"{TEAMS}/t2")
            return answer, client.stats.retries

    assert run(scenario()) == (None, 1)
    assert app.answers == [("t2", 204)]  # the first attempt deleted it; its answer was lost
    assert app.teams == {"t1", "t3"}

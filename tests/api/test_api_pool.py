"""The client's connection pool (docsync.api.pool): its idle connections are checked without a
`poll` made per check, and a connection the server closed while idle is still never used."""

from __future__ import annotations

import asyncio
import select
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from docsync.api import ApiClient
from tests.api.apikit import TOKEN, loopback, run

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class Answering:
    """A tiny ASGI app answering every request `{"id": "t1"}`, counting the connections."""

    def __init__(self) -> None:
        self.peers: set[tuple[str, int]] = set()

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        self.peers.add(scope["client"])
        while (await receive()).get("more_body"):
            pass
        await asyncio.sleep(0.001)  # answers overlap, so that the pool keeps several connections
        headers = [(b"content-type", b"application/json")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b'{"id": "t1"}'})


def test_idle_connections_are_checked_without_a_poll_made_per_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """httpcore checks every connection it keeps, twice per request, with a `poll` it makes,
    registers and runs each time (after a `getpeername()`): at 8 connections about a fifth of a
    request's CPU. The pool's streams make one `poll` per connection, once."""
    made = 0
    real = select.poll

    def counted() -> Any:
        nonlocal made
        made += 1
        return real()

    app = Answering()
    with loopback(app) as url:

        async def main() -> None:
            async with ApiClient(url, TOKEN, parallelism=8) as api:
                monkeypatch.setattr(select, "poll", counted)
                await asyncio.gather(*(api.get("/v1/orgs/o") for _ in range(200)))

        run(main())
    assert len(app.peers) > 1, "the requests overlapped: the pool kept several connections"
    assert made <= len(app.peers), f"{made} polls made for {len(app.peers)} connections"


def test_a_connection_the_server_closed_while_idle_is_never_used() -> None:
    """The check still tells: a server that closes an idle kept-alive connection (uvicorn after
    its keep-alive timeout) gets the next request, a create that is never sent twice, on a new
    connection, instead of the client writing it into a closed one and losing its answer."""
    app = Answering()
    with loopback(app, timeout_keep_alive=0.05) as url:

        async def main() -> list[Any]:
            async with ApiClient(url, TOKEN, parallelism=8) as api:
                first = await api.write("POST", "/v1/orgs/o/ping")
                await asyncio.sleep(0.5)  # ten times the keep-alive: the server has closed it
                return [first, await api.write("POST", "/v1/orgs/o/ping")]

        assert run(main()) == [{"id": "t1"}, {"id": "t1"}]
    assert len(app.peers) == 2, "the second create went on a new connection"

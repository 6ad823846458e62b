"""The client against a real uvicorn server on loopback that drops connections mid-response."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

from docsync.api import ApiClient, OutcomeUnknown, RetryPolicy
from tests.api.apikit import TOKEN, loopback, run

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class DroppingApp:
    """A tiny ASGI app: commits writes, then can break the connection halfway through the body."""

    def __init__(self) -> None:
        self.calls: dict[str, int] = {}
        self.created: list[bytes] = []
        self.authorization: set[str] = set()

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        assert scope["type"] == "http"
        key = f"{scope['method']} {scope['path']}"
        count = self.calls[key] = self.calls.get(key, 0) + 1
        headers = dict(scope["headers"])
        self.authorization.add(headers.get(b"authorization", b"").decode())
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if scope["method"] == "POST":
            self.created.append(body)  # the write is committed before the answer breaks
            await self._drop(send)
        elif count == 1:
            await self._drop(send)
        else:
            await self._answer(send, b'{"items": [{"id": "t1"}]}')

    async def _drop(self, send: Send) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", b"400")],
            }
        )
        await send({"type": "http.response.body", "body": b'{"items": [', "more_body": True})
        # Returning now leaves the response incomplete: the server closes the connection.

    async def _answer(self, send: Send, payload: bytes) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": payload})


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, DroppingApp]]:
    app = DroppingApp()
    with loopback(app) as url:
        yield url, app


def client_for(url: str) -> ApiClient:
    return ApiClient(url, TOKEN, retry=RetryPolicy(max_attempts=3, base=0.001, cap=0.01))


def test_a_read_cut_off_mid_body_is_retried(server: tuple[str, DroppingApp]) -> None:
    url, app = server

    async def scenario() -> tuple[list[dict[str, Any]], ApiClient]:
        async with client_for(url + "/v1") as client:
            return await client.list_all("/v1/orgs/o/teams"), client

    items, client = run(scenario())
    assert items == [{"id": "t1"}]
    assert app.calls["GET /v1/orgs/o/teams"] == 2
    assert (client.stats.requests, client.stats.retries) == (2, 1)
    assert app.authorization == {f"Bearer {TOKEN}"}


def test_a_create_cut_off_after_commit_is_outcome_unknown(server: tuple[str, DroppingApp]) -> None:
    url, app = server

    async def scenario() -> None:
        async with client_for(url) as client:
            await client.write("POST", "/v1/orgs/o/saml", {"label": "Okta"})

    with pytest.raises(OutcomeUnknown) as caught:
        run(scenario())
    assert app.calls["POST /v1/orgs/o/saml"] == 1
    assert app.created == [b'{"label":"Okta"}']  # committed once, never duplicated by a retry
    assert caught.value.status is None
    assert "RemoteProtocolError" in caught.value.message or "ReadError" in caught.value.message

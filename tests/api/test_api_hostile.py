"""A misbehaving server ends in one clear error naming the request, never a traceback, a hang
or gigabytes of memory; the secrets a request carried never come back in a message."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from docsync.api import ApiClient, ApiError, BadRequest, NotFound, TimedOut, exchange
from docsync.api import client as client_module
from tests.api.apikit import FakeClock, error_body, mock_client, run

CERT = "MIIC-very-secret-certificate-body"


def answering(*responses: Any) -> tuple[ApiClient, list[str]]:
    queue = list(responses)
    log: list[str] = []

    async def handler(request: httpx.Request) -> httpx.Response:
        log.append(request.method)
        step = queue.pop(0) if len(queue) > 1 else queue[0]
        if isinstance(step, Exception):
            raise step
        return step() if callable(step) else step

    return mock_client(FakeClock(), handler), log


def test_an_echoed_request_secret_is_redacted_from_the_error() -> None:
    echo = error_body(400, f'invalid body {{"certificate": "{CERT}"}}')
    client, _ = answering(httpx.Response(400, json=echo))
    client.redact({CERT})
    with pytest.raises(BadRequest) as caught:
        run(client.write("POST", "/v1/orgs/o/saml", {"certificate": CERT}))
    assert CERT not in str(caught.value) and "(sensitive)" in str(caught.value)


def test_a_huge_error_message_is_cut_short() -> None:
    client, _ = answering(httpx.Response(404, json=error_body(404, "y" * 5_000_000)))
    with pytest.raises(NotFound) as caught:
        run(client.get("/v1/orgs/o"))
    assert len(str(caught.value)) < 700


def test_fresh_page_tokens_for_ever_stop_at_the_page_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client_module, "MAX_PAGES", 5)
    counter = iter(range(10**6))
    client, log = answering(
        lambda: httpx.Response(200, json={"items": [], "next": {"page": f"p{next(counter)}"}})
    )
    with pytest.raises(ApiError, match="more than 5 pages"):
        run(client.list_all("/v1/orgs/o/teams"))
    assert len(log) == 5


def test_an_answer_past_the_size_bound_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exchange, "MAX_ANSWER_BYTES", 1000)

    async def endless() -> AsyncIterator[bytes]:
        while True:
            yield b"[" * 100
            await asyncio.sleep(0)

    client, log = answering(lambda: httpx.Response(200, content=endless()))
    with pytest.raises(ApiError, match="larger than"):
        run(client.get("/v1/orgs/o"))
    assert log == ["GET"]  # not retried


def test_a_silent_server_meets_the_deadline() -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(10)
        return httpx.Response(200, json={})

    client = mock_client(FakeClock(), handler, timeout=0.05)
    with pytest.raises(TimedOut, match=r"127\.0\.0\.1:8719 had not answered after 0\.05 s"):
        run(client.get("/v1/orgs/o"))


def test_deeply_nested_json_is_one_clear_error() -> None:
    client, _ = answering(httpx.Response(200, content=b"[" * 200_000 + b"]" * 200_000))
    with pytest.raises(ApiError, match="nested too deeply"):
        run(client.get("/v1/orgs/o"))


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("just text", "expected a JSON object in the answer, got text"),
        ([1, 2], "expected a JSON object in the answer, got list"),
        ({}, "expected the resource's `id` in the answer, got None"),
        ({"id": None}, "expected the resource's `id` in the answer, got None"),
    ],
)
def test_a_create_answered_in_the_wrong_shape_names_the_request(answer: Any, expected: str) -> None:
    client, _ = answering(httpx.Response(201, json=answer))
    with pytest.raises(ApiError) as caught:
        run(client.write("POST", "/v1/orgs/o/teams", {"title": "T"}))
    assert str(caught.value).startswith("POST /v1/orgs/o/teams: 201 Created: " + expected)


def test_an_update_answering_an_object_without_id_is_fine() -> None:
    client, _ = answering(httpx.Response(200, json={"title": "T"}))
    assert run(client.write("PATCH", "/v1/orgs/o/teams/t", {"title": "T"})) == {"title": "T"}


def test_tls_failures_are_not_retried() -> None:
    failure = httpx.ConnectError("[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed")
    failure.__cause__ = ssl.SSLCertVerificationError("self-signed certificate")
    client, log = answering(failure)
    with pytest.raises(ApiError, match="TLS failure is not retried"):
        run(client.get("/v1/orgs/o"))
    assert log == ["GET"]

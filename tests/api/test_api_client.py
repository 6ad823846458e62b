"""ApiClient over MockTransport: requests, pagination, decoding, typed errors, secrecy, stats."""

from __future__ import annotations

import asyncio
import logging
import pickle
import random
from collections.abc import Callable

import httpx
import pytest

from docsync.api import (
    ApiClient,
    ApiError,
    BadRequest,
    ConfigError,
    Conflict,
    NotFound,
    RequestStats,
    RetryPolicy,
    ServerError,
    Unauthorized,
)
from docsync.errors import DocsyncError
from tests.api.apikit import TOKEN, FakeClock, error_body, mock_client, run

Build = Callable[..., ApiClient]


def test_list_all_follows_three_pages_with_limit_1000(make_client: Build) -> None:
    pages = {
        None: {"items": [{"id": "t1"}, {"id": "t2"}], "next": {"page": "p2"}, "count": 5},
        "p2": {"items": [{"id": "t3"}, {"id": "t4"}], "next": {"page": "p3"}, "count": 5},
        "p3": {"items": [{"id": "t5"}], "count": 5},
    }
    seen: list[httpx.QueryParams] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.params)
        assert request.url.path == "/v1/orgs/o/teams"
        return httpx.Response(200, json=pages[request.url.params.get("page")])

    async def scenario() -> list[dict[str, object]]:
        async with make_client(handler) as client:
            items = await client.list_all("/v1/orgs/o/teams", {"title": "Plat"})
            assert client.stats.requests == 3
            return items

    items = run(scenario())
    assert [item["id"] for item in items] == ["t1", "t2", "t3", "t4", "t5"]
    assert [params.get("page") for params in seen] == [None, "p2", "p3"]
    assert all(params["limit"] == "1000" and params["title"] == "Plat" for params in seen)


def test_list_all_refuses_a_page_token_that_repeats(make_client: Build) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"items": [], "next": {"page": "same"}})

    async def scenario() -> None:
        async with make_client(handler) as client:
            await client.list_all("/v1/orgs/o/teams")

    with pytest.raises(ApiError, match="pagination loops"):
        run(scenario())


@pytest.mark.parametrize("body", [{"data": []}, [1, 2], {"items": ["not-an-object"]}])
def test_list_all_refuses_what_is_not_a_list_envelope(make_client: Build, body: object) -> None:
    async def scenario() -> None:
        async with make_client(lambda request: httpx.Response(200, json=body)) as client:
            await client.list_all("/v1/orgs/o/teams")

    with pytest.raises(ApiError, match="GET /v1/orgs/o/teams: 200 OK: expected"):
        run(scenario())


def test_get_sends_token_and_json_headers_under_the_base_path(make_client: Build) -> None:
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(200, json={"id": "org_acme"})

    async def scenario() -> object:
        client = make_client(handler, base_url="https://proxy.example/gitbook/v1/")
        async with client:
            return await client.get("/v1/orgs/org_acme", {"nested": "true"})

    assert run(scenario()) == {"id": "org_acme"}
    (request,) = requests
    assert str(request.url) == "https://proxy.example/gitbook/v1/orgs/org_acme?nested=true"
    assert request.headers["authorization"] == f"Bearer {TOKEN}"
    assert request.headers["accept"] == "application/json"
    assert request.headers["user-agent"].startswith("docsync/")


@pytest.mark.parametrize(
    ("method", "body", "status", "expected"),
    [
        ("POST", {"title": "T"}, 201, {"id": "new"}),
        ("PATCH", {"title": "T"}, 200, {"id": "new"}),
        ("PUT", {"add": ["u1"]}, 204, None),
        ("DELETE", None, 205, None),
        ("DELETE", None, 204, None),
        ("delete", None, 202, None),
    ],
)
def test_write_sends_json_and_decodes_the_answer(
    make_client: Build, method: str, body: object, status: int, expected: object
) -> None:
    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        if expected is None:
            return httpx.Response(status)
        return httpx.Response(status, json=expected)

    async def scenario() -> object:
        async with make_client(handler) as client:
            return await client.write(method, "/v1/orgs/o/teams/t", body)

    assert run(scenario()) == expected
    assert sent[0].method == method.upper()
    if body is None:
        assert sent[0].content == b""
    else:
        assert httpx.Response(200, content=sent[0].content).json() == body
        assert sent[0].headers["content-type"] == "application/json"


def test_write_refuses_get_and_paths_outside_v1(make_client: Build) -> None:
    async def scenario(call: str) -> None:
        async with make_client(lambda request: httpx.Response(200, json={})) as client:
            if call == "verb":
                await client.write("GET", "/v1/orgs")
            else:
                await client.get("/orgs")

    with pytest.raises(ValueError, match="POST, PUT, PATCH or DELETE"):
        run(scenario("verb"))
    with pytest.raises(ValueError, match="start with /v1/"):
        run(scenario("path"))


@pytest.mark.parametrize(
    ("status", "cls", "text"),
    [
        (400, BadRequest, "PATCH /v1/orgs/x/teams/t: 400 Bad Request: title is too long"),
        (401, Unauthorized, "PATCH /v1/orgs/x/teams/t: 401 Unauthorized: title is too long"),
        (403, Unauthorized, "PATCH /v1/orgs/x/teams/t: 403 Forbidden: title is too long"),
        (404, NotFound, "PATCH /v1/orgs/x/teams/t: 404 Not Found: title is too long"),
        (409, Conflict, "PATCH /v1/orgs/x/teams/t: 409 Conflict: title is too long"),
        (410, ApiError, "PATCH /v1/orgs/x/teams/t: 410 Gone: title is too long"),
        (501, ServerError, "PATCH /v1/orgs/x/teams/t: 501 Not Implemented: title is too long"),
        (302, ApiError, "PATCH /v1/orgs/x/teams/t: 302 Found: title is too long"),
    ],
)
def test_error_answers_become_typed_errors_with_the_server_message(
    make_client: Build, status: int, cls: type[ApiError], text: str
) -> None:
    calls = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        return httpx.Response(status, json=error_body(status, "title is too long"))

    async def scenario() -> None:
        async with make_client(handler) as client:
            await client.write("PATCH", "/v1/orgs/x/teams/t", {"title": "x" * 99})

    with pytest.raises(cls) as caught:
        run(scenario())
    error = caught.value
    assert type(error) is cls and isinstance(error, DocsyncError)
    assert (error.method, error.path, error.status) == ("PATCH", "/v1/orgs/x/teams/t", status)
    assert error.message == "title is too long"
    assert str(error).startswith(text)
    assert calls == 1  # none of these is worth a retry
    assert "DOCSYNC_TOKEN" in str(error) if status in (401, 403) else True
    clone = pickle.loads(pickle.dumps(error))
    assert type(clone) is cls and str(clone) == str(error)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"<p>Bad   gateway\n page</p>", "<p>Bad gateway page</p>"),
        (b"", "(empty answer)"),
        (b'{"error": "plain string"}', "plain string"),
        (b'{"detail": "other shape"}', '{"detail": "other shape"}'),
        (b"x" * 500, "x" * 200 + "..."),
    ],
)  # fmt: skip
def test_error_bodies_that_are_not_the_usual_shape_still_explain(
    make_client: Build, content: bytes, message: str
) -> None:
    async def scenario() -> None:
        async with make_client(lambda request: httpx.Response(404, content=content)) as client:
            await client.get("/v1/orgs/o")

    with pytest.raises(NotFound) as caught:
        run(scenario())
    assert caught.value.message == message
    assert str(caught.value) == f"GET /v1/orgs/o: 404 Not Found: {message}"


def test_a_success_that_is_not_json_is_an_error(make_client: Build) -> None:
    async def scenario() -> None:
        async with make_client(lambda request: httpx.Response(200, text="<html>")) as client:
            await client.get("/v1/orgs/o")

    with pytest.raises(ApiError, match=r"GET /v1/orgs/o: 200 OK: expected a JSON answer"):
        run(scenario())


def test_the_token_never_shows_in_logs_errors_or_repr(
    make_client: Build, caplog: pytest.LogCaptureFixture
) -> None:
    echo = f"invalid token {TOKEN}"

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/flaky"):
            raise httpx.ReadError(f"boom {TOKEN}")
        if request.url.path.endswith("/secret"):
            return httpx.Response(401, json=error_body(401, echo))
        return httpx.Response(200, json={"items": [{"id": "1"}]})

    errors: list[BaseException] = []

    async def scenario() -> ApiClient:
        async with make_client(handler) as client:
            await client.list_all("/v1/orgs/o/members")
            await client.write("PATCH", "/v1/orgs/o/saml/s", {"certificate": "PEM"})
            for path in ("/v1/orgs/o/secret", "/v1/orgs/o/flaky"):
                try:
                    await client.get(path)
                except ApiError as error:
                    errors.append(error)
            try:
                await client.write("POST", "/v1/orgs/o/flaky", {"label": "x"})
            except ApiError as error:
                errors.append(error)
            return client

    with caplog.at_level(logging.DEBUG):
        client = run(scenario())
    assert len(errors) == 3
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "GET /v1/orgs/o/members?limit=1000 -> 200 (" in logged
    assert "PATCH /v1/orgs/o/saml/s -> 200 (" in logged
    assert "PEM" not in logged  # request bodies are never logged
    for text in [logged, repr(client), *map(str, errors), *(repr(e.args) for e in errors)]:
        assert TOKEN not in text
    assert "invalid token (token)" in str(errors[0])


def test_stats_count_every_request_and_the_time_spent(make_client: Build) -> None:
    answers = iter([503, 200, 200])

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(next(answers), json={})

    async def scenario() -> ApiClient:
        async with make_client(handler) as client:
            await client.get("/v1/orgs/o")
            await client.get("/v1/orgs/o")
            return client

    stats = run(scenario()).stats
    assert (stats.requests, stats.retries) == (3, 1)
    assert stats.seconds > 0
    assert 0 < stats.waited <= 0.01


def test_from_options_reads_url_and_token_from_the_environment() -> None:
    environ = {"DOCSYNC_TOKEN": f" {TOKEN}\n", "DOCSYNC_API_URL": "http://localhost:8719/v1"}
    client = ApiClient.from_options(None, 3, environ)
    assert (client.base_url, client.parallelism) == ("http://localhost:8719", 3)
    assert ApiClient.from_options("http://[::1]:9", 8, environ).base_url == "http://[::1]:9"
    default = ApiClient.from_options(None, 8, {"DOCSYNC_TOKEN": TOKEN})
    assert default.base_url == "https://api.gitbook.com"
    with pytest.raises(ConfigError, match="DOCSYNC_TOKEN is not set"):
        ApiClient.from_options(None, 8, {"DOCSYNC_API_URL": "https://api.gitbook.com"})
    with pytest.raises(ConfigError, match="plain http"):
        ApiClient.from_options("http://api.example.com", 8, environ)
    with pytest.raises(ConfigError, match="parallelism"):
        ApiClient.from_options(None, 0, environ)


def test_a_client_can_be_closed_and_reused_as_context(clock: FakeClock) -> None:
    client = ApiClient("https://api.example", TOKEN, retry=RetryPolicy(max_attempts=1))

    async def scenario() -> None:
        async with client as entered:
            assert entered is client
        with pytest.raises(RuntimeError):
            await client.get("/v1/orgs")

    run(scenario())


def test_wall_time_counts_the_waits_between_retries(clock: FakeClock) -> None:
    """-v reports what the user waited for: backoff included, not only time on the wire."""
    answers = iter([503, 503, 200])

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(next(answers), json={})

    retry = RetryPolicy(max_attempts=3, base=0.1, cap=0.1)
    # Draws well above zero: the waits are real.
    client = mock_client(clock, handler, sleep=asyncio.sleep, retry=retry, rng=random.Random(3))

    async def scenario() -> RequestStats:
        async with client:
            before = client.stats.copy()
            await client.get("/v1/orgs/o")
            return client.stats.since(before)

    spent = run(scenario())
    assert spent.waited > 0.05
    assert spent.wall >= spent.waited > spent.seconds

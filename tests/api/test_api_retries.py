"""Retries, OutcomeUnknown, pacing by X-RateLimit-* and the concurrency bound, on a fake clock."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from email.utils import formatdate

import httpx
import pytest

from docsync.api import (
    ApiClient,
    ApiError,
    OutcomeUnknown,
    RateLimited,
    RetryPolicy,
    ServerError,
)
from docsync.api.ratelimit import RESET_MARGIN
from tests.api.apikit import FakeClock, error_body, mock_client, run

Build = Callable[..., ApiClient]
OK = httpx.Response(200, json={"id": "x"})


def scripted(*steps: httpx.Response | Exception) -> tuple[Callable[..., httpx.Response], list[str]]:
    """A handler that plays `steps` in order (raising the exceptions) and logs each request."""
    queue = list(steps)
    log: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        log.append(f"{request.method} {request.url.path}")
        step = queue.pop(0)
        if isinstance(step, Exception):
            raise step
        return step

    return handler, log


def call(client: ApiClient, method: str, path: str = "/v1/orgs/o/teams") -> object:
    async def scenario() -> object:
        async with client:
            if method == "GET":
                return await client.get(path)
            return await client.write(method, path, {"title": "T"})

    return run(scenario())


def too_many(**headers: str) -> httpx.Response:
    return httpx.Response(429, headers=headers, json=error_body(429, "API rate limit exceeded"))


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "PATCH", "DELETE"])
def test_429_is_retried_after_retry_after_seconds_for_every_method(
    make_client: Build, clock: FakeClock, method: str
) -> None:
    handler, log = scripted(too_many(**{"Retry-After": "7"}), OK)
    client = make_client(handler)
    assert call(client, method) == {"id": "x"}
    assert len(log) == 2 and clock.sleeps == [7.0]
    assert (client.stats.requests, client.stats.retries) == (2, 1)


def test_429_honours_an_http_date_then_the_ratelimit_reset(
    make_client: Build, clock: FakeClock
) -> None:
    date = formatdate(clock.now + 30, usegmt=True)
    reset = str(int(clock.now + 30 + 12))
    handler, _ = scripted(
        too_many(**{"Retry-After": date}), too_many(**{"X-RateLimit-Reset": reset}), OK
    )
    assert call(make_client(handler), "GET") == {"id": "x"}
    assert clock.sleeps == [pytest.approx(30.0), pytest.approx(12.0)]


def test_429_without_hints_backs_off_and_a_long_ask_fails_fast(
    make_client: Build, clock: FakeClock
) -> None:
    handler, _ = scripted(too_many(), OK)
    call(make_client(handler), "GET")
    assert len(clock.sleeps) == 1 and 0 <= clock.sleeps[0] <= 0.01

    handler, log = scripted(too_many(**{"Retry-After": "3600"}))
    with pytest.raises(RateLimited, match="asks to wait 3600 s") as caught:
        call(make_client(handler), "GET")
    assert caught.value.message == "API rate limit exceeded" and len(log) == 1


def test_429_has_an_allowance_of_its_own_larger_than_the_5xx_one(
    make_client: Build, clock: FakeClock
) -> None:
    # the client allows 4 attempts (apikit): eight 429s in a row do not spend them
    handler, log = scripted(*[too_many(**{"Retry-After": "2"})] * 8, OK)
    assert call(make_client(handler), "PUT") == {"id": "x"}
    assert len(log) == 9 and clock.sleeps == [2.0] * 8


def test_429s_and_5xx_are_counted_apart(make_client: Build) -> None:
    busy = httpx.Response(503, json=error_body(503, "busy"))
    handler, log = scripted(*[too_many(), too_many(), busy] * 3, OK)
    assert call(make_client(handler), "GET") == {"id": "x"}
    assert len(log) == 10

    handler, log = scripted(*[too_many(), busy] * 4)
    with pytest.raises(ServerError, match=r"gave up after 8 attempts"):
        call(make_client(handler), "GET")
    assert len(log) == 8  # the fourth 5xx ends it, as without the 429s


@pytest.mark.parametrize("asks", [{"Retry-After": "7"}, {}])
def test_429_for_ever_ends_within_the_deadline_in_one_line_naming_the_request(
    make_client: Build, clock: FakeClock, asks: dict[str, str]
) -> None:
    log: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        log.append(request.url.path)
        return too_many(**asks)

    policy = RetryPolicy(max_attempts=4, base=0.5, cap=30.0)
    start = clock.now
    with pytest.raises(RateLimited) as caught:
        call(make_client(handler, retry=policy), "GET")
    message = str(caught.value)
    assert "\n" not in message and message.startswith("GET /v1/orgs/o/teams: 429 Too Many")
    assert "still rate limited after" in message and message.endswith("try again later)")
    assert clock.now - start <= policy.rate_limited_for
    assert len(log) <= policy.rate_limited_attempts
    assert len(log) > policy.max_attempts


def test_the_429_allowance_is_bounded_by_attempts_too(make_client: Build) -> None:
    handler, log = scripted(*[too_many(**{"Retry-After": "1"})] * 3)
    policy = RetryPolicy(max_attempts=4, base=0.01, cap=0.05, rate_limited_attempts=3)
    with pytest.raises(RateLimited, match=r"still rate limited after 3 attempts in 2 s"):
        call(make_client(handler, retry=policy), "GET")
    assert len(log) == 3


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_5xx_is_retried_for_reads_and_idempotent_writes(make_client: Build, status: int) -> None:
    for method in ("GET", "PATCH", "PUT", "DELETE"):
        handler, log = scripted(httpx.Response(status, json=error_body(status, "busy")), OK)
        assert call(make_client(handler), method) == {"id": "x"}
        assert len(log) == 2


def test_503_retry_after_is_honoured(make_client: Build, clock: FakeClock) -> None:
    handler, _ = scripted(httpx.Response(503, headers={"Retry-After": "2"}), OK)
    call(make_client(handler), "GET")
    assert clock.sleeps == [2.0]


def test_persistent_503_ends_in_a_server_error(make_client: Build, clock: FakeClock) -> None:
    handler, log = scripted(*[httpx.Response(503, json=error_body(503, "down"))] * 4)
    with pytest.raises(ServerError) as caught:
        call(make_client(handler), "GET")
    assert str(caught.value) == (
        "GET /v1/orgs/o/teams: 503 Service Unavailable: down (gave up after 4 attempts)"
    )
    assert len(log) == 4 and len(clock.sleeps) == 3
    assert all(0 <= delay <= 0.05 for delay in clock.sleeps)


@pytest.mark.parametrize(
    "dropped",
    [
        httpx.RemoteProtocolError("Server disconnected without sending a response."),
        httpx.ReadError("connection reset"),
        httpx.ReadTimeout("timed out"),
    ],
)
def test_dropped_connection_is_retried_for_idempotent_writes(
    make_client: Build, dropped: Exception
) -> None:
    handler, log = scripted(dropped, OK)
    assert call(make_client(handler), "PATCH") == {"id": "x"}
    assert log == ["PATCH /v1/orgs/o/teams"] * 2


@pytest.mark.parametrize(
    "dropped",
    [
        httpx.RemoteProtocolError("Server disconnected without sending a response."),
        httpx.ReadTimeout("timed out"),
        httpx.WriteError("broken pipe"),
    ],
)
def test_post_on_dropped_connection_is_outcome_unknown_and_not_retried(
    make_client: Build, dropped: Exception
) -> None:
    handler, log = scripted(dropped, OK)
    with pytest.raises(OutcomeUnknown) as caught:
        call(make_client(handler), "POST")
    assert len(log) == 1
    error = caught.value
    assert (error.method, error.path, error.status) == ("POST", "/v1/orgs/o/teams", None)
    assert str(error).startswith(f"POST /v1/orgs/o/teams: no response: {error.message}")
    assert "may or may not have happened" in str(error)


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_post_on_5xx_is_outcome_unknown_and_not_retried(make_client: Build, status: int) -> None:
    handler, log = scripted(httpx.Response(status, json=error_body(status, "oops")), OK)
    with pytest.raises(OutcomeUnknown) as caught:
        call(make_client(handler), "POST")
    assert len(log) == 1
    assert (caught.value.status, caught.value.message) == (status, "oops")


def test_a_put_that_creates_can_be_marked_non_idempotent(make_client: Build) -> None:
    handler, log = scripted(httpx.Response(502), OK)

    async def scenario() -> None:
        async with make_client(handler) as client:
            await client.write("PUT", "/v1/orgs/o/teams", {"title": "T"}, idempotent=False)

    with pytest.raises(OutcomeUnknown):
        run(scenario())
    assert len(log) == 1


def test_post_is_retried_when_the_connection_never_opened(make_client: Build) -> None:
    handler, log = scripted(httpx.ConnectError("refused"), httpx.ConnectTimeout("slow"), OK)
    assert call(make_client(handler), "POST") == {"id": "x"}
    assert len(log) == 3


def test_a_post_marked_idempotent_is_retried_after_a_drop(make_client: Build) -> None:
    handler, log = scripted(httpx.ReadError("reset"), OK)

    async def scenario() -> object:
        async with make_client(handler) as client:
            return await client.write("POST", "/v1/orgs/o/sites/s/publish", idempotent=True)

    assert run(scenario()) == {"id": "x"}
    assert len(log) == 2


def test_connection_failures_give_up_with_a_clear_error(make_client: Build) -> None:
    handler, log = scripted(*[httpx.ConnectError("[Errno 111] Connection refused")] * 4)
    with pytest.raises(ApiError) as caught:
        call(make_client(handler), "GET")
    assert str(caught.value) == (
        "GET /v1/orgs/o/teams: no response: could not connect "
        "(ConnectError: [Errno 111] Connection refused) (gave up after 4 attempts)"
    )
    assert len(log) == 4


def test_unsupported_protocol_is_not_retried(make_client: Build) -> None:
    handler, log = scripted(httpx.UnsupportedProtocol("no"), OK)
    with pytest.raises(ApiError, match="unsupported URL scheme"):
        call(make_client(handler), "GET")
    assert len(log) == 1


def rate(remaining: int, reset: float) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": "60",
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": str(int(reset)),
    }


def test_pacing_waits_for_the_reset_when_the_budget_is_spent(
    make_client: Build, clock: FakeClock
) -> None:
    reset = clock.now + 40
    sent_at: list[float] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent_at.append(clock.now)
        left = 1 - len(sent_at) if clock.now < reset else 59
        return httpx.Response(200, headers=rate(max(left, 0), reset), json={})

    async def scenario() -> ApiClient:
        async with make_client(handler, parallelism=1) as client:
            for _ in range(4):
                await client.get("/v1/orgs/o")
            return client

    client = run(scenario())
    start = reset - 40
    # Request 1 leaves 0: request 2 waits for the reset (and the second of margin a reset in
    # whole seconds needs); then the budget is ample again.
    after = reset + RESET_MARGIN
    assert sent_at == [start, after, after, after]
    assert clock.sleeps == [40.0 + RESET_MARGIN]
    assert client.stats.waited == 40.0 + RESET_MARGIN


def test_pacing_spans_windows_without_a_429_when_the_reset_is_rounded_down(
    make_client: Build, clock: FakeClock
) -> None:
    """A server whose windows end half a second after the whole second its reset header says:
    a budget of 3 per window, 7 requests one after the other, never a 429."""
    start = clock.now
    length = 10.5
    spent: dict[int, int] = {}

    def handler(request: httpx.Request) -> httpx.Response:
        window = int((clock.now - start) // length)
        spent[window] = spent.get(window, 0) + 1
        ends = start + (window + 1) * length
        headers = rate(3 - spent[window], ends) | {"X-RateLimit-Limit": "3"}
        if spent[window] > 3:
            return httpx.Response(429, headers=headers, json=error_body(429, "slow down"))
        return httpx.Response(200, headers=headers, json={})

    async def scenario() -> ApiClient:
        async with make_client(handler, parallelism=1) as client:
            for _ in range(7):
                await client.get("/v1/orgs/o")
            return client

    client = run(scenario())
    assert client.stats.retries == 0
    assert client.stats.requests == 7
    assert client.rate_limit == 3
    assert sorted(spent) == [0, 1, 2]


def test_pacing_waits_are_bounded_and_stale_windows_ignored(
    make_client: Build, clock: FakeClock
) -> None:
    start = clock.now
    answers = [rate(0, start + 10_000), rate(0, start - 5), rate(5, start + 20_000)]

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers=answers.pop(0) if answers else {}, json={})

    async def scenario() -> None:
        retry = RetryPolicy(max_attempts=2, base=0.01, cap=0.05, max_wait=120)
        async with make_client(handler, retry=retry, parallelism=1) as client:
            for _ in range(4):
                await client.get("/v1/orgs/o")

    run(scenario())
    # One bounded wait after the first answer; the second answer's window is already over and
    # the third's budget (5) covers the single request in flight.
    assert clock.sleeps == [120.0]


def test_a_429_holds_back_every_other_request(clock: FakeClock) -> None:
    sent_at: dict[str, float] = {}
    started: list[asyncio.Task[object]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        first = request.url.path not in sent_at
        sent_at.setdefault(request.url.path, clock.now)
        if request.url.path == "/v1/a" and first:
            return too_many(**{"Retry-After": "9"})
        return httpx.Response(200, json={})

    async def sleep(seconds: float) -> None:
        if not started:  # /v1/a sits out its 429: a new request starts meanwhile
            started.append(asyncio.ensure_future(client.get("/v1/b")))
            await started[0]
        await clock.sleep(seconds)

    client = mock_client(clock, handler, sleep=sleep)

    async def scenario() -> None:
        async with client:
            await client.get("/v1/a")

    start = clock.now
    run(scenario())
    assert sent_at["/v1/b"] == start + 9  # held by the 429 on another request
    assert clock.sleeps == [9.0, 9.0]


def test_in_flight_requests_never_exceed_parallelism(make_client: Build) -> None:
    in_flight = peak = 0

    async def handler(request: httpx.Request) -> httpx.Response:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.002)
        in_flight -= 1
        return httpx.Response(200, json={"items": []})

    async def scenario() -> ApiClient:
        async with make_client(handler, parallelism=3) as client:
            await asyncio.gather(*(client.get(f"/v1/orgs/o{i}") for i in range(20)))
            return client

    client = run(scenario())
    assert peak == 3
    assert client.stats.requests == 20


@pytest.mark.parametrize(
    "lost",
    [
        httpx.RemoteProtocolError("peer closed connection"),
        httpx.Response(503, json=error_body(503, "unavailable")),
    ],
)
def test_a_delete_whose_answer_was_lost_is_done_when_the_retry_finds_nothing(
    make_client: Build, lost: httpx.Response | Exception
) -> None:
    missing = httpx.Response(404, json=error_body(404, "not found"))
    handler, log = scripted(lost, missing)
    assert call(make_client(handler), "DELETE") is None
    assert log == ["DELETE /v1/orgs/o/teams"] * 2


@pytest.mark.parametrize("first", [too_many(**{"Retry-After": "1"}), httpx.ConnectError("down")])
def test_a_delete_answered_404_is_an_error_when_no_attempt_may_have_run(
    make_client: Build, first: httpx.Response | Exception
) -> None:
    handler, _ = scripted(first, httpx.Response(404, json=error_body(404, "not found")))
    with pytest.raises(ApiError, match="404"):
        call(make_client(handler), "DELETE")


#: the client's own policy (its deadline: 30 s for one answer, retries included)
LIVING = RetryPolicy()


def test_a_flaky_server_is_retried_until_the_deadline_not_five_times(
    make_client: Build, clock: FakeClock
) -> None:
    """A server failing a try in three fails five in a row, now and then: the request goes on
    while its deadline lasts (it gave up after 5 attempts, 4 of them while planning)."""
    busy = httpx.Response(503, json=error_body(503, "busy"))
    handler, log = scripted(*[busy] * 8, OK)
    start = clock.now
    assert call(make_client(handler, retry=LIVING), "GET") == {"id": "x"}
    assert len(log) == 9 and clock.now - start <= 30.0


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE"])
def test_a_dead_server_ends_the_request_at_its_deadline(
    make_client: Build, clock: FakeClock, method: str
) -> None:
    log: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        log.append(request.url.path)
        return httpx.Response(503, json=error_body(503, "down"))

    start = clock.now
    with pytest.raises(ServerError) as caught:
        call(make_client(handler, retry=LIVING, timeout=30.0), method)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"{method} /v1/orgs/o/teams: 503 ")
    assert f"(gave up after {len(log)} attempts in " in message
    assert message.endswith(
        "docsync waits 30 s for one answer, retries included: --timeout changes it)"
    )
    assert len(log) > 5 and 29.0 <= clock.now - start <= 30.0  # tried until its deadline


def test_a_delete_done_by_a_lost_try_is_done_whatever_failed_after_it(
    make_client: Build, clock: FakeClock
) -> None:
    """The first try deleted it and its answer was lost; the next ones fail (5xx) more than
    five times, then the API says nothing is there: done (it exited 1, though done)."""
    busy = httpx.Response(503, json=error_body(503, "busy"))
    for gone in (httpx.Response(204), httpx.Response(404, json=error_body(404, "not found"))):
        handler, log = scripted(httpx.RemoteProtocolError("peer closed"), *[busy] * 6, gone)
        assert call(make_client(handler, retry=LIVING), "DELETE") is None
        assert len(log) == 8

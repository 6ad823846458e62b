"""Backoff bounds and the parsing of Retry-After and X-RateLimit-* headers; the pacer alone."""

from __future__ import annotations

from email.utils import formatdate

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docsync.api import RetryPolicy
from docsync.api.ratelimit import RESET_MARGIN, RatePacer
from docsync.api.retry import ratelimit_remaining, ratelimit_reset, retry_after, wait_for_429
from tests.api.apikit import FakeClock, run

NOW = 1_700_000_000.0


@given(
    base=st.floats(0, 10),
    cap=st.floats(0, 100),
    attempt=st.integers(1, 10_000),
    draw=st.floats(0, 1, exclude_max=True),
)
def test_backoff_is_full_jitter_under_the_cap(
    base: float, cap: float, attempt: int, draw: float
) -> None:
    policy = RetryPolicy(base=base, cap=cap)
    delay = policy.backoff(attempt, draw)
    ceiling = cap if attempt > 1000 else min(cap, base * 2.0 ** (attempt - 1))
    assert 0.0 <= delay <= ceiling
    assert policy.backoff(attempt, draw / 2) <= delay  # a larger draw never waits less


@given(attempt=st.integers(1, 20))
def test_backoff_ceiling_doubles_until_the_cap(attempt: int) -> None:
    policy = RetryPolicy(base=0.5, cap=30.0)
    nearly_one = 1.0 - 1e-12
    assert policy.backoff(attempt, nearly_one) == pytest.approx(min(30.0, 0.5 * 2 ** (attempt - 1)))
    assert policy.backoff(attempt, 0.0) == 0.0


def test_policy_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="max_attempts"):
        RetryPolicy(max_attempts=0)
    with pytest.raises(ValueError, match="negative"):
        RetryPolicy(base=-1)
    with pytest.raises(ValueError, match="rate_limited_attempts"):
        RetryPolicy(rate_limited_attempts=0)
    with pytest.raises(ValueError, match="negative"):
        RetryPolicy(rate_limited_for=-1)


def test_failures_are_bounded_by_the_deadline_and_429s_by_an_allowance_of_their_own() -> None:
    policy = RetryPolicy()
    assert policy.max_attempts is None  # the request's deadline (--timeout) bounds its tries
    assert policy.rate_limited_attempts > 1
    assert 0 < policy.rate_limited_for < float("inf")


@pytest.mark.parametrize(
    ("value", "expected"),
    [("5", 5.0), (" 0.5 ", 0.5), ("-3", 0.0), (formatdate(NOW + 42, usegmt=True), 42.0),
     (formatdate(NOW - 42, usegmt=True), 0.0), ("soon", None), ("Tue, 99 Foo 2024", None)],
)  # fmt: skip
def test_retry_after_reads_seconds_and_http_dates(value: str, expected: float | None) -> None:
    got = retry_after({"retry-after": value}, NOW)
    assert got == (pytest.approx(expected) if expected is not None else None)


@given(st.text(max_size=40))
def test_header_parsers_never_raise(value: str) -> None:
    headers = {
        "retry-after": value,
        "x-ratelimit-reset": value,
        "x-ratelimit-remaining": value,
    }
    for result in (
        retry_after(headers, NOW),
        ratelimit_reset(headers, NOW),
        wait_for_429(headers, NOW),
    ):
        assert result is None or result >= 0
    remaining = ratelimit_remaining(headers)
    assert remaining is None or remaining >= 0


def test_ratelimit_reset_reads_epoch_seconds_or_a_delay() -> None:
    assert ratelimit_reset({"x-ratelimit-reset": str(int(NOW + 60))}, NOW) == NOW + 60
    assert ratelimit_reset({"x-ratelimit-reset": "60"}, NOW) == NOW + 60
    assert ratelimit_reset({"x-ratelimit-reset": "nan"}, NOW) is None
    assert ratelimit_reset({}, NOW) is None
    assert ratelimit_remaining({"x-ratelimit-remaining": "12"}) == 12
    assert wait_for_429({"x-ratelimit-reset": str(int(NOW + 8))}, NOW) == 8
    assert wait_for_429({"x-ratelimit-reset": str(int(NOW - 8))}, NOW) is None
    assert wait_for_429({"retry-after": "3", "x-ratelimit-reset": str(int(NOW + 8))}, NOW) == 3


def headers(remaining: int, reset: float) -> dict[str, str]:
    return {"x-ratelimit-remaining": str(remaining), "x-ratelimit-reset": str(reset)}


def test_pacer_waits_only_when_the_budget_does_not_cover_requests_in_flight() -> None:
    clock = FakeClock(NOW)
    pacer = RatePacer(clock, clock.sleep, max_wait=120)
    assert pacer.delay() == 0
    pacer.observe(headers(3, NOW + 30))
    pacer.in_flight = 2
    assert pacer.delay() == 0
    pacer.in_flight = 3
    wait = 30 + RESET_MARGIN  # the reset is in whole seconds: a second of margin
    assert pacer.delay() == wait
    pacer.observe(headers(10, NOW + 5))  # an older window's answer arriving late: ignored
    assert pacer.delay() == wait
    pacer.observe(headers(1, NOW + 30))  # the same window, lower: taken
    pacer.in_flight = 1
    assert pacer.delay() == wait
    run(pacer.wait())
    assert clock.sleeps == [wait] and pacer.waited == wait
    assert pacer.delay() == 0  # the window is over


def test_pacer_hold_is_bounded_and_shared() -> None:
    clock = FakeClock(NOW)
    pacer = RatePacer(clock, clock.sleep, max_wait=60)
    pacer.hold(9)
    assert pacer.delay() == 9
    pacer.hold(5)  # a shorter hold does not shorten the longer one
    assert pacer.delay() == 9
    pacer.hold(600)
    assert pacer.delay() == 60
    clock.now += 61
    assert pacer.delay() == 0

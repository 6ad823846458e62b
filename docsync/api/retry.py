"""When to retry a request and how long to wait: capped exponential backoff with full jitter."""

from __future__ import annotations

import email.utils
from collections.abc import Mapping
from dataclasses import dataclass

import httpx

RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504})
# Transport errors raised before any byte of the request reached the server: safe to retry
# even for a create.
NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
# Transport errors that retrying cannot fix (a bad URL, a request httpx refused to send).
HOPELESS = (httpx.UnsupportedProtocol, httpx.LocalProtocolError)
# Below this, an X-RateLimit-Reset value is read as seconds from now rather than an epoch time
# (production sends epoch seconds; some servers and proxies send a delay).
_EPOCH_THRESHOLD = 1_000_000_000.0


@dataclass(frozen=True)
class RetryPolicy:
    """How persistent the client is.

    A try that ends in a 5xx or a lost connection is tried again, after a backoff, for as long
    as the request's deadline lasts (`Deadlines.answer`, `--timeout`: from the first try to the
    answer, retries and their waits included): a flaky but living server is waited out, a dead
    one ends the request at its deadline. `max_attempts`, when given, also bounds those tries,
    the first included (None: the deadline alone). A 429 says "slow down", not "broken":
    rate-limited answers have their own, larger allowance, `rate_limited_attempts` of them
    within `rate_limited_for` seconds of the request's first try, so a busy API slows an apply
    down without ending it, and a CI job still never waits on one request for longer than that.
    Backoff before attempt n+1 is uniform in [0, min(cap, base * 2**(n-1))] ("full jitter"),
    which spreads out concurrent retries. `max_wait` bounds any single wait the server asks for
    (Retry-After, X-RateLimit-Reset): a longer one fails fast instead of hanging a CI job.
    """

    max_attempts: int | None = None
    base: float = 0.5
    cap: float = 30.0
    max_wait: float = 120.0
    rate_limited_attempts: int = 30
    rate_limited_for: float = 300.0

    def __post_init__(self) -> None:
        if self.max_attempts is not None and self.max_attempts < 1:
            raise ValueError("RetryPolicy.max_attempts must be at least 1")
        if self.rate_limited_attempts < 1:
            raise ValueError("RetryPolicy.rate_limited_attempts must be at least 1")
        if min(self.base, self.cap, self.max_wait, self.rate_limited_for) < 0:
            raise ValueError("RetryPolicy delays must not be negative")

    def backoff(self, attempt: int, draw: float) -> float:
        """The delay after failed attempt `attempt` (1-based); `draw` is uniform in [0, 1)."""
        ceiling = min(self.cap, self.base * 2.0 ** min(attempt - 1, 62))
        return max(0.0, min(1.0, draw)) * ceiling


def retry_after(headers: Mapping[str, str], now: float) -> float | None:
    """Seconds the server asks us to wait, from Retry-After (seconds or HTTP-date), else None."""
    value = headers.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        return _seconds_until(value, now)
    return max(0.0, seconds)


def _seconds_until(http_date: str, now: float) -> float | None:
    try:
        when = email.utils.parsedate_to_datetime(http_date)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - now)


def asked_wait(status: int, headers: Mapping[str, str], now: float) -> float | None:
    """The wait a retryable answer asks for: see wait_for_429; Retry-After for the others."""
    return wait_for_429(headers, now) if status == 429 else retry_after(headers, now)


def ratelimit_reset(headers: Mapping[str, str], now: float) -> float | None:
    """The epoch time at which the rate-limit window resets, from X-RateLimit-Reset, else None."""
    value = headers.get("x-ratelimit-reset")
    if value is None:
        return None
    try:
        reset = float(value.strip())
    except ValueError:
        return None
    if reset != reset or reset < 0:  # NaN or negative: ignore rather than guess
        return None
    return reset if reset >= _EPOCH_THRESHOLD else now + reset


def ratelimit_remaining(headers: Mapping[str, str]) -> int | None:
    """X-RateLimit-Remaining as an integer, else None."""
    value = headers.get("x-ratelimit-remaining")
    if value is None:
        return None
    try:
        return max(0, int(float(value.strip())))
    except (ValueError, OverflowError):
        return None


def wait_for_429(headers: Mapping[str, str], now: float) -> float | None:
    """The wait a 429 asks for: Retry-After, else until X-RateLimit-Reset; None if neither says."""
    delay = retry_after(headers, now)
    if delay is not None:
        return delay
    reset = ratelimit_reset(headers, now)
    if reset is not None and reset > now:
        return reset - now
    return None

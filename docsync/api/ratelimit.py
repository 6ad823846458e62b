"""Pace requests by the server's X-RateLimit-* headers: spend the budget in waits, not 429s."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping

from docsync.api.retry import ratelimit_remaining, ratelimit_reset

logger = logging.getLogger(__name__)

#: X-RateLimit-Reset is in whole seconds: the window may end up to a second after it says, so a
#: request held for the next window goes that much later, or it would meet the old one's 429.
RESET_MARGIN = 1.0

Sleep = Callable[[float], Awaitable[None]]
Clock = Callable[[], float]


class RatePacer:
    """Holds new requests back while the current rate-limit window has no budget left.

    The budget is the last `X-RateLimit-Remaining` seen for the newest window (`X-RateLimit-Reset`);
    a request waits when that budget does not cover the requests already in flight. A 429 holds
    everything until its retry time. Every wait is bounded by `max_wait` seconds.
    """

    def __init__(self, clock: Clock, sleep: Sleep, max_wait: float) -> None:
        self._clock = clock
        self._sleep = sleep
        self._max_wait = max_wait
        self._remaining: int | None = None
        self._reset: float | None = None
        self._hold_until = 0.0
        self.in_flight = 0
        self.waited = 0.0
        #: the last `X-RateLimit-Limit` seen: requests per window (None until a server sends it)
        self.limit: int | None = None

    def observe(self, headers: Mapping[str, str]) -> None:
        """Record a response's rate-limit headers; answers from an older window are ignored."""
        now = self._clock()
        limit = headers.get("x-ratelimit-limit", "").strip()
        if limit.isdigit() and int(limit) > 0:
            self.limit = int(limit)
        remaining = ratelimit_remaining(headers)
        reset = ratelimit_reset(headers, now)
        if remaining is None or reset is None:
            return
        if self._reset is None or reset > self._reset:
            self._remaining, self._reset = remaining, reset
        elif reset == self._reset and self._remaining is not None:
            self._remaining = min(self._remaining, remaining)

    def hold(self, seconds: float) -> None:
        """Stop every new request for `seconds` (after a 429: the whole client backs off)."""
        self._hold_until = max(self._hold_until, self._clock() + min(seconds, self._max_wait))

    def delay(self) -> float:
        """Seconds a new request should wait now (0 when it may go)."""
        now = self._clock()
        wait = max(0.0, self._hold_until - now)
        if self._reset is not None and self._reset + RESET_MARGIN <= now:
            self._remaining = self._reset = None  # the window is over: budget unknown again
        if (
            self._remaining is not None
            and self._reset is not None
            and self._remaining <= self.in_flight
        ):
            wait = max(wait, self._reset + RESET_MARGIN - now)
        return min(wait, self._max_wait)

    async def wait(self) -> None:
        """Sleep until a new request may go; called just before each request is sent."""
        delay = self.delay()
        if delay <= 0:
            return
        logger.debug("rate limit: waiting %.1f s before the next request", delay)
        self.waited += delay
        await self._sleep(delay)
        if self._reset is not None and self._clock() < self._reset + RESET_MARGIN:
            # We waited as long as we will; let the server's next answer (or 429) decide.
            self._remaining = self._reset = None

"""What the client cost a run: requests, retries, time in flight and time waited."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class RequestStats:
    """What the client cost: `requests` counts every HTTP request sent, retries included.

    `seconds` is wall-clock time with at least one request in flight; `waited` is time spent
    sleeping for backoff and rate limits; `wall` is the time since the client opened (or since
    the snapshot `since` was given), retries and waits included: what a user waited for.
    """

    requests: int = 0
    retries: int = 0
    seconds: float = 0.0
    waited: float = 0.0
    #: requests by kind of call, `METHOD /route/{template}` (retries included)
    calls: Counter[str] = field(default_factory=Counter)
    #: `time.perf_counter()` when counting began
    started: float = field(default_factory=time.perf_counter)

    @property
    def wall(self) -> float:
        """Seconds since counting began, whatever the client was doing."""
        return time.perf_counter() - self.started

    def since(self, earlier: RequestStats) -> RequestStats:
        """What was spent after `earlier` (a `copy()` taken then)."""
        return RequestStats(
            self.requests - earlier.requests,
            self.retries - earlier.retries,
            self.seconds - earlier.seconds,
            self.waited - earlier.waited,
            self.calls - earlier.calls,
            earlier.started,
        )

    def copy(self) -> RequestStats:
        """A snapshot, for `since`: what was spent until now, counted from now on."""
        return RequestStats(
            self.requests, self.retries, self.seconds, self.waited, Counter(self.calls)
        )

"""Fault injection for /v1 requests: latency, 429, 5xx, dropped connections, a rate-limit budget.

Every decision comes from one `random.Random(seed)`, drawn in a fixed order per request, so the
same seed and the same request sequence give the same faults.
"""

from __future__ import annotations

import random
import re
import threading
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from docsync.emulator.defaults import DEFAULT_RATE_LIMIT

RATE_LIMIT_MESSAGE = "API rate limit exceeded. Please try again in 60 seconds"
_WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass
class FaultRule:
    """Answer `status` to the next `count` requests whose method and path match (path: regex);
    with `drop`, carry them out and cut the connection instead (an answer lost after commit)."""

    method: str
    path: str
    status: int = 500
    count: int = 1
    message: str = "Injected failure"
    drop: bool = False

    def matches(self, method: str, path: str) -> bool:
        """True when this rule applies to the request (method `*` matches any)."""
        return (self.method == "*" or self.method.upper() == method) and bool(
            re.search(self.path, path)
        )


@dataclass
class FaultConfig:
    """What to inject; every share is a probability in [0, 1]. All off by default."""

    latency: float = 0.0  # milliseconds added to each request
    fail_429: float = 0.0
    fail_5xx: float = 0.0
    drop_after_commit: float = 0.0
    #: requests per window; production sends X-RateLimit-* on every answer, so the emulator
    #: does too, with a budget no test meets unless it asks for less; 0 = no budget, no headers
    rate_limit: int = DEFAULT_RATE_LIMIT
    rate_window: float = 60.0  # seconds
    retry_after: int = 1  # seconds, sent with injected 429s
    seed: int = 0
    rules: list[FaultRule] = field(default_factory=list)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> FaultConfig:
        """Build from the control API's JSON (snake_case or the CLI's dashed names).

        Raises ValueError with the field name on unknown fields or bad values.
        """
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in raw.items():
            name = key.replace("-", "_")
            if name == "fault_seed":
                name = "seed"
            if name not in known:
                raise ValueError(f"{key}: unknown fault option (known: {', '.join(sorted(known))})")
            values[name] = value
        rules = values.pop("rules", [])
        if not isinstance(rules, list):
            raise ValueError("rules: must be a list of {method, path, status, count}")
        try:
            config = cls(**values, rules=[FaultRule(**rule) for rule in rules])
        except TypeError as error:
            raise ValueError(f"rules: {error}") from error
        config.check()
        return config

    def check(self) -> None:
        """Raise ValueError naming the first option out of range."""
        for name in ("fail_429", "fail_5xx", "drop_after_commit"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise ValueError(f"{name}: must be a share between 0 and 1, got {value!r}")
        for name in ("latency", "rate_window", "rate_limit", "retry_after", "seed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise ValueError(f"{name}: must be a number >= 0, got {value!r}")
        if self.rate_window <= 0:
            raise ValueError("rate_window: must be more than 0 seconds")
        for rule in self.rules:
            try:
                re.compile(rule.path)
            except re.error as error:
                raise ValueError(f"rules: bad path regex {rule.path!r}: {error}") from error

    def to_dict(self) -> dict[str, Any]:
        """The JSON form answered by GET /_emulator/faults."""
        return asdict(self)


@dataclass
class Decision:
    """What to do with one request, decided before it runs."""

    latency: float = 0.0
    status: int | None = None  # answer this error instead of running the request
    message: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    drop: bool = False  # for a write: commit, then cut the connection


class FaultEngine:
    """Holds the fault configuration, its random stream and the rate-limit window."""

    def __init__(self, config: FaultConfig | None = None) -> None:
        self._lock = threading.Lock()
        self.configure(config or FaultConfig())

    @property
    def config(self) -> FaultConfig:
        """The configuration in force."""
        return self._config

    def configure(self, config: FaultConfig) -> None:
        """Replace the configuration and restart the random stream and the budget window."""
        with self._lock:
            self._config = config
            self._random = random.Random(config.seed)
            self._window_start: float | None = None
            self._used = 0

    def decide(self, method: str, path: str, now: float) -> Decision:
        """Decide the faults of one /v1 request; `now` is the emulator clock in epoch seconds."""
        with self._lock:
            config = self._config
            decision = Decision(latency=config.latency)
            # Draw the same numbers for every request so the stream stays reproducible.
            r429, r5xx, r503, rdrop = (self._random.random() for _ in range(4))
            for rule in config.rules:
                if rule.count > 0 and rule.matches(method, path):
                    rule.count -= 1
                    if rule.drop and method in _WRITE_METHODS:
                        decision.drop = True
                    else:
                        decision.status, decision.message = rule.status, rule.message
                    return decision
            if r429 < config.fail_429:
                decision.status, decision.message = 429, RATE_LIMIT_MESSAGE
                decision.headers["Retry-After"] = str(config.retry_after)
            elif r5xx < config.fail_5xx:
                decision.status = 503 if r503 < 0.5 else 500
                decision.message = "Injected server error"
            elif method in _WRITE_METHODS and rdrop < config.drop_after_commit:
                decision.drop = True
            return decision

    def budget(self, now: float, charge: bool) -> tuple[dict[str, str], bool]:
        """The X-RateLimit-* headers of an answer, and whether the budget is exceeded.

        Only authenticated requests that reach the API `charge` the budget (a bad token gets
        its 401, never a 429); every other answer shows the window as it stands."""
        with self._lock:
            config = self._config
            if not config.rate_limit:
                return {}, False
            if self._window_start is None or now >= self._window_start + config.rate_window:
                self._window_start, self._used = now, 0
            reset = int(self._window_start + config.rate_window)
            self._used += charge
            remaining = max(config.rate_limit - self._used, 0)
            headers = {
                "X-RateLimit-Limit": str(config.rate_limit),
                "X-RateLimit-Remaining": str(remaining),
                "X-RateLimit-Reset": str(reset),
            }
            return headers, charge and self._used > config.rate_limit

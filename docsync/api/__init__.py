"""The Management API client: one async httpx client with retries, pacing and typed errors.

Names are loaded on first use (PEP 562): the kinds import the error types (`docsync.api.errors`)
while a manifest is validated, which must not load httpx.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any


def _httpx_without_its_command_line() -> None:
    """httpx's package imports its command-line tool, and with it rich and pygments, whenever
    they are installed (45 ms of every plan's start); docsync never runs that tool, so a
    stand-in takes its place unless httpx is loaded already."""
    if "httpx" in sys.modules:
        return
    stand_in = types.ModuleType("httpx._main", "httpx's command line, not loaded by docsync")

    def main() -> None:
        raise SystemExit("httpx's command line is not loaded inside docsync: run `httpx`")

    stand_in.main = main  # type: ignore[attr-defined]
    sys.modules.setdefault("httpx._main", stand_in)


_httpx_without_its_command_line()

if TYPE_CHECKING:
    from docsync.api.client import ApiClient
    from docsync.api.config import DEFAULT_API_URL
    from docsync.api.errors import (
        ApiError,
        BadRequest,
        ConfigError,
        Conflict,
        NotFound,
        OutcomeUnknown,
        RateLimited,
        ServerError,
        TimedOut,
        Unauthorized,
    )
    from docsync.api.exchange import Deadlines
    from docsync.api.retry import RetryPolicy
    from docsync.api.stats import RequestStats

_WHERE = {
    "ApiClient": "client",
    "RequestStats": "stats",
    "Deadlines": "exchange",
    "DEFAULT_API_URL": "config",
    "RetryPolicy": "retry",
    **dict.fromkeys(
        (
            "ApiError",
            "BadRequest",
            "ConfigError",
            "Conflict",
            "NotFound",
            "OutcomeUnknown",
            "RateLimited",
            "ServerError",
            "TimedOut",
            "Unauthorized",
        ),
        "errors",
    ),
}

__all__ = [
    "DEFAULT_API_URL",
    "ApiClient",
    "ApiError",
    "BadRequest",
    "ConfigError",
    "Conflict",
    "Deadlines",
    "NotFound",
    "OutcomeUnknown",
    "RateLimited",
    "RequestStats",
    "RetryPolicy",
    "ServerError",
    "TimedOut",
    "Unauthorized",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'docsync.api' has no attribute {name!r}")
    return getattr(importlib.import_module(f"docsync.api.{module}"), name)

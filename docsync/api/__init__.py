"""The Management API client: one async httpx client with retries, pacing and typed errors.

Names are loaded on first use (PEP 562): the kinds import the error types (`docsync.api.errors`)
while a manifest is validated, which must not load httpx.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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

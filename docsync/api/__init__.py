"""The Management API client: one async httpx client with retries, pacing and typed errors."""

from __future__ import annotations

from docsync.api.client import ApiClient, RequestStats
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
    Unauthorized,
)
from docsync.api.retry import RetryPolicy

__all__ = [
    "DEFAULT_API_URL",
    "ApiClient",
    "ApiError",
    "BadRequest",
    "ConfigError",
    "Conflict",
    "NotFound",
    "OutcomeUnknown",
    "RateLimited",
    "RequestStats",
    "RetryPolicy",
    "ServerError",
    "Unauthorized",
]

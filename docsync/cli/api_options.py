"""Options shared by the commands that talk to the Management API."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.api.errors import ApiError

F = TypeVar("F", bound=Callable[..., Any])

#: The first request of every run: on a real Management API it never answers 404 or non-JSON.
_FIRST_PATH = "/v1/orgs"


#: seconds docsync waits for one answer by default, retries included (`--timeout`)
DEFAULT_TIMEOUT = 30.0


def api_options(func: F) -> F:
    func = click.option(
        "--timeout",
        default=DEFAULT_TIMEOUT,
        show_default=True,
        type=click.FloatRange(min=0.5, max=3600),
        metavar="SECONDS",
        help="How long to wait for one answer of the API, its retries included; a slower "
        "server stops that request (or action) with one line naming the host.",
    )(func)
    func = click.option(
        "--parallelism",
        default=8,
        show_default=True,
        type=click.IntRange(min=1, max=64),
        help="API requests and actions in flight at once.",
    )(func)
    # DOCSYNC_API_URL is read by the client, not by click: click takes an empty variable for
    # an unset one, and an empty URL must be refused (naming the variable), not mean production.
    func = click.option(
        "--api-url",
        help="Base URL of the Management API (default: DOCSYNC_API_URL, else production, "
        "https://api.gitbook.com; an empty value is refused); the token comes from "
        "DOCSYNC_TOKEN only.",
    )(func)
    return func


def make_client(
    api_url: str | None, parallelism: int, timeout: float = DEFAULT_TIMEOUT
) -> ApiClient:
    from docsync.api import ApiClient  # the HTTP stack, only for a command that calls the API

    return ApiClient.from_options(api_url, parallelism, os.environ, timeout=timeout)


@asynccontextmanager
async def api_session(
    api_url: str | None, parallelism: int, timeout: float = DEFAULT_TIMEOUT
) -> AsyncIterator[ApiClient]:
    """The client of one command; errors that point at a wrong API URL name the URL."""
    from docsync.api.errors import ApiError

    async with make_client(api_url, parallelism, timeout) as api:
        try:
            yield api
        except ApiError as error:
            if _url_suspect(error):
                where = f"is {api.base_url} the Management API? check --api-url / DOCSYNC_API_URL"
                error.hint = f"{error.hint}; {where}" if error.hint else where
            raise


def _url_suspect(error: ApiError) -> bool:
    """No answer at all, or an answer to the first request that no Management API gives."""
    from docsync.api.errors import OutcomeUnknown, TimedOut

    if isinstance(error, OutcomeUnknown | TimedOut):
        return False  # a server answered, or was there and slow: the URL is not the doubt
    if error.status is None:
        return True
    return error.path == _FIRST_PATH and error.status not in (401, 403, 429) and error.status < 500


def force_option(func: F) -> F:
    return click.option(
        "--force",
        is_flag=True,
        help="Proceed past the safety rails (deletion threshold, self-lockout); never past "
        "`protect: true`.",
    )(func)

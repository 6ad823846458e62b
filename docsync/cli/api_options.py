"""Options shared by the commands that talk to the Management API."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import click

from docsync.api import ApiClient

F = TypeVar("F", bound=Callable[..., Any])


def api_options(func: F) -> F:
    func = click.option(
        "--parallelism",
        default=8,
        show_default=True,
        type=click.IntRange(min=1, max=64),
        help="API requests and actions in flight at once.",
    )(func)
    func = click.option(
        "--api-url",
        envvar="DOCSYNC_API_URL",
        help="Base URL of the Management API (env DOCSYNC_API_URL); the token comes from "
        "DOCSYNC_TOKEN only.",
    )(func)
    return func


def make_client(api_url: str | None, parallelism: int) -> ApiClient:
    return ApiClient.from_options(api_url, parallelism, os.environ)


def force_option(func: F) -> F:
    return click.option(
        "--force",
        is_flag=True,
        help="Proceed past the safety rails (deletion threshold, self-lockout); never past "
        "`protect: true`.",
    )(func)

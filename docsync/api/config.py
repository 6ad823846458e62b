"""Resolve and check where the client talks to and with which token, before anything is sent."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from urllib.parse import urlsplit

from docsync.api.errors import ConfigError

DEFAULT_API_URL = "https://api.gitbook.com"
URL_ENV = "DOCSYNC_API_URL"
TOKEN_ENV = "DOCSYNC_TOKEN"


def resolve_api_url(
    api_url: str | None, environ: Mapping[str, str] = os.environ, *, given_as: str = "--api-url"
) -> str:
    """`--api-url` (`given_as`: how the caller names it), else DOCSYNC_API_URL, else production;
    checked and normalized. Production is the default only when neither is given at all: an
    empty value (a CI variable unset in one environment) is refused, naming where it came from,
    instead of sending that job to production."""
    if api_url is not None:
        return normalize_base_url(api_url, given_as)
    if URL_ENV in environ:
        return normalize_base_url(environ[URL_ENV], URL_ENV)
    return DEFAULT_API_URL


def resolve_token(environ: Mapping[str, str] = os.environ) -> str:
    """The bearer token, from DOCSYNC_TOKEN only (never a flag: flags end up in shell history)."""
    token = environ.get(TOKEN_ENV, "")
    return check_token(token)


def check_token(token: str) -> str:
    """Strip surrounding whitespace and refuse what no HTTP header can carry.

    The messages never include the token itself.
    """
    token = token.strip()
    if not token:
        raise ConfigError(
            f"{TOKEN_ENV} is not set: export a Management API token, "
            f"for example `export {TOKEN_ENV}=...`"
        )
    if not token.isascii() or not token.isprintable() or any(c.isspace() for c in token):
        raise ConfigError(
            f"{TOKEN_ENV} contains spaces or characters an HTTP header cannot carry; "
            "check that it was copied whole and alone"
        )
    return token


def normalize_base_url(url: str, source: str = "API URL") -> str:
    """Check a base URL and return it without a trailing `/` or `/v1`; `source` names where it
    came from in messages (`DOCSYNC_API_URL`, `--api-url`).

    HTTPS is required, except for loopback hosts (127.0.0.0/8, ::1, localhost) where plain HTTP
    is fine: the token must never cross a network in clear text.
    """
    text = url.strip()
    if not text:
        default = "unset it" if source == URL_ENV else "leave it out"
        raise ConfigError(
            f"{source} is empty: set it to the Management API's URL, or {default} to use "
            f"production ({DEFAULT_API_URL})"
        )
    try:
        parts = urlsplit(text)
        host = parts.hostname
        parts.port  # noqa: B018 - parsing the port is what validates it
    except ValueError as error:
        raise ConfigError(f"{source} {text!r} is not a valid URL: {error}") from None
    if parts.scheme not in ("http", "https") or not host:
        raise ConfigError(
            f"{source} {text!r} must be an absolute http(s) URL, like {DEFAULT_API_URL}"
        )
    if parts.username is not None or parts.password is not None:
        raise ConfigError(
            f"{source} must not carry credentials; put the token in "
            f"{TOKEN_ENV} instead (the URL shown in logs and errors would leak them)"
        )
    if parts.query or parts.fragment:
        raise ConfigError(f"{source} {text!r} must not have a query string or fragment")
    if parts.scheme == "http" and not is_loopback(host):
        raise ConfigError(
            f"{source} {text!r} uses plain http to a host that is not loopback; "
            "use https (plain http is allowed only for 127.0.0.1, ::1 and localhost)"
        )
    path = parts.path.rstrip("/")
    if path.endswith("/v1"):
        path = path[: -len("/v1")]
    return f"{parts.scheme}://{parts.netloc}{path}"


def is_loopback(host: str) -> bool:
    """True for localhost and loopback addresses: traffic to them never leaves the machine."""
    # Names under .localhost are not trusted: some resolvers send them to DNS.
    name = host.lower().rstrip(".")
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False

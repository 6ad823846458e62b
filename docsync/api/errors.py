"""Typed errors of the API client: what was asked, what the server said, and what to do next.

DocsyncError
 ├── ConfigError            the client cannot start: no token, plain HTTP off loopback, bad URL
 └── ApiError               a request failed: method, path, status (None: no answer), message
      ├── OddAnswer         answered, but not as docsync relies on it (a field it uses)
      ├── BadRequest        400: the server refused the body
      ├── Unauthorized      401 / 403: the token is missing rights or wrong
      ├── NotFound          404
      ├── Conflict          409 / 412
      ├── RateLimited       429 after every retry, or a wait longer than docsync will sit out
      ├── ServerError       5xx after every retry
      ├── TimedOut          the server was too slow: no whole answer within the budget
      └── OutcomeUnknown    a non-idempotent write whose result is unknown: never retried blindly
"""

from __future__ import annotations

import json
from collections.abc import Callable
from http import HTTPStatus

from docsync.errors import DocsyncError


class ConfigError(DocsyncError):
    """The client's configuration (URL, token, options) is unusable; nothing was sent."""


class ApiError(DocsyncError):
    """A request that failed, rendered as "PATCH /v1/orgs/x/teams/t: 409 Conflict: <message>"."""

    def __init__(
        self, method: str, path: str, status: int | None, message: str, *, hint: str = ""
    ) -> None:
        self.method = method
        self.path = path
        self.status = status
        self.message = message
        self.hint = hint
        super().__init__(str(self))

    def __str__(self) -> str:
        text = self.request_line()
        return f"{text} ({self.hint})" if self.hint else text

    def request_line(self) -> str:
        """`PATCH /v1/...: 409 Conflict: <message>`, without the hint; the status phrase said
        once when the server's message repeats it (`401 Unauthorized: Unauthorized: ...`)."""
        status = status_text(self.status)
        message = _without_phrase(self.message, status)
        said = f"{self.method} {self.path}: {status}"
        return f"{said}: {message}" if message else said

    def __reduce__(self) -> tuple[object, ...]:
        # Exceptions pickle through their args; ours are keyword-shaped, so spell them out.
        return (
            _rebuild,
            (type(self), self.method, self.path, self.status, self.message, self.hint),
        )


class OddAnswer(ApiError):
    """An answer docsync cannot rely on: a field it uses is missing or of another type, or a
    list is not a list. What reads it leaves out what depends on it (a resource, a part), not
    the whole plan, where it can."""


class BadRequest(ApiError):
    """400: the request body or query was refused; the message names the field."""


class Unauthorized(ApiError):
    """401 or 403: the token is wrong, expired, or lacks a right the call needs."""


class NotFound(ApiError):
    """404: the resource does not exist or the token cannot see it."""


class Conflict(ApiError):
    """409 or 412: the request clashes with the resource's current state."""


class RateLimited(ApiError):
    """429 that outlasted every retry (or asked for a longer wait than docsync sits out)."""


class ServerError(ApiError):
    """A 5xx that outlasted every retry."""


class TimedOut(ApiError):
    """No whole answer within the request's budget (--timeout), retries included: the message
    names the host and what was slow (connecting, the first byte, the rest of the answer)."""


class OutcomeUnknown(ApiError):
    """A create whose result is unknown (timeout, dropped connection, 5xx): re-read, never retry.

    The client never retries these: a retry could make a duplicate. The engine resolves them by
    listing the kind and matching its natural key.
    """


_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Unauthorized,
    404: NotFound,
    409: Conflict,
    412: Conflict,
    429: RateLimited,
}


def error_class(status: int) -> type[ApiError]:
    """The most specific ApiError subclass for an HTTP status."""
    if status >= 500:
        return ServerError
    return _BY_STATUS.get(status, ApiError)


def _without_phrase(message: str, status: str) -> str:
    """A server's message without the status phrase the line already says (`401 Unauthorized:
    Unauthorized: the token...` read twice)."""
    phrase = status.partition(" ")[2]
    if phrase and message.lower().startswith(phrase.lower()):
        return message[len(phrase) :].lstrip(" :.-")
    return message


def status_text(status: int | None) -> str:
    """ "409 Conflict" for a known status, "418" for an unknown one, "no response" for None."""
    if status is None:
        return "no response"
    try:
        return f"{status} {HTTPStatus(status).phrase}"
    except ValueError:
        return str(status)


#: characters of a server's message that an error repeats
MESSAGE_LIMIT = 500

UNKNOWN_HINT = "the write may or may not have happened; docsync re-reads it instead of retrying"
#: a write sent again after its answer was lost, answered 409: production answers 409 to a write
#: that would change nothing, which the lost attempt may have made so
NO_CHANGE_HINT = (
    "sent again after its answer was lost, and refused as a conflict: production refuses a "
    "write that would change nothing, so the lost attempt may have been carried out; docsync "
    "reads it back"
)

_TRANSPORT_WORDS = {
    "ConnectError": "could not connect",
    "ConnectTimeout": "timed out connecting",
    "PoolTimeout": "timed out waiting for a free connection",
    "ReadTimeout": "timed out waiting for the answer",
    "WriteTimeout": "timed out sending the request",
    "ReadError": "connection broke while reading the answer",
    "WriteError": "connection broke while sending the request",
    "RemoteProtocolError": "the server dropped the connection",
    "UnsupportedProtocol": "unsupported URL scheme",
    "LocalProtocolError": "the request could not be sent",
}


def server_message(text: str, clean: Callable[[str], str] = lambda text: text) -> str:
    """The server's `{"error": {"message"}}`, else an excerpt of whatever it sent; `clean`
    (redaction) runs on the whole message before it is cut short."""
    text = text.strip()
    try:
        payload = json.loads(text) if text and len(text) <= 1_000_000 else None
    except (ValueError, RecursionError):
        payload = None
    if isinstance(payload, dict):
        inner = payload.get("error")
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return truncate(clean(str(inner["message"])))
        if isinstance(inner, str):
            return truncate(clean(inner))
    if not text:
        return "(empty answer)"
    return truncate(clean(text[:2000]), 200)  # not the API's error shape: a page, a proxy's


def truncate(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """One line of at most `limit` characters: a server may send megabytes of message."""
    flat = " ".join(text[: limit * 4].split())
    if len(flat) <= limit and len(text) <= limit * 4:
        return flat
    return f"{flat[:limit]}..."


def describe_transport(error: Exception) -> str:
    """A transport failure in words, naming the httpx exception behind it."""
    name = type(error).__name__
    detail = str(error).strip() or "no detail"
    return f"{_TRANSPORT_WORDS.get(name, 'transport error')} ({name}: {detail})"


def _rebuild(
    cls: type[ApiError], method: str, path: str, status: int | None, message: str, hint: str
) -> ApiError:
    return cls(method, path, status, message, hint=hint)

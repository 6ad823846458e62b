"""Checks on what a server answers, so that a misbehaving one ends in one clear line naming the
request instead of a traceback deep in docsync (or a request to `.../teams/None/members`)."""

from __future__ import annotations

import ssl
from typing import Any

import httpx

from docsync.api.errors import ApiError

TLS_HINT = "a TLS failure is not retried: check the URL, the certificate and its chain"


class AnswerTooLarge(Exception):
    """An answer past the client's size bound; the request is not retried."""

    def __init__(self, size: int) -> None:
        super().__init__(f"the answer is larger than 64 MiB ({size:,} bytes and more): refused")


def is_tls_failure(error: httpx.TransportError) -> bool:
    """Whether a transport error comes from TLS (a bad certificate, a handshake refused)."""
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, ssl.SSLError | ssl.CertificateError):
            return True
        cause = cause.__cause__ or cause.__context__
    text = str(error)
    return "CERTIFICATE_VERIFY_FAILED" in text or "SSL:" in text


def check_write_answer(method: str, path: str, status: int, answer: Any, *, creates: bool) -> None:
    """A write's JSON answer is an object (or empty); a create's object carries its new `id`."""
    if answer is None:
        return
    if not isinstance(answer, dict):
        shown = type(answer).__name__.replace("str", "text").replace("dict", "object")
        raise ApiError(method, path, status, f"expected a JSON object in the answer, got {shown}")
    if "id" in answer or creates:
        ident = answer.get("id")
        if isinstance(ident, bool) or not isinstance(ident, str | int) or ident == "":
            raise ApiError(
                method, path, status, f"expected the resource's `id` in the answer, got {ident!r}"
            )

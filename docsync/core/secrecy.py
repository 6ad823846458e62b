"""Keyed digests of secrets for plan files: comparable between runs that hold the same key,
useless to someone who holds only the file.

A plain hash of a secret (even salted with a public salt) lets anyone with a plan file check
guesses offline, and a weak secret falls quickly. An HMAC keyed by a value derived from a secret
no plan file holds gives nothing to check a guess against: DOCSYNC_PLAN_KEY when it is set (so
that a plan made with one token, CI's read-only plan token, is applied with another, the apply
token kept in a protected environment), else DOCSYNC_TOKEN. Without either (`docsync show`,
`validate`) the key is random per process: digests still tell two values apart within the run
and reveal nothing."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Mapping

_CONTEXT = b"docsync plan digest v2\0"
_KEY_CONTEXT = b"docsync plan key v1\0"
#: the environment variable of the digest key that plan and apply share when their tokens differ
PLAN_KEY_VARIABLE = "DOCSYNC_PLAN_KEY"
_PROCESS_KEY = secrets.token_bytes(32)


def digest_key(environ: Mapping[str, str] = os.environ) -> bytes:
    """The HMAC key: derived from DOCSYNC_PLAN_KEY, else from DOCSYNC_TOKEN (never the token
    itself), else per process."""
    plan_key = environ.get(PLAN_KEY_VARIABLE, "").strip()
    if plan_key:
        return hashlib.sha256(_KEY_CONTEXT + plan_key.encode()).digest()
    token = environ.get("DOCSYNC_TOKEN", "").strip()
    if not token:
        return _PROCESS_KEY
    return hashlib.sha256(_CONTEXT + token.encode()).digest()


def keyed_digest(data: bytes, key: bytes | None = None) -> str:
    """HMAC-SHA256 of `data` in hex, under `key` (default: digest_key())."""
    return hmac.new(key if key is not None else digest_key(), data, hashlib.sha256).hexdigest()

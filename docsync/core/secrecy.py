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
import re
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


#: what stands for a secret in a snapshot of an organization (`docsync export --format
#: emulator-seed`): the keyed digest of the secret's text, which gives nothing to check a guess
#: against without the key, and lets a rehearsal holding the key (and the manifests' values) put
#: the secret back, and every digest docsync takes of it come out as it would of the secret
PLACEHOLDER_PREFIX = "docsync-secret-"
_PLACEHOLDER = re.compile(rf"{PLACEHOLDER_PREFIX}([0-9a-f]{{64}})")


def placeholder(text: str) -> str:
    """What a snapshot holds in place of `text`: its keyed digest, an id-safe word."""
    return PLACEHOLDER_PREFIX + keyed_digest(text.encode())


def text_digest(text: str) -> str:
    """The keyed digest of a secret's text; of a snapshot's placeholder, the digest it carries
    (that of the secret it stands for), so that what docsync digests of a copy of an
    organization is what it digests of the organization."""
    found = _PLACEHOLDER.fullmatch(text)
    return found.group(1) if found else keyed_digest(text.encode())

"""A snapshot of a live organization as an emulator seed (`docsync export --format
emulator-seed`): the answer of every read docsync makes of it, by path, which the emulator loads
back through the routes that answer those paths (docs/emulator.md, "Snapshots"), ids kept.

What it never holds: a secret. Every value the client masks in its messages (what the kinds
declare secret, and what the API makes secret: invite links' ids, share links' URLs, a site's
private key) and every text under a name that says it is one (`token`, `clientSecret`...)
becomes a placeholder carrying its keyed digest (`core.secrecy.placeholder`), wherever it
stands. With `pseudonymize`, every member's email becomes a pseudonym derived from it under the
same key, the same everywhere it stands (a grant's user and the member are still one person),
and their names are dropped. A rehearsal holding the key and the manifests puts back the
secrets and the emails they write (`restore`), so that the copy answers what production
answered wherever a plan compares."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from docsync.core.errors import PlanError
from docsync.core.secrecy import PLACEHOLDER_PREFIX, keyed_digest, placeholder
from docsync.core.state import LiveState
from docsync.engine.planner import read_live
from docsync.kinds import KINDS

if TYPE_CHECKING:
    from docsync.api import ApiClient

FORMAT = "docsync-snapshot/1"
#: the query parameters of paging, which a snapshot leaves out of a read's key
_PAGING = frozenset({"limit", "page"})
#: a secret substring is searched for inside longer texts from this length on (shorter ones
#: would match by chance); a whole text equal to a secret is replaced whatever its length
_SEARCHED = 8
#: names under which an answer holds a secret, whatever docsync knows of the field
_SECRET_NAME = re.compile(
    r"(token|secret|password|passphrase|privatekey|apikey|credentials?)$", re.IGNORECASE
)
#: what production answers for a secret it masks: kept as it is (it holds nothing)
_MASK = re.compile(r"\**")
_PLACEHOLDER = re.compile(re.escape(PLACEHOLDER_PREFIX) + "[0-9a-f]{64}")
_EMAIL = re.compile(r"[^@\s\"'<>(),;:\[\]]+@[^@\s\"'<>(),;:\[\]]+\.[A-Za-z0-9-]+")
#: the domain of pseudonyms (reserved for examples: no one receives mail there)
PSEUDONYM_DOMAIN = "pseudonym.example"


class SnapshotRefused(PlanError):
    """A snapshot cannot be taken or read: the organization or the file is not one."""


class Recording:
    """Every answer the client's reads return, by path and query (paging left out)."""

    def __init__(self) -> None:
        self.reads: dict[str, Any] = {}

    def record(self, path: str, params: Mapping[str, Any], answer: Any) -> None:
        query = sorted((k, str(v)) for k, v in params.items() if k not in _PAGING)
        key = f"{path}?{urlencode(query)}" if query else path
        # a copy: the kinds add what they read of a resource's parts into its answer
        self.reads[key] = json.loads(json.dumps(answer))


@contextmanager
def recording(api: ApiClient) -> Iterator[Recording]:
    """Every read of `api` recorded, for the `with` block."""
    found = Recording()
    api.on_read = found.record
    try:
        yield found
    finally:
        api.on_read = None


async def take(api: ApiClient, organization: str, *, pseudonymize: bool = False) -> dict[str, Any]:
    """The seed of a snapshot of `organization`: everything docsync reads of it (what export
    reads), read-only, secrets replaced, emails pseudonymized when asked."""
    with recording(api) as reads:
        live, _ = await read_live(api, organization, None, KINDS)
    return seed_of(reads, live, api.redacted, pseudonymize=pseudonymize)


def seed_of(
    recorded: Recording, live: LiveState, secrets: Iterable[str], *, pseudonymize: bool = False
) -> dict[str, Any]:
    """The seed of what was recorded while `live` was read: the organization's reads, with
    `secrets` (and what is named a secret) replaced."""
    reads = dict(recorded.reads)
    # the organizations the token sees: this one alone
    reads["/v1/orgs"] = [o for o in reads.get("/v1/orgs", []) if o.get("id") == live.org_id]
    document: dict[str, Any] = {
        "format": FORMAT,
        "organization": live.org_id,
        "user": live.me,
        "takenAt": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "pseudonymized": pseudonymize,
        "reads": replace_secrets(reads, secrets),
    }
    if pseudonymize:
        document["reads"] = pseudonymized(document["reads"])
    return {"snapshot": document}


def member(found: dict[str, Any], wanted: str | None = None) -> str | None:
    """The member a copy is used as: `wanted` (a user id or an email), else the snapshot's
    reader when an admin (who applies holds an admin's token), else its first admin; None
    when the snapshot read no member (a plan whose manifests name none)."""
    listed = found["reads"].get(f"/v1/orgs/{found['organization']}/members")
    if listed is None and wanted is None:
        return None
    members = list(listed or [])
    if wanted is not None:
        for one in members:
            user = one.get("user") or {}
            if (
                wanted in (one.get("id"), user.get("id"))
                or wanted.casefold() == str(user.get("email", "")).casefold()
            ):
                return str(one["id"])
        raise SnapshotRefused(f"{wanted!r} is no member of the snapshot (give a user id or email)")
    admins = [str(m["id"]) for m in members if m.get("role") == "admin"]
    reader = found.get("user")
    if reader in admins:
        return str(reader)
    if admins:
        return admins[0]
    raise SnapshotRefused("the snapshot names no admin to apply as: pass --as MEMBER")


def render(seed: dict[str, Any]) -> str:
    """The seed as a file: JSON (which YAML reads too), one read a line or so."""
    return json.dumps(seed, indent=1, ensure_ascii=False) + "\n"


# -- secrets ------------------------------------------------------------------------------------


def replace_secrets(value: Any, secrets: Iterable[str]) -> Any:
    """`value` with every secret in it replaced by its placeholder: a text equal to one, one
    inside a longer text, and any text under a name that says it is a secret."""
    exact = {s for s in secrets if s}
    searched = sorted((s for s in exact if len(s) >= _SEARCHED), key=len, reverse=True)
    inside = re.compile("|".join(map(re.escape, searched))) if searched else None

    def text(found: str) -> str:
        if found in exact:
            return placeholder(found)
        if inside is not None and inside.search(found):
            return inside.sub(lambda m: placeholder(m.group(0)), found)
        return found

    def named(name: str, found: Any) -> Any:
        secret = _SECRET_NAME.search(re.sub(r"[^A-Za-z]", "", name))
        if secret and isinstance(found, str) and not _MASK.fullmatch(found):
            return placeholder(found) if not _PLACEHOLDER.fullmatch(found) else found
        return found

    return _walk(value, text, named)


def _walk(value: Any, text: Callable[[str], str], named: Callable[[str, Any], Any]) -> Any:
    if isinstance(value, str):
        return text(value)
    if isinstance(value, list):
        return [_walk(item, text, named) for item in value]
    if isinstance(value, dict):
        return {k: named(k, _walk(v, text, named)) for k, v in value.items()}
    return value


# -- pseudonyms ---------------------------------------------------------------------------------


def pseudonym(email: str) -> str:
    """A member's email as a pseudonymized snapshot holds it: derived under the plan key, so the
    same email is the same pseudonym everywhere, and the email cannot be guessed from it."""
    return f"m-{keyed_digest(email.casefold().encode())[:16]}@{PSEUDONYM_DOMAIN}"


def pseudonymized(reads: Any) -> Any:
    """The reads with every user's email replaced by its pseudonym wherever it stands, and
    their names and pictures left out (a user's name is the id's, as the API answers a user
    without one)."""
    emails: dict[str, str] = {}
    _users(reads, emails)

    def text(found: str) -> str:
        return emails.get(found.casefold(), found)

    def named(name: str, found: Any) -> Any:
        return found

    return _walk(_anonymous(reads), text, named)


def _users(value: Any, emails: dict[str, str]) -> None:
    """Every user object's email (an object with an id and an email), by its casefold."""
    if isinstance(value, list):
        for item in value:
            _users(item, emails)
    elif isinstance(value, dict):
        email = value.get("email")
        if isinstance(email, str) and isinstance(value.get("id"), str):
            emails[email.casefold()] = pseudonym(email)
        for item in value.values():
            _users(item, emails)


def _anonymous(value: Any) -> Any:
    if isinstance(value, list):
        return [_anonymous(item) for item in value]
    if not isinstance(value, dict):
        return value
    user = isinstance(value.get("email"), str) and isinstance(value.get("id"), str)
    return {
        k: value["id"] if user and k == "displayName" else _anonymous(v)
        for k, v in value.items()
        if not (user and k == "photoURL")
    }


# -- a rehearsal's restoration ------------------------------------------------------------------


def restore(seed: dict[str, Any], known: Iterable[str]) -> dict[str, Any]:
    """A snapshot's seed with the secrets and emails among `known` (the texts of the manifests
    and of the saved plan a rehearsal holds) put back where their placeholders and pseudonyms
    stand: the copy then holds what production held wherever the plan compares it."""
    texts = set(known)
    secrets = {placeholder(t): t for t in texts}
    emails: dict[str, str] = {pseudonym(e): e for t in texts for e in _EMAIL.findall(t)}

    def text(found: str) -> str:
        if found in emails:
            return emails[found]
        if PLACEHOLDER_PREFIX in found:
            return _PLACEHOLDER.sub(lambda m: secrets.get(m.group(0), m.group(0)), found)
        return found

    def named(name: str, found: Any) -> Any:
        return found

    restored: dict[str, Any] = _walk(seed, text, named)
    return restored


def texts(value: Any) -> Iterable[str]:
    """Every text in a JSON value, mappings' keys included (a plan's addresses name emails)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from texts(item)

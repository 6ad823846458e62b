"""Bearer-token authentication against seeded users, and the role needed per operation.

| access          | roles allowed               | used for                                     |
|-----------------|-----------------------------|----------------------------------------------|
| `READ`          | any member, guests included | every GET                                    |
| `CONTENT`       | admin, create               | creating/updating collections, spaces,       |
|                 |                             | OpenAPI specs, translations, sites           |
| `CONTENT_ADMIN` | admin                       | deleting content                             |
| `ADMIN`         | admin                       | org settings, members, teams, SAML           |

An organization the caller is not a member of answers 404, as if it did not exist.
"""

from __future__ import annotations

import enum
from typing import Any

from docsync.emulator.errors import forbidden, not_found, unauthorized
from docsync.emulator.store import Tx


class Access(enum.Enum):
    """What an operation needs from the caller's role in the organization."""

    READ = "read"
    CONTENT = "content"
    CONTENT_ADMIN = "content-admin"
    ADMIN = "admin"


_ALLOWED: dict[Access, frozenset[str | None]] = {
    Access.CONTENT: frozenset({"admin", "create"}),
    Access.CONTENT_ADMIN: frozenset({"admin"}),
    Access.ADMIN: frozenset({"admin"}),
}
_NEEDS = {
    Access.CONTENT: "the admin or create role",
    Access.CONTENT_ADMIN: "the admin role",
    Access.ADMIN: "the admin role",
}


def authenticate(tx: Tx, authorization: str | None) -> dict[str, Any]:
    """The seeded user whose token is in `Authorization: Bearer <token>`; 401 otherwise."""
    if not authorization:
        raise unauthorized("Unauthorized: the Authorization header is missing")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise unauthorized("Unauthorized: the Authorization header must be 'Bearer <token>'")
    token = token.strip()
    user = tx.user_by_token(token)
    if user is not None:
        return user
    raise unauthorized("Unauthorized: the token does not belong to any user")


def member_id(org: str, user: str) -> str:
    """Store id of a membership row (members are keyed by organization and user)."""
    return f"{org}/{user}"


def membership(tx: Tx, org: str, user: str) -> dict[str, Any] | None:
    """The member row of `user` in `org`, or None when the user is not a member."""
    return tx.get("member", member_id(org, user))


def require(
    tx: Tx, user: dict[str, Any], org: str, access: Access, unseen: str | None = None
) -> dict[str, Any]:
    """The caller's member row in `org`; 404 when not a member, 403 when the role is too low.

    `unseen`: the 404 of a resource reached by an id of its own (a space), for a caller outside
    its organization: the answer to an unknown id, naming neither the organization nor that the
    resource exists."""
    member = membership(tx, org, user["id"])
    if member is None or tx.get("organization", org) is None:
        raise not_found(unseen or f"Organization {org!r} not found")
    if access is not Access.READ and member.get("role") not in _ALLOWED[access]:
        role = member.get("role") or "guest"
        raise forbidden(f"Forbidden: this operation needs {_NEEDS[access]}; you are {role}")
    return member


def can(member: dict[str, Any], access: Access) -> bool:
    """Whether a member row satisfies `access` (for `permissions` objects in responses)."""
    return access is Access.READ or member.get("role") in _ALLOWED[access]

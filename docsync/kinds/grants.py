"""Who can read and edit a collection, space or site: the grant kind, a nested kind
(`collection["Developers"].grant[team "Writers"]`, one action per grant), its manifest model
(`permissions:`), what its actions carry and how they are written: a create is an invite, sent
once per (resource, role) by one action of that role (the invite body takes many teams and
users; the others wait for it and send nothing), an update a PATCH of the role, a delete a
DELETE. The kinds that hold grants (`GrantedKind`) are in `granted.py`, the planning in
`grant_plans.py`, the lockout rail in `grant_rails.py`, the offline checks in `grant_checks.py`.

A site grant may be `null`, a guest override (production's `MemberRoleOrGuest` in the site's
invite and lists); its PATCH takes a role only, so a grant turned into a guest is removed and
invited again, in the site's one guest invite (its DELETE first). Content grants take a role:
production lists them only with one."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BeforeValidator

from docsync.core.context import RunContext
from docsync.core.entries import Model, Role
from docsync.core.kind import Declaration
from docsync.core.lockout import Lockout
from docsync.core.model import Action
from docsync.core.nullability import NullChecked
from docsync.core.payloads import Payload, Ref
from docsync.kinds.base import Kind

Path = tuple[str | int, ...]

#: manifest name -> (the API's name in paths and invite bodies, the kind a principal is)
PRINCIPALS = {"teams": ("teams", "team"), "members": ("users", "member")}
#: roles from the most access to the least, a guest (None) last: a move down lowers access
RANKS: tuple[str | None, ...] = ("admin", "create", "review", "edit", "comment", "read", None)


def _no_guest(value: Any) -> Any:
    if value is None:
        raise ValueError(
            "null (a guest) is not accepted on a collection or space grant: production lists "
            "content grants only with a role, so the grant could never be read back (a guest is "
            "an organization member whose organization role is null); give a role here, or "
            "leave the principal out"
        )
    return value


#: a content grant's role: production's invite and PATCH take null, its lists never show it
ContentRole = Annotated[Role, BeforeValidator(_no_guest)]


class Permissions(NullChecked, Model):
    """The direct grants on a resource: teams by title (or id), members by email (or user id).
    A principal type written is exact (grants not listed are removed; `{}` removes them all);
    one not written is not managed."""

    teams: dict[str, ContentRole] | None = None
    members: dict[str, ContentRole] | None = None


class SitePermissions(Permissions):
    """A site's direct grants; a role may be null, a guest override (no access to the site)."""

    teams: dict[str, Role | None] | None = None  # type: ignore[assignment]
    members: dict[str, Role | None] | None = None  # type: ignore[assignment]


@dataclass
class Invite(Payload):
    """One invite request: a role for many teams (ids or `$ref` placeholders) and users; for
    guests, after a DELETE of each grant it makes a guest (`deletes`: `teams` or `users` and
    the live id), since the PATCH of a grant takes a role only."""

    role: str | None
    teams: list[Any] = field(default_factory=list)
    users: list[str] = field(default_factory=list)
    deletes: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Grant(Payload):
    """One grant to write: on the resource at `path` (`{id}` for the resource's id), to a
    principal (`teams` or `users`: a live id, or a `$ref` of a team made in this apply)."""

    resource: Ref = None
    path: str = ""
    wire: str = "teams"
    principal: Any = None
    role: str | None = None
    #: the invite of its (resource, role), carried by one action of the batch
    invite: Invite | None = None
    #: a create (or an update to a guest) the invite of another carries (its address)
    invited_by: str | None = None
    #: an update to a guest: a DELETE, then an invite as guest (the PATCH takes a role only)
    again: bool = False

    @property
    def requests(self) -> int:
        if self.invited_by is not None:
            return 0
        return 1 + len(self.invite.deletes) if self.invite is not None else 1


def lower(before: str | None, after: str | None) -> bool:
    """Whether moving from role `before` to `after` (None: a guest) takes access away."""
    return RANKS.index(after) > RANKS.index(before)


# -- applying --------------------------------------------------------------------------------


async def write_grant(action: Action, payload: Grant, run: RunContext) -> None:
    """The request(s) of one grant action: none for one another's invite carries."""
    base = payload.path.format(id=run.resolve(payload.resource)) + "/permissions"
    one = f"{base}/{payload.wire}/{run.resolve(payload.principal)}"
    if action.verb == "delete":
        await run.api.write("DELETE", one)
    elif action.verb == "update" and not payload.again:
        await run.api.write("PATCH", one, {"role": payload.role})
    elif payload.invite is not None:
        # The grants made guests are removed first (the PATCH takes a role only), then invited.
        await asyncio.gather(
            *(
                run.api.write("DELETE", f"{base}/{wire}/{ident}")
                for wire, ident in payload.invite.deletes
            )
        )
        await _invite(base, payload.invite, run)


async def _invite(base: str, invite: Invite, run: RunContext) -> None:
    body: dict[str, Any] = {"role": invite.role}
    if invite.teams:
        body["teams"] = run.resolve(invite.teams)
    if invite.users:
        body["users"] = invite.users
    # An invite sets the role of whom it names: sending it twice does what once does.
    await run.api.write("POST", base, body, idempotent=True)


# -- the grant kind --------------------------------------------------------------------------

GRANT = Declaration(
    "grant",
    "permissions",
    "grant",
    key="principal",
    parents=("collection", "space", "site"),
    entry=Permissions,
    mapped=True,
    exact=True,
)


class GrantKind(Kind):
    """A grant of a role to a team or a member on a collection, space or site: planned by the
    kind of its resource (`GrantedKind`), carried out here, judged by the lockout rail."""

    declaration = GRANT

    async def execute(self, action: Action, run: RunContext) -> None:
        assert isinstance(action.payload, Grant)
        await write_grant(action, action.payload, run)

    def lockout(self, action: Action, guard: Lockout) -> None:
        from docsync.kinds.grant_rails import lockout  # which imports this module

        lockout(action, guard)

    def lockout_after(self, guard: Lockout) -> None:
        from docsync.kinds.grant_rails import lockout_after  # which imports this module

        lockout_after(guard)

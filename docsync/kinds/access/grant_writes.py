"""What a grant action carries and how it is written: a create is an invite, sent once per
(resource, role) by one action of that role (the invite body takes many teams and users; the
others wait for it and send nothing), an update a PATCH of the role, a delete a DELETE. Shared by
the grant kind (`grants.py`), its planning (`planning.py`) and its lockout rail
(`lockout.py`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from docsync.api.answers import ID, TEXT, Obj, Opt
from docsync.core.concurrent import finish_all
from docsync.core.context import RunContext
from docsync.core.model import Action, escape_key
from docsync.core.payloads import Payload, Ref

if TYPE_CHECKING:
    from docsync.kinds.kind import Kind

#: manifest name -> (the API's name in paths and invite bodies, the kind a principal is)
PRINCIPALS = {"teams": ("teams", "team"), "members": ("users", "member")}


def grant_address(resource: str, principal: str, name: str) -> str:
    """`collection["Engineering"].grant[team "Writers"]`, `...grant[member "ada@acme.example"]`:
    a grant is addressed by its principal, whose type the address says (a team and a member
    may share a name)."""
    return f'{resource}.grant[{principal} "{escape_key(name)}"]'


#: a grant's address: its resource, the principal's type and name
_GRANT = re.compile(r'^(?P<resource>.+)\.grant\[(?P<principal>\w+) "(?P<name>(?:[^"\\]|\\.)*)"\]$')


def grant_of(grant: str) -> tuple[str, str, str] | None:
    """The resource, principal type and name of a grant's address (None: not a grant's), so
    that a saved plan's access table is drawn from addresses alone."""
    found = _GRANT.match(grant)
    if found is None:
        return None
    return found["resource"], found["principal"], re.sub(r"\\(.)", r"\1", found["name"])


#: a grant as a resource's list answers it, by the API's name of its principal type
GRANT_ITEMS = {
    "teams": Obj({"permission": Opt(TEXT), "team": Obj({"id": ID, "title": Opt(TEXT)})}),
    "users": Obj({"permission": Opt(TEXT), "user": Obj({"id": ID, "email": Opt(TEXT)})}),
}


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
    """One grant to write: on the resource (of the kind `holder`, whose routes its requests
    are), to a principal (`teams` or `users`: a live id, or a `$ref` of a team made in this
    apply)."""

    resource: Ref = None
    holder: str = ""
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


# -- applying --------------------------------------------------------------------------------


async def write_grant(action: Action, payload: Grant, run: RunContext, holder: Kind) -> None:
    """The request(s) of one grant action, by the names `holder`, its resource's kind, gives
    them (`grant_holders.GRANT_ROUTES`): none for one another's invite carries."""
    at = {"org": run.org_id, "id": run.resolve(payload.resource)}
    one = {"wire": payload.wire, "principal": run.resolve(payload.principal), **at}
    if action.verb == "delete":
        await holder.send(run.api, "ungrant", **one)
    elif action.verb == "update" and not payload.again:
        await holder.send(run.api, "grant", {"role": payload.role}, **one)
    elif payload.invite is not None:
        # The grants made guests are removed first (the PATCH takes a role only), then invited.
        await finish_all(
            *(
                holder.send(run.api, "ungrant", wire=wire, principal=ident, **at)
                for wire, ident in payload.invite.deletes
            )
        )
        await _invite(holder, at, payload.invite, run)


async def _invite(holder: Kind, at: dict[str, Any], invite: Invite, run: RunContext) -> None:
    body: dict[str, Any] = {"role": invite.role}
    if invite.teams:
        body["teams"] = run.resolve(invite.teams)
    if invite.users:
        body["users"] = invite.users
    # An invite sets the role of whom it names: sending it twice does what once does.
    await holder.send(run.api, "invite", body, **at)

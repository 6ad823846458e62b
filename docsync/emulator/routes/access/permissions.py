"""Grants on collections, spaces and sites: invite, list, PATCH and DELETE per team or member,
and the aggregate list of who can access the resource, with how.

The grants to one kind of principal (teams, users) on one kind of resource are a table entry
nested in that resource's items (`Within`): listed, changed (`PATCH {role}`) and deleted one by
one; the invite is an action of the resource (`POST .../permissions`, teams and users at once)
and who can access it a listing of its items (`.../permissions/aggregate`). The same for the
three (production: every invite takes a `MemberRoleOrGuest`, and so do the PATCHes of content
grants, the site's a `MemberRole`). On a site, null is a guest override, which its lists show as
`permission: null`; on content, whose lists answer a `MemberRole`, null is a grant of no role
of its own: it removes the principal's grant there, if any. A space in the bin is not found
until restored. Rows are those of `docsync.emulator.grants`; who can access a resource is
`docsync.emulator.permissions_aggregate`'s. Choices are in docs/emulator.md ("Grants").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access, membership
from docsync.emulator.body import BOTH, At, Body, Choice, Place
from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.grants import TEAM_GRANT, USER_GRANT, grant_id
from docsync.emulator.http import Ctx, empty
from docsync.emulator.permissions_aggregate import (
    content_access,
    content_page,
    site_access,
    site_page,
)
from docsync.emulator.resource import Resource
from docsync.emulator.routes.content.collections import COLLECTIONS
from docsync.emulator.routes.content.spaces import SPACES
from docsync.emulator.routes.sites.sites import SITES
from docsync.emulator.rules import Entry, Permissions, Rules
from docsync.emulator.scopes import Within
from docsync.emulator.snapshot import Loading
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import ROLES, Fields
from docsync.emulator.views import team_view, user_view

#: a grant's writes, its invite included: admins of the resource's organization
GRANTING = Permissions(Access.CONTENT_ADMIN, Access.CONTENT_ADMIN)


def _team(ctx: Ctx, org: str, team: str, field: str) -> str:
    row = ctx.tx.get_row("team", team)
    if row is None or row.org != org:
        raise not_found(f"{field}: no team {team!r} in organization {org!r}")
    return row.id


def _user(ctx: Ctx, org: str, user: str, field: str) -> str:
    if membership(ctx.tx, org, user) is not None:
        return user
    if ctx.tx.get("user", user) is None:
        raise not_found(f"{field}: no user {user!r}")
    raise bad_request(
        f"{field}: user {user!r} is not a member of organization {org!r}; "
        "invite them to the organization first"
    )


def _teams_page(ctx: Ctx, rows: Sequence[Row]) -> list[Doc]:
    teams = ctx.tx.get_many("team", [str(r.data["team"]) for r in rows])
    return [
        {"permission": r.data["role"], "team": team_view(ctx, teams[r.data["team"]])}
        for r in rows  # a grant goes with its team (grants.drop_team): every team is there
    ]


def _users_page(ctx: Ctx, rows: Sequence[Row]) -> list[Doc]:
    users = ctx.tx.get_many("user", [str(r.data["user"]) for r in rows])
    return [
        {"permission": r.data["role"], "user": user_view(ctx, users[r.data["user"]].data)}
        for r in rows  # and with its member (grants.drop_user)
    ]


@dataclass(frozen=True)
class Principals:
    """Who a grant is to: teams or users (the name of their list in bodies and paths)."""

    name: str  # "teams" or "users"
    kind: str  # the grant rows' kind
    param: str  # the id's name in a path
    field: str  # the principal's id in a grant row
    #: the principal an invite names, checked in the organization (404 or 400 naming the entry)
    lookup: Callable[[Ctx, str, str, str], str]
    page: Callable[[Ctx, Sequence[Row]], list[Doc]]


PRINCIPALS = (
    Principals("teams", TEAM_GRANT, "teamId", "team", _team, _teams_page),
    Principals("users", USER_GRANT, "userId", "user", _user, _users_page),
)


def give(ctx: Ctx, target: Row, who: Principals, principal: str, role: str | None) -> None:
    """Give `role` to a team or member; null on content is no role of its own there."""
    key = grant_id(target.id, principal)
    if role is None and target.kind != "site":
        ctx.tx.delete(who.kind, key)
    elif ctx.tx.get(who.kind, key) is None:
        data = {who.field: principal, "role": role}
        ctx.tx.insert(who.kind, key, data, org=target.org, parent=target.id)
    else:
        ctx.tx.update(who.kind, key, {who.field: principal, "role": role})


def _live(ctx: Ctx, target: Row) -> None:
    """A space in the bin has no access to manage until it is restored."""
    if target.data.get("deletedAt"):
        raise not_found(f"Space {target.id!r} is deleted: restore it to manage its access")


def _member_role(at: At, role: str | None, name: str) -> str | None:
    """A site grant's PATCH takes a role (production's MemberRole), not null."""
    if role is None:
        raise bad_request(
            f"role: must be one of {', '.join(repr(r) for r in ROLES)}; got null (a site "
            "grant's role cannot be changed to a guest: DELETE it instead)"
        )
    return role


class GrantRules(Rules):
    """One principal's grants on the item they are nested in, keyed by the principal."""

    def __init__(self, who: Principals) -> None:
        self.who = who

    def key(self, ctx: Ctx, res: Entry, place: Place) -> str:
        return grant_id(place.holder.id, ctx.params[res.item])

    def render(self, ctx: Ctx, res: Entry, page: Sequence[Row]) -> list[Doc]:
        return self.who.page(ctx, page)

    def change(self, ctx: Ctx, res: Entry, place: Place, row: Row, values: Doc) -> Row:
        if "role" in values:
            give(ctx, place.holder, self.who, str(row.data[self.who.field]), values["role"])
        return row

    def answer(self, ctx: Ctx, res: Entry, place: Place, row: Row) -> Response:
        return empty(204)

    def seeded_key(self, res: Entry, place: Place, item: Doc) -> str:
        return grant_id(place.holder.id, str(item[self.who.field]["id"]))

    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
        """A grant as a snapshot read it: `{permission, team | user}`."""
        return {self.who.field: str(item[self.who.field]["id"]), "role": item.get("permission")}


def _invite(ctx: Ctx, place: Place, target: Row) -> None:
    """`POST .../permissions {role, teams?, users?}`: the role given to each, teams and users
    checked before anything is written."""
    if target.kind != "site":
        _live(ctx, target)
    body = Fields(ctx.body(), ("role", *(who.name for who in PRINCIPALS)))
    role = body.enum("role", ROLES, required=True, nullable=True)
    named = [(who, body.strings(who.name)) for who in PRINCIPALS]
    if all(ids is None for _, ids in named):
        raise bad_request("body: give teams, users or both (lists of ids) with the role")
    org = str(target.org)
    grants: list[tuple[Principals, str]] = []
    for who, ids in named:
        if ids is not None and not ids:
            raise bad_request(f"{who.name}: must have at least 1 item; got 0")
        grants += [
            (who, who.lookup(ctx, org, key, f"{who.name}[{i}]")) for i, key in enumerate(ids or [])
        ]
    for who, principal in dict.fromkeys(grants):
        give(ctx, target, who, principal, role)


def _aggregate(ctx: Ctx, place: Place, target: Row) -> Sequence[Any]:
    if target.kind == "site":
        return site_access(ctx, target)
    _live(ctx, target)
    return content_access(ctx, target)


def _routes(on: Resource) -> list[BaseRoute]:
    """Invite and aggregate, then list, PATCH and DELETE of each principal's grants on `on`."""
    site = on.kind == "site"
    found: list[BaseRoute] = [
        on.action("permissions", _invite, GRANTING.write, answer="nothing"),
        on.listing("permissions/aggregate", _aggregate, site_page if site else content_page),
    ]
    role = Choice("role", values=ROLES, nullable=BOTH, resolve=_member_role if site else None)
    for who in PRINCIPALS:
        grants = Resource(
            who.kind,
            f"{on.item_at}/permissions/{who.name}",
            who.param,
            _one(who),
            missing=f"{who.param}: {{id!r}} has no grant on {on.kind} {{holder!r}} (grant it "
            "first with POST .../permissions)",
            scope=Within(on, None if site else _live),
            body=Body((role,)),
            rules=GrantRules(who),
            operations=("list", "update", "delete"),
            access=GRANTING,
            snapshot=(),
        )
        found += grants.routes()
    return found


def _one(who: Principals) -> Callable[[Ctx, Row], Doc]:
    """The view of one grant, as its list answers it."""
    return lambda ctx, row: who.page(ctx, [row])[0]


routes: list[BaseRoute] = [route for on in (COLLECTIONS, SPACES, SITES) for route in _routes(on)]

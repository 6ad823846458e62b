"""Grants on collections, spaces and sites: invite, list, PATCH and DELETE per team or member,
and the aggregate list of who can access the resource, with how.

Grants are one declared mechanism: a `Grants` table entry says what the grants are on (its
kind, where it is, how it is found) and which roles its PATCH takes, and `routes()` makes its
eight operations from it, the same for the three (production: every invite takes a
`MemberRoleOrGuest`, and so do the PATCHes of content grants, the site's a `MemberRole`). On a
site, null is a guest override, which its lists show as `permission: null`; on content, whose
lists answer a `MemberRole`, null is a grant of no role of its own: it removes the principal's
grant there, if any. A grant's principals, teams and users, are the `PRINCIPALS` table. Rows
are those of `docsync.emulator.grants`; who can access a resource is permissions_aggregate's.
Choices are in docs/emulator.md ("Grants").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access, membership
from docsync.emulator.content import find
from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.grants import TEAM_GRANT, USER_GRANT, grant_id
from docsync.emulator.http import Ctx, api_route, empty
from docsync.emulator.paging import paginate
from docsync.emulator.permissions_aggregate import aggregate
from docsync.emulator.site_tree import find_site
from docsync.emulator.snapshot import Loading, items
from docsync.emulator.store import Row
from docsync.emulator.validate import ROLES, Fields
from docsync.emulator.views import team_view, user_view

Doc = dict[str, Any]


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


@dataclass(frozen=True)
class Grants:
    """The grants on one kind of resource: a table entry whose `routes()` serve them."""

    kind: str  # "collection", "space" or "site"
    path: str  # template of `.../permissions`
    #: whether a PATCH takes null (production: content grants do, a site's do not)
    guest_patch: bool

    def target(self, ctx: Ctx, access: Access) -> Row:
        """The resource of the path, after checking the caller's access; 404 when unknown."""
        if self.kind == "site":
            return find_site(ctx, ctx.org(access)["id"])
        row = find(ctx, self.kind, ctx.params[f"{self.kind}Id"], access)
        if row.data.get("deletedAt"):
            raise not_found(f"Space {row.id!r} is deleted: restore it to manage its access")
        return row

    def role(self, body: Fields, nullable: bool) -> str | None:
        role = body.enum("role", ROLES, required=True, nullable=True)
        if role is None and not nullable:
            raise bad_request(
                f"role: must be one of {', '.join(repr(r) for r in ROLES)}; got null (a "
                f"{self.kind} grant's role cannot be changed to a guest: DELETE it instead)"
            )
        return role

    def grant(
        self, ctx: Ctx, target: Row, who: Principals, principal: str, role: str | None
    ) -> None:
        """Give `role` to a team or member; null on content is no role of its own there."""
        key = grant_id(target.id, principal)
        if role is None and self.kind != "site":
            ctx.tx.delete(who.kind, key)
        elif ctx.tx.get(who.kind, key) is None:
            data = {who.field: principal, "role": role}
            ctx.tx.insert(who.kind, key, data, org=target.org, parent=target.id)
        else:
            ctx.tx.update(who.kind, key, {who.field: principal, "role": role})

    # -- operations ----------------------------------------------------------------------------
    def invite(self, ctx: Ctx) -> Response:
        target = self.target(ctx, Access.CONTENT_ADMIN)
        body = Fields(ctx.body(), ("role", *(who.name for who in PRINCIPALS)))
        role = self.role(body, True)
        named = [(who, body.strings(who.name)) for who in PRINCIPALS]
        if all(ids is None for _, ids in named):
            raise bad_request("body: give teams, users or both (lists of ids) with the role")
        org = str(target.org)
        grants: list[tuple[Principals, str]] = []
        for who, ids in named:
            if ids is not None and not ids:
                raise bad_request(f"{who.name}: must have at least 1 item; got 0")
            grants += [
                (who, who.lookup(ctx, org, key, f"{who.name}[{i}]"))
                for i, key in enumerate(ids or [])
            ]
        for who, principal in dict.fromkeys(grants):
            self.grant(ctx, target, who, principal, role)
        return empty(204)

    def listing(self, ctx: Ctx, who: Principals) -> Response:
        target = self.target(ctx, Access.READ)
        rows = ctx.tx.rows(who.kind, parent=target.id)
        return paginate(ctx, rows, lambda page: who.page(ctx, page))

    def update(self, ctx: Ctx, who: Principals) -> Response:
        target = self.target(ctx, Access.CONTENT_ADMIN)
        principal = ctx.params[who.param]
        if ctx.tx.get(who.kind, grant_id(target.id, principal)) is None:
            raise not_found(
                f"{who.param}: {principal!r} has no grant on {self.kind} {target.id!r} "
                "(grant it first with POST .../permissions)"
            )
        body = Fields(ctx.body(), ("role",))
        if body.has("role"):
            self.grant(ctx, target, who, principal, self.role(body, self.guest_patch))
        return empty(204)

    def remove(self, ctx: Ctx, who: Principals) -> Response:
        target = self.target(ctx, Access.CONTENT_ADMIN)
        removed = ctx.tx.delete(who.kind, grant_id(target.id, ctx.params[who.param]))
        return empty(205 if removed else 204)

    def load(self, at: Loading, params: dict[str, str], answer: Any, who: Principals) -> None:
        """One principal's grants as a snapshot read them (`{permission, team | user}`)."""
        target = params[f"{self.kind}Id"]
        for item in items(answer):
            principal = str(item[who.field]["id"])
            data = {who.field: principal, "role": item.get("permission")}
            at.put(who.kind, grant_id(target, principal), data, parent=target)

    def who_can_access(self, ctx: Ctx) -> Response:
        return aggregate(ctx, self.target(ctx, Access.READ))

    def routes(self) -> list[BaseRoute]:
        """Invite and aggregate, then list, PATCH and DELETE of each principal's grants."""
        found: list[BaseRoute] = [
            api_route("POST", self.path, self.invite),
            api_route("GET", self.path + "/aggregate", self.who_can_access),
        ]
        for who in PRINCIPALS:
            listed, item = f"{self.path}/{who.name}", f"{self.path}/{who.name}/{{{who.param}}}"
            found += [
                api_route("GET", listed, _with(self.listing, who), loads=_loads(self.load, who)),
                api_route("PATCH", item, _with(self.update, who)),
                api_route("DELETE", item, _with(self.remove, who)),
            ]
        return found


def _with(operation: Callable[[Ctx, Principals], Response], who: Principals) -> Any:
    """A handler of one principal's grants (named for the route's statistics and logs)."""

    def handler(ctx: Ctx) -> Response:
        return operation(ctx, who)

    handler.__name__ = f"{operation.__name__}_{who.name}"
    return handler


def _loads(
    load: Callable[[Loading, dict[str, str], Any, Principals], None], who: Principals
) -> Any:
    """The loader of one principal's grants."""

    def loader(at: Loading, params: dict[str, str], answer: Any) -> None:
        load(at, params, answer, who)

    return loader


GRANTS = (
    Grants("collection", "/v1/collections/{collectionId}/permissions", guest_patch=True),
    Grants("space", "/v1/spaces/{spaceId}/permissions", guest_patch=True),
    Grants("site", "/v1/orgs/{organizationId}/sites/{siteId}/permissions", guest_patch=False),
)

routes: list[BaseRoute] = [route for grants in GRANTS for route in grants.routes()]

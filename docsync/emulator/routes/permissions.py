"""Grants on collections, spaces and sites: invite, list, PATCH and DELETE per team or member,
and the aggregate list of who can access the resource, with how.

One set of handlers serves the three resource types; a `Resource` says where each is found and
which roles its operations take (production: every invite takes a `MemberRoleOrGuest`, and so do
the PATCHes of content grants, the site's a `MemberRole`). On a site, null is a guest override,
which its lists show as `permission: null`; on content, whose lists answer a `MemberRole`, null
is a grant of no role of its own: it removes the principal's grant there, if any. Rows are those
of `docsync.emulator.grants`; who can access a resource is permissions_aggregate's. Choices are
in docs/emulator.md ("Grants").
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
from docsync.emulator.routes.permissions_aggregate import aggregate
from docsync.emulator.routes.sites_tree import find_site
from docsync.emulator.store import Row
from docsync.emulator.validate import ROLES, Fields
from docsync.emulator.views import team_view, user_view

Doc = dict[str, Any]


@dataclass(frozen=True)
class Resource:
    """One resource type whose grants these routes serve."""

    kind: str  # "collection", "space" or "site"
    path: str  # template of `.../permissions`
    guest_patch: bool  # whether a PATCH takes null (production: content grants, not a site's)

    def find(self, ctx: Ctx, access: Access) -> Row:
        """The resource of the path, after checking the caller's access; 404 when unknown."""
        if self.kind == "site":
            return find_site(ctx, ctx.org(access)["id"])
        row = find(ctx, self.kind, ctx.params[f"{self.kind}Id"], access)
        if row.data.get("deletedAt"):
            raise not_found(f"Space {row.id!r} is deleted: restore it to manage its access")
        return row


COLLECTION = Resource("collection", "/v1/collections/{collectionId}/permissions", True)
SPACE = Resource("space", "/v1/spaces/{spaceId}/permissions", True)
SITE = Resource("site", "/v1/orgs/{organizationId}/sites/{siteId}/permissions", False)
#: principal type -> (grant kind, path parameter)
_PRINCIPALS = {"teams": (TEAM_GRANT, "teamId"), "users": (USER_GRANT, "userId")}


def _role(body: Fields, res: Resource, nullable: bool, *, required: bool) -> str | None:
    role = body.enum("role", ROLES, required=required, nullable=True)
    if role is None and body.has("role") and not nullable:
        raise bad_request(
            f"role: must be one of {', '.join(repr(r) for r in ROLES)}; got null (a {res.kind} "
            "grant's role cannot be changed to a guest: remove it with DELETE instead)"
        )
    return role


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


_LOOKUP: dict[str, Callable[[Ctx, str, str, str], str]] = {"teams": _team, "users": _user}


def _grant(ctx: Ctx, target: Row, kind: str, principal: str, role: str | None) -> None:
    """Give `role` to a team or member; null on content is no role of its own there."""
    key = grant_id(target.id, principal)
    if role is None and target.kind != "site":
        ctx.tx.delete(kind, key)
        return
    field = "team" if kind == TEAM_GRANT else "user"
    data = {field: principal, "role": role}
    if ctx.tx.get(kind, key) is None:
        ctx.tx.insert(kind, key, data, org=target.org, parent=target.id)
    else:
        ctx.tx.update(kind, key, data)


def invite(ctx: Ctx, res: Resource) -> Response:
    target = res.find(ctx, Access.CONTENT_ADMIN)
    body = Fields(ctx.body(), ("role", "teams", "users"))
    role = _role(body, res, True, required=True)
    given = {name: body.strings(name) for name in _PRINCIPALS}
    if all(ids is None for ids in given.values()):
        raise bad_request("body: give teams, users or both (lists of ids) with the role to grant")
    org = str(target.org)
    grants: list[tuple[str, str]] = []
    for name, ids in given.items():
        if ids is not None and not ids:
            raise bad_request(f"{name}: must have at least 1 item; got 0")
        kind = _PRINCIPALS[name][0]
        grants += [
            (kind, _LOOKUP[name](ctx, org, key, f"{name}[{i}]")) for i, key in enumerate(ids or [])
        ]
    for kind, principal in dict.fromkeys(grants):
        _grant(ctx, target, kind, principal, role)
    return empty(204)


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


_PAGES = {"teams": _teams_page, "users": _users_page}


def list_grants(ctx: Ctx, res: Resource, principals: str) -> Response:
    target = res.find(ctx, Access.READ)
    rows = ctx.tx.rows(_PRINCIPALS[principals][0], parent=target.id)
    return paginate(ctx, rows, lambda page: _PAGES[principals](ctx, page))


def update_grant(ctx: Ctx, res: Resource, principals: str) -> Response:
    target = res.find(ctx, Access.CONTENT_ADMIN)
    kind, param = _PRINCIPALS[principals]
    principal = ctx.params[param]
    if ctx.tx.get(kind, grant_id(target.id, principal)) is None:
        raise not_found(
            f"{param}: {principal!r} has no grant on {res.kind} {target.id!r} "
            "(grant it first with POST .../permissions)"
        )
    body = Fields(ctx.body(), ("role",))
    if body.has("role"):
        _grant(ctx, target, kind, principal, _role(body, res, res.guest_patch, required=True))
    return empty(204)


def remove_grant(ctx: Ctx, res: Resource, principals: str) -> Response:
    target = res.find(ctx, Access.CONTENT_ADMIN)
    kind, param = _PRINCIPALS[principals]
    removed = ctx.tx.delete(kind, grant_id(target.id, ctx.params[param]))
    return empty(205 if removed else 204)


# -- routes --------------------------------------------------------------------------------


def _routes(res: Resource) -> list[BaseRoute]:
    def invite_(ctx: Ctx) -> Response:
        return invite(ctx, res)

    def aggregate_(ctx: Ctx) -> Response:
        return aggregate(ctx, res.find(ctx, Access.READ))

    found: list[BaseRoute] = [
        api_route("POST", res.path, invite_),
        api_route("GET", res.path + "/aggregate", aggregate_),
    ]
    for principals, (_, param) in _PRINCIPALS.items():
        found += _principal_routes(res, principals, f"{res.path}/{principals}", param)
    return found


def _principal_routes(res: Resource, principals: str, path: str, param: str) -> list[BaseRoute]:
    def list_(ctx: Ctx) -> Response:
        return list_grants(ctx, res, principals)

    def update_(ctx: Ctx) -> Response:
        return update_grant(ctx, res, principals)

    def remove_(ctx: Ctx) -> Response:
        return remove_grant(ctx, res, principals)

    return [
        api_route("GET", path, list_),
        api_route("PATCH", f"{path}/{{{param}}}", update_),
        api_route("DELETE", f"{path}/{{{param}}}", remove_),
    ]


routes: list[BaseRoute] = [route for res in (COLLECTION, SPACE, SITE) for route in _routes(res)]

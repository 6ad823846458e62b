"""Organization members: list with filters and sorting, get, PATCH role, DELETE, mark as SSO."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access, member_id
from docsync.emulator.errors import conflict, not_found
from docsync.emulator.grants import drop_user
from docsync.emulator.http import Ctx, api_route, empty, ok
from docsync.emulator.paging import paginate, query_enum
from docsync.emulator.store import Row
from docsync.emulator.validate import ROLES, Fields
from docsync.emulator.views import member_view, member_views

BASE = "/v1/orgs/{organizationId}/members"


def _member(ctx: Ctx, org: str) -> dict[str, Any]:
    found = ctx.tx.get("member", member_id(org, ctx.params["userId"]))
    if found is None:
        raise not_found(f"User {ctx.params['userId']!r} is not a member of organization {org!r}")
    return found


def _check_last_admin(ctx: Ctx, org: str, uid: str) -> None:
    admins = [r for r in ctx.tx.rows("member", org=org) if r.data.get("role") == "admin"]
    if [r.data["user"] for r in admins] == [uid]:
        raise conflict(
            "last-admin",
            f"{uid!r} is the last admin of organization {org!r}: promote another first",
        )


def list_members(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    role = query_enum(ctx, "role", (*ROLES, "guest"))
    members = [row.data for row in ctx.tx.rows("member", org=org)]
    if role is not None:
        wanted = None if role == "guest" else role
        members = [m for m in members if m.get("role") == wanted]
    members, users = search_and_sort(ctx, members)
    return paginate(ctx, members, lambda page: member_views(ctx, org, page, users))


def search_and_sort(
    ctx: Ctx, members: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], dict[str, Row] | None]:
    """Members kept by the `search` query (name or email) and ordered by `sort` and `order`
    (the members list and the site permissions aggregate), with the users read to do it:
    every member's user only to search or sort by name, else None (the page reads its own)."""
    sort = query_enum(ctx, "sort", ("joinedAt", "lastSeenAt", "name"), "joinedAt")
    order = query_enum(ctx, "order", ("asc", "desc"), "desc")
    search = (ctx.query.get("search") or "").lower()
    users = (
        ctx.tx.get_many("user", [str(m["user"]) for m in members])
        if search or sort == "name"
        else None
    )

    def user(member: dict[str, Any]) -> dict[str, Any]:
        assert users is not None
        found = users.get(str(member["user"]))
        return found.data if found is not None else {"id": member["user"], "email": ""}

    if search:
        members = [
            m
            for m in members
            if search in _name(user(m)).lower() or search in str(user(m)["email"]).lower()
        ]
    if sort == "lastSeenAt":
        members = [m for m in members if m.get("lastSeenAt")]
    key = {
        "joinedAt": lambda m: (m["joinedAt"], m["user"]),
        "lastSeenAt": lambda m: (m.get("lastSeenAt", ""), m["user"]),
        "name": lambda m: (_name(user(m)).lower(), m["user"]),
    }[sort or "joinedAt"]
    return sorted(members, key=key, reverse=order == "desc"), users


def _name(user: dict[str, Any]) -> str:
    """The display name a member view shows (the id when the user has none)."""
    return str(user.get("displayName") or user["id"])


def get_member(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    return ok(member_view(ctx, org, _member(ctx, org)))


def update_member(ctx: Ctx) -> Response:
    org = ctx.org(Access.ADMIN)["id"]
    member = _member(ctx, org)
    body = Fields(ctx.body(), ("role",))
    if body.has("role"):
        role = body.enum("role", ROLES, nullable=True)
        if role != "admin" and member.get("role") == "admin":
            _check_last_admin(ctx, org, member["user"])
        member = {**member, "role": role}
        ctx.tx.update("member", member_id(org, member["user"]), member)
    return ok(member_view(ctx, org, member))


def delete_member(ctx: Ctx) -> Response:
    org = ctx.org(Access.ADMIN)["id"]
    uid = ctx.params["userId"]
    member = ctx.tx.get("member", member_id(org, uid))
    if member is None:
        return empty(204)
    if member.get("role") == "admin":
        _check_last_admin(ctx, org, uid)
    ctx.tx.delete("member", member_id(org, uid))
    for row in ctx.tx.by_user("team-member", org, uid):
        ctx.tx.delete("team-member", row.id)
    drop_user(ctx.tx, org, uid)
    return ctx.deleted()  # docs-platform-api.md §4.12: 204; production: 205


def set_sso(ctx: Ctx) -> Response:
    org = ctx.org(Access.ADMIN)["id"]
    member = {**_member(ctx, org), "sso": True}
    ctx.tx.update("member", member_id(org, member["user"]), member)
    return ok(member_view(ctx, org, member))


routes: list[BaseRoute] = [
    api_route("GET", BASE, list_members),
    api_route("GET", BASE + "/{userId}", get_member),
    api_route("PATCH", BASE + "/{userId}", update_member),
    api_route("DELETE", BASE + "/{userId}", delete_member),
    api_route("POST", BASE + "/{userId}/sso", set_sso),
]

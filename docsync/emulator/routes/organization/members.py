"""Organization members: list with filters and sorting, get, PATCH role, DELETE, mark as SSO."""

from __future__ import annotations

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.body import BOTH, At, Body, Choice, Place
from docsync.emulator.grants import drop_user
from docsync.emulator.http import Ctx
from docsync.emulator.members import check_last_admin, search_and_sort
from docsync.emulator.paging import paginate, query_enum
from docsync.emulator.resource import Resource
from docsync.emulator.rules import ADMIN, DESCRIBED_DELETE, Entry, Rules
from docsync.emulator.snapshot import Loading, kept
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import ROLES
from docsync.emulator.views import member_view, member_views

BASE = "/v1/orgs/{organizationId}/members"


def list_members(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    role = query_enum(ctx, "role", (*ROLES, "guest"))
    members = [row.data for row in ctx.tx.rows("member", org=org)]
    if role is not None:
        wanted = None if role == "guest" else role
        members = [m for m in members if m.get("role") == wanted]
    members, users = search_and_sort(ctx, members)
    return paginate(ctx, members, lambda page: member_views(ctx, org, page, users))


def _role(at: At, role: str | None, name: str) -> str | None:
    assert at.row is not None
    if role != "admin" and at.row.data.get("role") == "admin":
        check_last_admin(at.ctx, at.place.org, at.row.data["user"])
    return role


class MemberRules(Rules):
    def serve_list(self, ctx: Ctx, res: Entry) -> Response:
        return list_members(ctx)

    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
        """A member as answered, and its user (with a token)."""
        data = {"user": at.user(item["user"]), "role": item.get("role")}
        data.update(kept(item, ("joinedAt", "lastSeenAt", "sso", "disabled")))
        return {"joinedAt": at.now, **data}

    def remove(self, ctx: Ctx, place: Place, row: Row) -> bool:
        uid = row.data["user"]
        if row.data.get("role") == "admin":
            check_last_admin(ctx, place.org, uid)
        ctx.tx.delete("member", row.id)
        for membership in ctx.tx.by_user("team-member", place.org, uid):
            ctx.tx.delete("team-member", membership.id)
        drop_user(ctx.tx, place.org, uid)
        return True


def _sso(ctx: Ctx, place: Place, row: Row) -> None:
    ctx.tx.update("member", row.id, {**row.data, "sso": True})


MEMBERS = Resource(
    "member",
    BASE,
    "userId",
    lambda ctx, row: member_view(ctx, str(row.org), row.data),
    missing="User {id!r} is not a member of organization {org!r}",
    body=Body((Choice("role", values=ROLES, nullable=BOTH, resolve=_role),)),
    rules=MemberRules(),
    org_keyed=True,
    operations=("list", "get", "update", "delete"),
    access=ADMIN,
    codes=DESCRIBED_DELETE,  # docs-platform-api.md §4.12: 204; production: 205
    snapshot=(),
)

routes: list[BaseRoute] = [*MEMBERS.routes(), MEMBERS.action("sso", _sso, Access.ADMIN)]

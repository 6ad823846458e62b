"""Organization members as the routes share them: the last admin, who no change may leave the
organization without, and the search and order of a list of members (the members list, and the
site permissions aggregate)."""

from __future__ import annotations

from typing import Any

from docsync.emulator.errors import conflict
from docsync.emulator.http import Ctx
from docsync.emulator.paging import query_enum
from docsync.emulator.store import Row


def check_last_admin(ctx: Ctx, org: str, uid: str) -> None:
    """409 when `uid` is the last admin of `org` (a demotion or removal would leave none)."""
    admins = [r for r in ctx.tx.rows("member", org=org) if r.data.get("role") == "admin"]
    if [r.data["user"] for r in admins] == [uid]:
        raise conflict(
            "last-admin",
            f"{uid!r} is the last admin of organization {org!r}: promote another first",
        )


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

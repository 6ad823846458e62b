"""Who can access a collection, space or site, with which role and how (`.../aggregate`).

On content the highest role a member reaches wins (organization role or default level, grants to
them or their teams on the resource and the collections around it); on a site, grants are
overrides. Choices are in docs/emulator.md ("Grants").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docsync.emulator.errors import not_found
from docsync.emulator.grants import TEAM_GRANT, USER_GRANT
from docsync.emulator.http import Ctx
from docsync.emulator.members import search_and_sort
from docsync.emulator.paging import query_enum
from docsync.emulator.store import Row
from docsync.emulator.validate import ROLES
from docsync.emulator.views import user_view

Doc = dict[str, Any]
#: rank of each role, highest first as in ROLES (admin > create > review > edit > comment > read)
_RANK = {role: len(ROLES) - i for i, role in enumerate(ROLES)}

Reach = tuple[str | None, Doc]  # (role or None, origin pointer)


def _chain(ctx: Ctx, target: Row) -> list[Row]:
    """The resource, then the collections around it, innermost first (grants are inherited)."""
    chain = [target]
    parent = target.parent if target.kind != "site" else None
    while parent is not None and all(r.id != parent for r in chain):
        row = ctx.tx.get_row("collection", parent)
        if row is None:
            break
        chain.append(row)
        parent = row.parent
    return chain


def _higher(found: dict[str, Reach], user: str, reach: Reach) -> None:
    current = found.get(user)
    role = reach[0]
    if role is not None and (current is None or _RANK[role] > _RANK[str(current[0])]):
        found[user] = reach


def _access(ctx: Ctx, target: Row, members: Sequence[Doc]) -> dict[str, Reach]:
    """Each member's role on `target` (absent or None: no access) and where it comes from.

    The base is the organization role (admins always; others when every `defaultLevel` up the
    chain is "inherit") or the first `defaultLevel` that is a role (not for guests). On content,
    grants to the member or their teams on the resource or the collections around it add to it
    (the highest role wins); on a site, grants are overrides: a member's own grant decides (null:
    no access), else the highest of their teams' grants, else the base. Admins stay admins.
    """
    org = str(target.org)
    chain = _chain(ctx, target)
    site = {"type": "site", "site": target.id}
    found: dict[str, Reach] = {}
    levels = [r.data.get("defaultLevel", "inherit") for r in chain]
    level = next((lvl for lvl in levels if lvl != "inherit"), "inherit")
    admins = set()
    for member in members:
        role = member.get("role")
        admins.update([member["user"]] if role == "admin" else [])
        if role == "admin" or (level == "inherit" and role is not None):
            found[member["user"]] = (role, {"type": "organization", "organization": org})
        elif role is not None and level is not None:
            found[member["user"]] = (level, {**site, "reason": "default"})
    by_team: dict[str, Reach] = {}
    by_user: dict[str, Reach] = {}
    for row in chain:
        for grant in ctx.tx.rows(USER_GRANT, parent=row.id):
            reach = (grant.data["role"], {**site, "reason": "member"})
            if reach[0] is None:  # a site's guest override
                by_user.setdefault(grant.data["user"], reach)
            _higher(by_user, grant.data["user"], reach)
        for grant in ctx.tx.rows(TEAM_GRANT, parent=row.id):
            reach = (grant.data["role"], {**site, "reason": "team", "team": grant.data["team"]})
            for tm in ctx.tx.rows("team-member", parent=grant.data["team"]):
                _higher(by_team, tm.data["user"], reach)
    for grants in (by_team, by_user):
        for user, reach in grants.items():
            if target.kind != "site":
                _higher(found, user, reach)
            elif user not in admins:
                found[user] = reach
    return found


def content_access(ctx: Ctx, target: Row) -> list[tuple[str, str]]:
    """`GET .../permissions/aggregate` of a collection or space: each member with access and
    the highest role they reach there, in organization order (`role` keeps one role)."""
    members = [r.data for r in ctx.tx.rows("member", org=target.org)]
    wanted = query_enum(ctx, "role", ROLES)
    found = _access(ctx, target, members)
    return [
        (str(m["user"]), role)
        for m in members
        if (role := found.get(m["user"], (None,))[0]) is not None and wanted in (None, role)
    ]


def content_page(ctx: Ctx, page: Sequence[tuple[str, str]]) -> list[Doc]:
    users = ctx.tx.get_many("user", [uid for uid, _ in page])
    return [{"permission": role, "user": user_view(ctx, users[uid].data)} for uid, role in page]


#: a member of the organization, their role on a site (None: no access) and where it comes
#: from, and their user when the list read it already
SiteAccess = tuple[Doc, Reach, Row | None]


def site_access(ctx: Ctx, target: Row) -> list[SiteAccess]:
    """`GET .../permissions/aggregate` of a site: every member of the organization with their
    role on the site (null: no access), kept by `role` and `team`, searched and sorted as the
    members list."""
    members = [r.data for r in ctx.tx.rows("member", org=target.org)]
    wanted = query_enum(ctx, "role", (*ROLES, "guest"))
    team = ctx.query.get("team")
    found = _access(ctx, target, members)
    nobody: Reach = (None, {"type": "organization", "organization": target.org})
    if wanted is not None:
        role = None if wanted == "guest" else wanted
        members = [m for m in members if found.get(m["user"], nobody)[0] == role]
    if team is not None:
        row = ctx.tx.get_row("team", team)
        if row is None or row.org != target.org:
            raise not_found(f"team: no team {team!r} in organization {target.org!r}")
        members = [m for m in members if ctx.tx.get("team-member", f"{team}/{m['user']}")]
    members, users = search_and_sort(ctx, members)
    read = users or {}
    return [(m, found.get(m["user"], nobody), read.get(m["user"])) for m in members]


def site_page(ctx: Ctx, page: Sequence[SiteAccess]) -> list[Doc]:
    unread = [str(m["user"]) for m, _, user in page if user is None]
    read = ctx.tx.get_many("user", unread) if unread else {}
    items = []
    for m, (role, origin), user in page:
        item = {
            "permission": role,
            "user": user_view(ctx, (user or read[m["user"]]).data),
            "origin": origin,
            "disabled": bool(m.get("disabled", False)),
        }
        if m.get("lastSeenAt"):
            item["lastSeenAt"] = m["lastSeenAt"]
        items.append(item)
    return items

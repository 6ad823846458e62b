"""Response shapes of the organization-level resources, with the fields production requires.

Route modules (and the sites routes, which embed `Space` objects in site spaces) render stored
rows through these functions, so every answer of one resource kind has the same shape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from docsync.emulator import git_sync
from docsync.emulator.auth import Access, can
from docsync.emulator.http import Ctx
from docsync.emulator.store import Row

Doc = dict[str, Any]


def org_view(ctx: Ctx, org: dict[str, Any], member: dict[str, Any]) -> dict[str, Any]:
    """An `Organization` with the caller's permissions (`member` is the caller's row)."""
    admin = can(member, Access.ADMIN)
    content = can(member, Access.CONTENT)
    urls: dict[str, Any] = {
        "location": ctx.url(f"/orgs/{org['id']}"),
        "app": ctx.app_url(f"/o/{org['id']}"),
    }
    if org.get("logo"):
        urls["logo"] = org["logo"]
    body: dict[str, Any] = {
        "object": "organization",
        "id": org["id"],
        "title": org["title"],
        "createdAt": org["createdAt"],
        "emailDomains": list(org.get("emailDomains") or []),
        "type": org.get("type", "business"),
        "defaultRole": org.get("defaultRole"),
        "sso": bool(org.get("sso")),
        "ai": bool(org.get("ai")),
        "inviteLinks": bool(org.get("inviteLinks")),
        "plan": org.get("plan", "free_2024"),
        "mergeRules": org.get("mergeRules") or {"type": "none"},
        "urls": urls,
        "trial": {"status": "notapplicable", "count": 0},
        "permissions": {
            "view": True,
            "access": True,
            "admin": admin,
            "ownTeam": admin,
            "createContent": content,
            "createOpenAPISpec": content,
            "viewBilling": admin,
            "listMembers": True,
            "listTeams": True,
            "listIntegrations": True,
            "listInstallations": admin,
            "installIntegration": admin,
        },
    }
    if org.get("hostname"):
        body["hostname"] = org["hostname"]
    if org.get("defaultContent"):
        body["defaultContent"] = org["defaultContent"]
    return body


def user_view(ctx: Ctx, user: Doc) -> Doc:
    """A `User` (never its token)."""
    body: Doc = {
        "object": "user",
        "id": user["id"],
        "displayName": user.get("displayName") or user["id"],
        "email": user["email"],
        "urls": {"location": ctx.url(f"/users/{user['id']}")},
    }
    if user.get("photoURL"):
        body["photoURL"] = user["photoURL"]
    return body


def member_view(
    ctx: Ctx, org: str, member: Doc, user: Doc | None = None, teams: int | None = None
) -> Doc:
    """An `OrganizationMember`: the user, the role (null = guest) and counts.

    Lists pass `user` and `teams` from batch reads (`member_views`); alone, it reads them.
    """
    uid = member["user"]
    if user is None:
        user = ctx.tx.get("user", uid) or {"id": uid, "email": ""}
    if teams is None:
        teams = ctx.tx.count_by_user("team-member", org, [uid]).get(uid, 0)
    body: Doc = {
        "object": "member",
        "id": uid,
        "role": member.get("role"),
        "user": user_view(ctx, user),
        "disabled": bool(member.get("disabled", False)),
        "joinedAt": member["joinedAt"],
        "sso": bool(member.get("sso", False)),
        "spaces": 0,
        "teams": teams,
        "sites": 0,
    }
    if member.get("lastSeenAt"):
        body["lastSeenAt"] = member["lastSeenAt"]
    return body


def member_views(
    ctx: Ctx, org: str, members: Sequence[Doc], users: Mapping[str, Row] | None = None
) -> list[Doc]:
    """`member_view` of many members with two batch reads (users, team counts), not 2 per member.

    `users` (user rows by id) saves the first read when the caller already has them.
    """
    uids = [str(m["user"]) for m in members]
    if users is None:
        users = ctx.tx.get_many("user", uids)
    teams = ctx.tx.count_by_user("team-member", org, uids)
    return [
        member_view(
            ctx,
            org,
            m,
            users[uid].data if uid in users else {"id": uid, "email": ""},
            teams.get(uid, 0),
        )
        for m, uid in zip(members, uids, strict=True)
    ]


def team_view(ctx: Ctx, row: Row) -> Doc:
    """An `OrganizationTeam`: title, member count, timestamps and the caller's permissions."""
    return {
        "object": "team",
        "id": row.id,
        "title": row.data["title"],
        "members": ctx.tx.count("team-member", parent=row.id),
        "spaces": 0,
        "createdAt": row.data["createdAt"],
        "permissions": {"admin": can(ctx.member, Access.ADMIN), "view": True},
    }


def space_view(ctx: Ctx, row: Row) -> Doc:
    """A `Space` with every field production marks required (counts are 0, no content)."""
    data = row.data
    app = ctx.app_url(f"/o/{row.org}/s/{row.id}")
    body: Doc = {
        "object": "space",
        "id": row.id,
        "title": data["title"],
        "emoji": data.get("emoji") or "",
        "visibility": "in-collection" if row.parent else "private",
        "createdAt": data["createdAt"],
        "updatedAt": data["updatedAt"],
        "editMode": data.get("editMode", "live"),
        "mergeRules": data.get("mergeRules") or {"type": "inherit"},
        "urls": {"location": _location(ctx, f"/spaces/{row.id}"), "app": app},
        "organization": row.org,
        "revision": data.get("revision") or f"rev_{row.id}",
        "defaultLevel": data.get("defaultLevel", "inherit"),
        "comments": 0,
        "changeRequests": 0,
        "changeRequestsOpen": 0,
        "changeRequestsDraft": 0,
        "permissions": _content_permissions(ctx),
    }
    if row.parent:
        body["parent"] = row.parent
    if data.get("deletedAt"):
        body["deletedAt"] = data["deletedAt"]
    if data.get("icon"):
        body["urls"]["icon"] = data["icon"]
    if data.get("language"):
        body["language"] = data["language"]
    if data.get("type"):
        body["type"] = data["type"]  # a style guide (production's `styleguide`)
    synced = git_sync.state(ctx.tx, row.id)
    if synced is not None:
        body["gitSync"] = synced
    elif ctx.production and isinstance(data.get("legacyGitSync"), dict):
        body["gitSync"] = dict(data["legacyGitSync"])  # "Production as it answers"
    return body


def _location(ctx: Ctx, path: str) -> str:
    """A space's API URL: production answers it relative to its API (docs/emulator.md,
    "Production as it answers": `relative-location`), its document says a URI."""
    return path if ctx.production else ctx.url(path)


def _content_permissions(ctx: Ctx) -> Doc:
    edit = ctx.role in ("admin", "create", "edit")
    admin = can(ctx.member, Access.CONTENT_ADMIN)
    return {
        "view": True,
        "access": True,
        "admin": admin,
        "viewInviteLinks": admin,
        "edit": edit,
        "triggerGitSync": edit,
        "comment": ctx.role is not None and ctx.role != "read",
        "merge": edit or ctx.role == "review",
        "review": edit or ctx.role == "review",
        "installIntegration": admin,
    }

"""Organizations: the caller's list, one organization, PATCH of its settings."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator import merge_rules
from docsync.emulator.auth import Access, can, membership
from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.http import Ctx, api_route, ok
from docsync.emulator.paging import paginate
from docsync.emulator.snapshot import Loading, items, kept, obj
from docsync.emulator.validate import ROLES, URL_PATTERN, Fields, check_string
from docsync.emulator.views import user_view

_FIELDS = (
    "mergeRules",
    "title",
    "emailDomains",
    "hostname",
    "defaultRole",
    "defaultContent",
    "logo",
    "sso",
    "ai",
    "inviteLinks",
)


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


def list_orgs(ctx: Ctx) -> Response:
    items = []
    for org in ctx.tx.docs("organization"):
        member = membership(ctx.tx, org["id"], ctx.user["id"])
        if member is not None:
            items.append(org_view(ctx, org, member))
    return paginate(ctx, items)


def get_org(ctx: Ctx) -> Response:
    org = ctx.org()
    return ok(org_view(ctx, org, ctx.member))


def _default_content(ctx: Ctx, org: str, value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise bad_request("defaultContent: must be {type: site, site: <site id>} or null")
    fields = Fields(value, ("type", "site"), "defaultContent.")
    fields.enum("type", ("site",), required=True)
    site = fields.string("site", required=True)
    found = ctx.tx.get_row("site", site or "")
    if found is None or found.org != org:
        raise not_found(f"defaultContent.site: no site {site!r} in organization {org!r}")
    return {"type": "site", "site": site}


def update_org(ctx: Ctx) -> Response:
    org = ctx.org(Access.ADMIN)
    body = Fields(ctx.body(), _FIELDS)
    changes: dict[str, Any] = {}
    if body.has("title"):
        changes["title"] = body.string("title", min_len=2, max_len=255, pattern=r"\S.*\S")
    if body.has("emailDomains"):
        changes["emailDomains"] = body.strings("emailDomains", max_len=255) or []
    if body.has("hostname"):
        changes["hostname"] = body.string("hostname", min_len=3, max_len=32)
    if body.has("defaultRole"):
        changes["defaultRole"] = body.enum("defaultRole", ROLES, nullable=True)
    if body.has("defaultContent"):
        changes["defaultContent"] = _default_content(ctx, org["id"], body.data["defaultContent"])
    if body.has("logo"):
        logo = body.data["logo"]
        changes["logo"] = None if logo is None else check_string("logo", logo, 1, 2048, URL_PATTERN)
    for flag in ("sso", "ai", "inviteLinks"):
        if body.has(flag):
            changes[flag] = body.boolean(flag)
    if body.has("mergeRules"):
        changes["mergeRules"] = merge_rules.ORGANIZATION.check(
            body.data["mergeRules"], "mergeRules"
        )
    updated = {**org, **changes}
    ctx.tx.update("organization", org["id"], updated)
    return ok(org_view(ctx, updated, ctx.member))


def get_user(ctx: Ctx) -> Response:
    """`GET /v1/user`: the token's own user. Not in the API description; the production
    contract has it (getAuthenticatedUser), and docsync needs it to never remove that user."""
    return ok(user_view(ctx, ctx.user))


#: what an organization's answer holds as it is stored
_STORED = (
    *("id", "title", "createdAt", "emailDomains", "type", "plan", "defaultRole"),
    *("sso", "ai", "inviteLinks", "mergeRules", "hostname", "defaultContent"),
)


def load_orgs(at: Loading, params: dict[str, str], answer: Any) -> None:
    """A snapshot's organization as answered (its logo is among its URLs)."""
    for org in items(answer):
        data = kept(org, _STORED)
        logo = (org.get("urls") or {}).get("logo")
        if logo:
            data["logo"] = logo
        at.put("organization", str(org["id"]), data)


def load_user(at: Loading, params: dict[str, str], answer: Any) -> None:
    """The user whose token read the snapshot."""
    at.user(obj(answer))


routes: list[BaseRoute] = [
    api_route("GET", "/v1/user", get_user, loads=load_user),
    api_route("GET", "/v1/orgs", list_orgs, loads=load_orgs),
    api_route("GET", "/v1/orgs/{organizationId}", get_org),
    api_route("PATCH", "/v1/orgs/{organizationId}", update_org),
]

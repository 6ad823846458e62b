"""Organizations: the caller's list, one organization, PATCH of its settings; the caller's user."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator import merge_rules
from docsync.emulator.auth import membership
from docsync.emulator.body import BOTH, At, Body, Choice, Field, Flag, Place, Text, Texts
from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.http import Ctx, api_route, ok
from docsync.emulator.resource import Resource
from docsync.emulator.rules import ADMIN, Entry, Rules
from docsync.emulator.scopes import MEMBER_OF
from docsync.emulator.snapshot import Loading, kept, obj
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import ROLES, URL_PATTERN, Fields
from docsync.emulator.views import org_view, user_view

#: what an organization's answer holds as it is stored
_STORED = (
    *("id", "title", "createdAt", "emailDomains", "type", "plan", "defaultRole"),
    *("sso", "ai", "inviteLinks", "mergeRules", "hostname", "defaultContent"),
)


def _default_content(at: At, value: Any, name: str) -> Doc | None:
    """`{type: site, site}` naming a site of the organization, or null."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise bad_request("defaultContent: must be {type: site, site: <site id>} or null")
    fields = Fields(value, ("type", "site"), "defaultContent.")
    fields.enum("type", ("site",), required=True)
    site = fields.string("site", required=True)
    found = at.ctx.tx.get_row("site", site or "")
    if found is None or found.org != at.place.org:
        raise not_found(f"defaultContent.site: no site {site!r} in organization {at.place.org!r}")
    return {"type": "site", "site": site}


class OrganizationRules(Rules):
    def render(self, ctx: Ctx, res: Entry, page: Sequence[Row]) -> list[Doc]:
        """Each with the caller's permissions there."""
        return [
            org_view(ctx, row.data, membership(ctx.tx, row.id, ctx.user["id"]) or {})
            for row in page
        ]

    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
        """A snapshot's organization as answered (its logo is among its URLs)."""
        data = kept(item, _STORED)
        logo = (item.get("urls") or {}).get("logo")
        if logo:
            data["logo"] = logo
        return data


ORGS = Resource(
    "organization",
    "/v1/orgs",
    "organizationId",
    lambda ctx, row: org_view(ctx, row.data, ctx.member),
    scope=MEMBER_OF,
    body=Body(
        (
            Text("title", min_len=2, max_len=255, pattern=r"\S.*\S"),
            Texts("emailDomains", max_len=255),
            Text("hostname", min_len=3, max_len=32),
            Choice("defaultRole", values=ROLES, nullable=BOTH),
            Field("defaultContent", nullable=BOTH, resolve=_default_content),
            Text("logo", nullable=BOTH, min_len=1, max_len=2048, pattern=URL_PATTERN),
            Flag("sso"),
            Flag("ai"),
            Flag("inviteLinks"),
            Field(
                "mergeRules",
                nullable=BOTH,
                resolve=lambda at, value, name: merge_rules.ORGANIZATION.check(value, name),
            ),
        )
    ),
    rules=OrganizationRules(),
    operations=("list", "get", "update"),
    access=ADMIN,
    stamps=(),
    snapshot=(),
    loaded=("list",),
)


def get_user(ctx: Ctx) -> Response:
    """`GET /v1/user`: the token's own user. Not in the API description; the production
    contract has it (getAuthenticatedUser), and docsync needs it to never remove that user."""
    return ok(user_view(ctx, ctx.user))


def load_user(at: Loading, params: dict[str, str], answer: Any) -> None:
    """The user whose token read the snapshot."""
    at.user(obj(answer))


routes: list[BaseRoute] = [
    api_route("GET", "/v1/user", get_user, loads=load_user),
    *ORGS.routes(),
]

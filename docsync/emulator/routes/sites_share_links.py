"""Site share links: list (search by name or key), create, rename or (de)activate, delete.

Rows (id / org / parent): site-share-link (id / org / site), so deleting the site deletes its
links. Each link has a random `key`, the secret of its published URL
(`<published site>/~/share/<key>`): whoever holds the URL reads the site while the link is
active. Production answers the URL in every view of the link (`urls.published`).
"""

from __future__ import annotations

import secrets

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.http import Ctx, api_route, created, empty, new_id, ok
from docsync.emulator.paging import page_answer, page_window
from docsync.emulator.routes import sites_tree as tree
from docsync.emulator.routes.sites_views import published_url
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields

BASE = "/v1/orgs/{organizationId}/sites/{siteId}/share-links"
LINK = BASE + "/{shareLinkId}"
KIND = "site-share-link"
#: production's ShareLinkName
NAME_MAX = 50


def _view(ctx: Ctx, site: Row, row: Row) -> Doc:
    data = row.data
    return {
        "object": "share-link",
        "id": row.id,
        "createdAt": data["createdAt"],
        "name": data["name"],
        "active": data["active"],
        "urls": {"published": f"{published_url(ctx, site)}/~/share/{data['key']}"},
    }


def _find(ctx: Ctx, site: Row) -> Row | None:
    row = ctx.tx.get_row(KIND, ctx.params["shareLinkId"])
    return row if row is not None and row.parent == site.id else None


def list_links(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org()["id"])
    search = (ctx.query.get("search") or "").lower()
    rows = [
        row
        for row in ctx.tx.rows(KIND, parent=site.id)
        if search in str(row.data["name"]).lower() or search == str(row.data["key"]).lower()
    ]
    offset, limit = page_window(ctx)
    page = rows[offset : offset + limit]
    return page_answer([_view(ctx, site, row) for row in page], len(rows), offset, limit)


def create_link(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    body = Fields(ctx.body(), ("name",))
    data: Doc = {
        "id": new_id(),
        "name": body.string("name", required=True, max_len=NAME_MAX),
        "active": True,
        "key": secrets.token_urlsafe(24),
        "createdAt": ctx.now,
    }
    ctx.tx.insert(KIND, data["id"], data, org=site.org, parent=site.id)
    row = ctx.tx.get_row(KIND, data["id"])
    assert row is not None
    location = ctx.url(f"/orgs/{site.org}/sites/{site.id}/share-links/{row.id}")
    return created(_view(ctx, site, row), location)


def update_link(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    row = _find(ctx, site)
    if row is None:
        raise not_found(f"No share link {ctx.params['shareLinkId']!r} in site {site.id!r}")
    body = Fields(ctx.body(), ("active", "name"))
    changes: Doc = {}
    if body.has("name"):
        changes["name"] = body.string("name", max_len=NAME_MAX)
    if body.has("active"):
        changes["active"] = body.boolean("active")
    if not changes:
        raise bad_request("body: write `active`, `name` or both")
    row = tree.patch(ctx.tx, row, changes)
    return ok(_view(ctx, site, row))


def delete_link(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    row = _find(ctx, site)
    if row is None:
        return empty(204)
    ctx.tx.delete(KIND, row.id)
    return empty(205)


routes: list[BaseRoute] = [
    api_route("GET", BASE, list_links),
    api_route("POST", BASE, create_link),
    api_route("PATCH", LINK, update_link),
    api_route("DELETE", LINK, delete_link),
]

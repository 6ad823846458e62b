"""Site external links: create, update, delete. A link is a leaf of a sections site's root
level, sorted among sections and groups by `PATCH .../structure/sort`; the structure read shows
it (`site-external-link`). Links inside a section group are not modelled (`parent` is a 400)."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.errors import bad_request
from docsync.emulator.http import Ctx, api_route, created, empty, new_id
from docsync.emulator.routes import sites_tree as tree
from docsync.emulator.routes.sites_views import answer, link_view
from docsync.emulator.store import Row
from docsync.emulator.validate import URL_PATTERN, Fields

BASE = "/v1/orgs/{organizationId}/sites/{siteId}/external-links"
LINK = BASE + "/{siteExternalLinkId}"
FIELDS = ("title", "description", "icon", "url", "parent", "draft", "condition")


def _values(body: Fields, creating: bool) -> dict[str, Any]:
    """The stored fields a create or update body writes (400 naming the field when invalid)."""
    if body.data.get("parent") is not None:
        raise bad_request(
            "parent: the emulator places external links at the site's root only; "
            "leave parent out (or null) and sort the link among the sections"
        )
    values: dict[str, Any] = {}
    if creating or body.has("title"):
        values["title"] = body.string("title", required=True, min_len=2, max_len=128)
    if creating or body.has("url"):
        values["url"] = body.string("url", required=True, max_len=2048, pattern=URL_PATTERN)
    if body.has("description"):
        values["description"] = body.string("description", nullable=True, max_len=256)
    if body.has("icon"):
        values["icon"] = body.string("icon", nullable=True, min_len=1, max_len=50)
    if body.has("condition"):
        values["condition"] = body.string("condition", nullable=True, max_len=1024)
    if body.has("draft"):
        values["draft"] = body.boolean("draft")
    return values


def _location(ctx: Ctx, site: Row, link: Row) -> str:
    return ctx.url(f"/orgs/{site.org}/sites/{site.id}/external-links/{link.id}")


def create_link(ctx: Ctx) -> Response:
    """Last of the site's root level; 400 for a site without sections (a simple structure)."""
    org = ctx.org(Access.CONTENT)["id"]
    site = tree.find_site(ctx, org)
    values = _values(Fields(ctx.body(), FIELDS), creating=True)
    if not tree.has_sections(ctx.tx, site):
        raise bad_request(
            f"Site {site.data['title']!r} has a simple structure (no sections): external links "
            "live among sections; add a section first"
        )
    link_id = new_id()
    data = {"id": link_id, "site": site.id, **values, "createdAt": ctx.now}
    ctx.tx.insert(tree.LINK, link_id, data, org=org, parent=site.id)
    link = tree.find_child(ctx.tx, site, tree.LINK, link_id)
    return created(link_view(link), _location(ctx, site, link))


def update_link(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    link = tree.find_child(ctx.tx, site, tree.LINK, ctx.params["siteExternalLinkId"])
    values = _values(Fields(ctx.body(), FIELDS), creating=False)
    return answer(ctx, link_view(tree.patch(ctx.tx, link, values)))


def delete_link(ctx: Ctx) -> Response:
    """205 when deleted, 204 when there was no such link (a retried delete is done)."""
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    link = ctx.tx.get_row(tree.LINK, ctx.params["siteExternalLinkId"])
    if link is None or link.data.get("site") != site.id:
        return empty(204)
    ctx.tx.delete(tree.LINK, link.id)
    return empty(205)


routes: list[BaseRoute] = [
    api_route("POST", BASE, create_link),
    api_route("PATCH", LINK, update_link),
    api_route("DELETE", LINK, delete_link),
]

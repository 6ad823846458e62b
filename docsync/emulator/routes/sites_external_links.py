"""Site external links: create, update, delete. A link is a leaf of a sections site, at the root
or inside a section group (`parent` on create and PATCH, as production: into a group last, out of
one right after it), sorted among its level's items by `PATCH .../structure/sort`; the structure
read shows it where it stands (`site-external-link`, with `sectionGroup` inside a group)."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.errors import bad_request
from docsync.emulator.http import Ctx, api_route, created, empty, new_id
from docsync.emulator.routes import sites_tree as tree
from docsync.emulator.routes.sites_structure import to_root_after
from docsync.emulator.routes.sites_views import answer, link_view
from docsync.emulator.store import Row
from docsync.emulator.validate import URL_PATTERN, Fields

BASE = "/v1/orgs/{organizationId}/sites/{siteId}/external-links"
LINK = BASE + "/{siteExternalLinkId}"
FIELDS = (
    *("title", "description", "icon", "url", "parent", "draft", "condition"),
    *("localizedTitle", "localizedDescription"),
)


def _values(body: Fields, creating: bool) -> dict[str, Any]:
    """The stored fields a create or update body writes (400 naming the field when invalid);
    `parent` is the caller's (`_group`, `_move`)."""
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
    # production: null clears them on PATCH; on create only the description takes null
    if body.has("localizedTitle"):
        values["localizedTitle"] = body.localized("localizedTitle", 128, nullable=not creating)
    if body.has("localizedDescription"):
        values["localizedDescription"] = body.localized("localizedDescription", 256, nullable=True)
    return values


def _group(ctx: Ctx, site: Row, body: Fields, creating: bool) -> Row | None:
    """The group `parent` names (404 naming the field when the site has none such)."""
    group_id = body.string("parent", nullable=not creating)
    if group_id is None:
        return None
    return tree.find_child(ctx.tx, site, tree.GROUP, group_id, "parent")


def _move(ctx: Ctx, site: Row, link: Row, group: Row | None) -> None:
    """PATCH `parent`: into a group (last), or to the root right after the group it leaves."""
    if group is None:
        if link.parent != site.id:
            left = tree.find_child(ctx.tx, site, tree.GROUP, link.parent or "")
            to_root_after(ctx, site, link, left)
    elif link.parent != group.id:
        ctx.tx.set_parent(tree.LINK, link.id, group.id)


def _location(ctx: Ctx, site: Row, link: Row) -> str:
    return ctx.url(f"/orgs/{site.org}/sites/{site.id}/external-links/{link.id}")


def create_link(ctx: Ctx) -> Response:
    """Last of the site's root level, or of the group `parent` names; 400 for a site without
    sections (a simple structure)."""
    org = ctx.org(Access.CONTENT)["id"]
    site = tree.find_site(ctx, org)
    body = Fields(ctx.body(), FIELDS)
    values = _values(body, creating=True)
    group = _group(ctx, site, body, creating=True)
    if not tree.has_sections(ctx.tx, site):
        raise bad_request(
            f"Site {site.data['title']!r} has a simple structure (no sections): external links "
            "live among sections; add a section first"
        )
    link_id = new_id()
    data = {"id": link_id, "site": site.id, **values, "createdAt": ctx.now}
    parent = group.id if group is not None else site.id
    ctx.tx.insert(tree.LINK, link_id, data, org=org, parent=parent)
    link = tree.find_child(ctx.tx, site, tree.LINK, link_id)
    return created(link_view(link), _location(ctx, site, link))


def update_link(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    link = tree.find_child(ctx.tx, site, tree.LINK, ctx.params["siteExternalLinkId"])
    body = Fields(ctx.body(), FIELDS)
    values = _values(body, creating=False)
    if body.has("parent"):
        _move(ctx, site, link, _group(ctx, site, body, creating=False))
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

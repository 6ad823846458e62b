"""Site spaces: list (`default` filter), add a space, update, delete, move (deprecated)."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.errors import bad_request, conflict
from docsync.emulator.http import Ctx, api_route, empty
from docsync.emulator.paging import paginate, query_bool
from docsync.emulator.routes import sites_tree as tree
from docsync.emulator.routes.sites_structure import place, position
from docsync.emulator.routes.sites_views import answer, site_space_view, site_spaces_views
from docsync.emulator.store import Row
from docsync.emulator.validate import Fields

BASE = "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces"
SITE_SPACE = BASE + "/{siteSpaceId}"


def _site_space(ctx: Ctx, site: Row) -> Row:
    return tree.find_child(ctx.tx, site, tree.SITE_SPACE, ctx.params["siteSpaceId"])


def list_site_spaces(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org()["id"])
    items = site_spaces_views(ctx, site)
    default = query_bool(ctx, "default")
    if default is not None:
        items = [item for item in items if item["default"] is default]
    return paginate(ctx, items)


def _level(ctx: Ctx, site: Row, section_id: str | None) -> Row:
    """Where a new site space goes: the given section, the default section, or the root."""
    if section_id is not None:
        return tree.find_child(ctx.tx, site, tree.SECTION, section_id, "sectionId")
    if not tree.has_sections(ctx.tx, site):
        return site
    default = tree.default_section(ctx.tx, site)
    if default is None:
        raise bad_request(
            f"Site {site.data['title']!r} has section groups but no section to put the space "
            "in: add a section first (POST .../sections) or give sectionId"
        )
    return tree.find_child(ctx.tx, site, tree.SECTION, default)


def add_site_space(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT)["id"]
    site = tree.find_site(ctx, org)
    body = Fields(ctx.body(), ("spaceId", "template", "sectionId", "draft", "pageId", "title"))
    title = body.string("title", min_len=2, max_len=128)
    extra = {"draft": bool(body.boolean("draft")), "pageId": body.string("pageId", nullable=True)}
    if title is not None:
        extra["title"] = title
    space = tree.space_or_new(ctx, org, body, title)
    parent = _level(ctx, site, body.string("sectionId"))
    row = tree.add_site_space(ctx, site, parent, space, extra)
    location = ctx.url(f"/orgs/{org}/sites/{site.id}/site-spaces/{row.id}")
    return answer(ctx, site_space_view(ctx, site, row), 201, location)


def update_site_space(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT)["id"]
    site = tree.find_site(ctx, org)
    row = _site_space(ctx, site)
    body = Fields(ctx.body(), ("path", "condition", "spaceId", "pageId", "hidden", "draft"))
    changes: dict[str, Any] = {}
    if body.has("path"):
        path = body.string("path", min_len=1, max_len=100)
        if path in tree.level_paths(ctx.tx, row.parent or "", excluding=row.id):
            raise conflict(
                "path-taken",
                f"path: another site space of the same level already has path {path!r}",
            )
        changes["path"] = path
    if body.has("condition"):
        changes["condition"] = body.string("condition", nullable=True, max_len=1024)
    for flag in ("hidden", "draft"):
        if body.has(flag):
            changes[flag] = body.boolean(flag)
    if body.has("spaceId"):
        changes["space"] = tree.find_space(ctx, org, body.string("spaceId") or "", "spaceId").id
        changes["pageId"] = None  # production: a new space drops the custom home page
    if body.has("pageId"):
        changes["pageId"] = body.string("pageId", nullable=True)
    row = tree.patch(ctx.tx, row, changes)
    return answer(ctx, site_space_view(ctx, site, row))


def delete_site_space(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    row = ctx.tx.get_row(tree.SITE_SPACE, ctx.params["siteSpaceId"])
    if row is None or row.data.get("site") != site.id:
        return empty(204)
    ctx.tx.delete(tree.SITE_SPACE, row.id)
    tree.settle_defaults(ctx.tx, site)
    return empty(205)


def move_site_space(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    row = _site_space(ctx, site)
    body = Fields(ctx.body(required=False), ("position",))
    side, anchor = position(ctx, site, row, body.obj("position"), "siteSpace", (tree.SITE_SPACE,))
    place(ctx, row, side, anchor)
    return answer(ctx, site_space_view(ctx, site, tree.reload(ctx.tx, row)))


routes: list[BaseRoute] = [
    api_route("GET", BASE, list_site_spaces),
    api_route("POST", BASE, add_site_space),
    api_route("PATCH", SITE_SPACE, update_site_space),
    api_route("DELETE", SITE_SPACE, delete_site_space),
    api_route("POST", SITE_SPACE + "/move", move_site_space),
]

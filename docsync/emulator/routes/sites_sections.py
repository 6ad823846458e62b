"""Site sections: list, create (with its first site space), update, delete, move (deprecated)."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.errors import bad_request, conflict
from docsync.emulator.http import Ctx, api_route, created, empty, new_id
from docsync.emulator.paging import paginate
from docsync.emulator.routes import sites_tree as tree
from docsync.emulator.routes.sites_structure import place, position, to_root_after
from docsync.emulator.routes.sites_views import answer, section_view, section_views
from docsync.emulator.store import Row
from docsync.emulator.validate import Fields

BASE = "/v1/orgs/{organizationId}/sites/{siteId}/sections"
SECTION = BASE + "/{siteSectionId}"
_PATCHABLE = (
    "title",
    "path",
    "defaultSiteSpace",
    "condition",
    "icon",
    "description",
    "siteSectionGroupId",
    "localizedTitle",
    "localizedDescription",
    "draft",
)


def refuse_root_site_spaces(ctx: Ctx, site: Row, what: str) -> None:
    """400 when the site has site spaces at its root: it has either those or sections."""
    if tree.level(ctx.tx, site.id):
        raise bad_request(
            f"Site {site.data['title']!r} has site spaces at its root level, and a site has "
            f"either root site spaces or sections, not both: {what} is refused. Delete the root "
            "site spaces first, then add sections"
        )


def _section(ctx: Ctx, site: Row) -> Row:
    return tree.find_child(ctx.tx, site, tree.SECTION, ctx.params["siteSectionId"])


def list_sections(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org()["id"])
    return paginate(ctx, section_views(ctx, site))


def create_section(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT)["id"]
    site = tree.find_site(ctx, org)
    allowed = ("spaceId", "template", "title", "icon", "siteSectionGroupId", "draft", "pageId")
    body = Fields(ctx.body(), allowed)
    title = body.string("title", nullable=True, min_len=2, max_len=128)
    icon = body.string("icon", nullable=True, max_len=50)
    draft = bool(body.boolean("draft"))
    page_id = body.string("pageId")
    space = tree.space_or_new(ctx, org, body, title)
    group_id = body.string("siteSectionGroupId")
    group = None
    if group_id is not None:
        group = tree.find_child(ctx.tx, site, tree.GROUP, group_id, "siteSectionGroupId")
    refuse_root_site_spaces(ctx, site, "adding a section")
    if title is None:
        space_title = str(space.data.get("title") or "")
        title = space_title if 2 <= len(space_title) <= 128 else "Untitled section"
    path = tree.unique_path(tree.slugify(title, "section"), tree.section_paths(ctx.tx, site))
    section_id = new_id()
    data: dict[str, Any] = {
        "id": section_id,
        "site": site.id,
        "title": title,
        "path": path,
        "icon": icon,
        "description": None,
        "condition": None,
        "defaultSiteSpace": None,
        "draft": draft,
        "createdAt": ctx.now,
    }
    parent = group.id if group else site.id
    ctx.tx.insert(tree.SECTION, section_id, data, org=org, parent=parent)
    section = tree.find_child(ctx.tx, site, tree.SECTION, section_id)
    tree.add_site_space(ctx, site, section, space, {"pageId": page_id, "draft": draft})
    tree.settle_defaults(ctx.tx, site)
    location = ctx.url(f"/orgs/{org}/sites/{site.id}/sections/{section_id}")
    return created(section_view(ctx, site, tree.reload(ctx.tx, section)), location)


def _move_group(ctx: Ctx, site: Row, section: Row, group_id: str | None) -> None:
    """PATCH `siteSectionGroupId`: into a group (last), or to the root right after its group."""
    if group_id is None:
        if section.parent != site.id:
            group = tree.find_child(ctx.tx, site, tree.GROUP, section.parent or "")
            to_root_after(ctx, site, section, group)
        return
    group = tree.find_child(ctx.tx, site, tree.GROUP, group_id, "siteSectionGroupId")
    if section.parent != group.id:
        ctx.tx.set_parent(tree.SECTION, section.id, group.id)


def update_section(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    section = _section(ctx, site)
    body = Fields(ctx.body(), _PATCHABLE)
    changes: dict[str, Any] = {}
    if body.has("title"):
        changes["title"] = body.string("title", min_len=2, max_len=128)
    if body.has("path"):
        path = body.string("path", min_len=1, max_len=100)
        if path in tree.section_paths(ctx.tx, site, excluding=section.id):
            raise conflict(
                "path-taken", f"path: another section of site {site.id!r} already has path {path!r}"
            )
        changes["path"] = path
    if body.has("condition"):
        changes["condition"] = body.string("condition", nullable=True, max_len=1024)
    if body.has("localizedTitle"):
        changes["localizedTitle"] = body.localized("localizedTitle", 128)
    if body.has("localizedDescription"):
        changes["localizedDescription"] = body.localized("localizedDescription", 256)
    if body.has("draft"):
        changes["draft"] = body.boolean("draft")
    if body.has("icon"):
        changes["icon"] = body.string("icon", nullable=True, max_len=50)
    if body.has("description"):
        changes["description"] = body.string("description", nullable=True, max_len=256)
    if body.has("defaultSiteSpace"):
        ss_id = body.string("defaultSiteSpace") or ""
        row = tree.find_child(ctx.tx, site, tree.SITE_SPACE, ss_id, "defaultSiteSpace")
        if row.parent != section.id:
            raise bad_request(
                f"defaultSiteSpace: site space {ss_id!r} is not in section {section.id!r}"
            )
        changes["defaultSiteSpace"] = row.id
    if body.has("siteSectionGroupId"):
        _move_group(ctx, site, section, body.string("siteSectionGroupId", nullable=True))
    section = tree.patch(ctx.tx, section, changes)
    return answer(ctx, section_view(ctx, site, section))


def delete_section(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    row = ctx.tx.get_row(tree.SECTION, ctx.params["siteSectionId"])
    if row is None or row.data.get("site") != site.id:
        return empty(204)
    ctx.tx.delete_tree(tree.SECTION, row.id)
    tree.settle_defaults(ctx.tx, site)
    return empty(205)


def move_section(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    section = _section(ctx, site)
    body = Fields(ctx.body(required=False), ("position",))
    side, anchor = position(
        ctx, site, section, body.obj("position"), "siteSection", (tree.SECTION,)
    )
    place(ctx, section, side, anchor)
    return answer(ctx, section_view(ctx, site, tree.reload(ctx.tx, section)))


routes: list[BaseRoute] = [
    api_route("GET", BASE, list_sections),
    api_route("POST", BASE, create_section),
    api_route("PATCH", SECTION, update_section),
    api_route("DELETE", SECTION, delete_section),
    api_route("POST", SECTION + "/move", move_section),
]

"""Site section groups: list, create, update, delete, add/remove a section, move (deprecated).

A group holds sections, links and other groups (production's `parent` on create and
`parentSectionGroupId` on PATCH nest one group in another); it may be a `draft`, and its PATCH
takes a `localizedTitle`."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.errors import bad_request
from docsync.emulator.http import Ctx, api_route, created, empty, new_id
from docsync.emulator.paging import paginate
from docsync.emulator.routes import sites_tree as tree
from docsync.emulator.routes.sites_sections import refuse_root_site_spaces
from docsync.emulator.routes.sites_structure import place, position, to_root_after
from docsync.emulator.routes.sites_views import answer, group_view
from docsync.emulator.store import Row
from docsync.emulator.validate import Fields

BASE = "/v1/orgs/{organizationId}/sites/{siteId}/section-groups"
GROUP = BASE + "/{siteSectionGroupId}"


def _group(ctx: Ctx, site: Row) -> Row:
    return tree.find_child(ctx.tx, site, tree.GROUP, ctx.params["siteSectionGroupId"])


def _location(ctx: Ctx, site: Row, group: Row) -> str:
    return ctx.url(f"/orgs/{site.org}/sites/{site.id}/section-groups/{group.id}")


def list_groups(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org()["id"])
    return paginate(ctx, [group_view(ctx, site, row) for row in tree.groups(ctx.tx, site)])


def _outer(ctx: Ctx, site: Row, group_id: str | None, field: str) -> Row | None:
    """The group a body field names as the parent of a group (404 when the site has none)."""
    return None if group_id is None else tree.find_child(ctx.tx, site, tree.GROUP, group_id, field)


def _nest(ctx: Ctx, site: Row, group: Row, outer: Row | None) -> None:
    """PATCH `parentSectionGroupId`: into `outer` (last), or to the root right after the root
    group that held it; 400 when `outer` is the group itself or one of its own groups."""
    if outer is None:
        if group.parent != site.id:
            held = tree.find_child(ctx.tx, site, tree.GROUP, group.parent or "")
            to_root_after(ctx, site, group, held)
        return
    inner = [row.id for row in tree.items_under(ctx.tx, group.id) if row.kind == tree.GROUP]
    if outer.id == group.id or outer.id in inner:
        raise bad_request(
            f"parentSectionGroupId: group {outer.id!r} is {group.id!r} itself or inside it: a "
            "group cannot be nested in itself"
        )
    if group.parent != outer.id:
        ctx.tx.set_parent(tree.GROUP, group.id, outer.id)


def create_group(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT)["id"]
    site = tree.find_site(ctx, org)
    body = Fields(ctx.body(), ("title", "icon", "sections", "parent", "draft"))
    title = body.string("title", required=True, min_len=1, max_len=100)
    icon = body.string("icon", nullable=True, max_len=50)
    draft = bool(body.boolean("draft"))
    outer = _outer(ctx, site, body.string("parent"), "parent")
    ids = body.strings("sections") or []
    members = [
        tree.find_child(ctx.tx, site, tree.SECTION, id_, f"sections[{i}]")
        for i, id_ in enumerate(ids)
    ]
    for i, id_ in enumerate(ids):
        if id_ in ids[:i]:
            raise bad_request(f"sections[{i}]: section {id_!r} is listed twice")
    refuse_root_site_spaces(ctx, site, "adding a section group")
    group_id = new_id()
    data: dict[str, Any] = {
        "id": group_id,
        "site": site.id,
        "title": title,
        "icon": icon,
        "draft": draft,
        "createdAt": ctx.now,
    }
    parent = site.id if outer is None else outer.id
    ctx.tx.insert(tree.GROUP, group_id, data, org=org, parent=parent)
    for section in members:
        ctx.tx.set_parent(tree.SECTION, section.id, group_id)
    group = tree.find_child(ctx.tx, site, tree.GROUP, group_id)
    return created(group_view(ctx, site, group), _location(ctx, site, group))


def update_group(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    group = _group(ctx, site)
    fields = ("title", "icon", "localizedTitle", "draft", "parentSectionGroupId")
    body = Fields(ctx.body(), fields)
    changes: dict[str, Any] = {}
    if body.has("title"):
        changes["title"] = body.string("title", min_len=1, max_len=100)
    if body.has("icon"):
        changes["icon"] = body.string("icon", nullable=True, max_len=50)
    if body.has("localizedTitle"):
        changes["localizedTitle"] = body.localized("localizedTitle", 128)
    if body.has("draft"):
        changes["draft"] = body.boolean("draft")
    if body.has("parentSectionGroupId"):
        outer_id = body.string("parentSectionGroupId", nullable=True)
        _nest(ctx, site, group, _outer(ctx, site, outer_id, "parentSectionGroupId"))
    return answer(ctx, group_view(ctx, site, tree.patch(ctx.tx, group, changes)))


def delete_group(ctx: Ctx) -> Response:
    """Its sections, links and groups go to the group's own level, in their order, where the
    group was (production's contract does not say; the emulator keeps them)."""
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    group = ctx.tx.get_row(tree.GROUP, ctx.params["siteSectionGroupId"])
    if group is None or group.data.get("site") != site.id:
        return empty(204)
    level = group.parent or site.id
    order: list[tuple[str, str]] = []
    for item in ctx.tx.rows(tree.ROOT_KINDS, parent=level):
        if item.id != group.id:
            order.append((item.kind, item.id))
            continue
        for member in ctx.tx.rows(tree.GROUP_KINDS, parent=group.id):
            ctx.tx.set_parent(member.kind, member.id, level)
            order.append((member.kind, member.id))
    ctx.tx.delete(tree.GROUP, group.id)
    ctx.tx.reorder(order)
    return empty(205)


def add_section(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    group = _group(ctx, site)
    body = Fields(ctx.body(), ("sectionId",))
    section_id = body.string("sectionId", required=True) or ""
    section = tree.find_child(ctx.tx, site, tree.SECTION, section_id, "sectionId")
    if section.parent != group.id:
        ctx.tx.set_parent(tree.SECTION, section.id, group.id)
    return created(group_view(ctx, site, group), _location(ctx, site, group))


def remove_section(ctx: Ctx) -> Response:
    """The section goes to the root level right after the group; 204 when it was not in it."""
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    group = _group(ctx, site)
    section = ctx.tx.get_row(tree.SECTION, ctx.params["siteSectionId"])
    if section is None or section.parent != group.id:
        return empty(204)
    to_root_after(ctx, site, section, group)
    return empty(205)


def move_group(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    group = _group(ctx, site)
    body = Fields(ctx.body(required=False), ("position",))
    side, anchor = position(ctx, site, group, body.obj("position"), "id", tree.ROOT_KINDS)
    place(ctx, group, side, anchor)
    return answer(ctx, group_view(ctx, site, tree.reload(ctx.tx, group)))


routes: list[BaseRoute] = [
    api_route("GET", BASE, list_groups),
    api_route("POST", BASE, create_group),
    api_route("PATCH", GROUP, update_group),
    api_route("DELETE", GROUP, delete_group),
    # The description's membership endpoints (§2.5); production moves a section with
    # PATCH .../sections/{id} {siteSectionGroupId}.
    api_route("POST", GROUP + "/sections", add_section, description_only=True),
    api_route("DELETE", GROUP + "/sections/{siteSectionId}", remove_section, description_only=True),
    api_route("POST", GROUP + "/move", move_group),
]

"""Site section groups: list, create, update, delete, add/remove a section, move (deprecated).

A group holds sections, links and other groups (production's `parent` on create and
`parentSectionGroupId` on PATCH nest one group in another); it may be a `draft`, and its PATCH
takes a `localizedTitle`."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator import site_tree as tree
from docsync.emulator.auth import Access
from docsync.emulator.body import BOTH, At, Body, Flag, Place, Shaped, Text
from docsync.emulator.errors import bad_request
from docsync.emulator.http import Ctx, new_id
from docsync.emulator.resource import Resource
from docsync.emulator.routes.sites.sections import refuse_root_site_spaces
from docsync.emulator.rules import SITE_PART, Entry
from docsync.emulator.scopes import IN_SITE, Within
from docsync.emulator.shapes import Localized
from docsync.emulator.site_items import ItemRules, group_named, mover, of_item
from docsync.emulator.site_order import to_root_after
from docsync.emulator.site_views import group_view, section_view
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields

BASE = "/v1/orgs/{organizationId}/sites/{siteId}/section-groups"


def _outer(at: At, group_id: str | None, name: str) -> Row | None:
    """The group an update nests a group in; 400 when it is the group itself or one of its
    own groups (a group cannot be nested in itself)."""
    outer = group_named(at, group_id, name)
    assert at.row is not None
    if outer is None:
        return None
    inner = [row.id for row in tree.items_under(at.ctx.tx, at.row.id) if row.kind == tree.GROUP]
    if outer.id == at.row.id or outer.id in inner:
        raise bad_request(
            f"{name}: group {outer.id!r} is {at.row.id!r} itself or inside it: a "
            "group cannot be nested in itself"
        )
    return outer


def create_group(ctx: Ctx) -> tuple[Place, Row]:
    """A new group (production's `parent` nests it in another), taking `sections` with it."""
    org = ctx.org(Access.CONTENT)["id"]
    site = tree.find_site(ctx, org)
    body = Fields(ctx.body(), ("title", "icon", "sections", "parent", "draft"))
    title = body.string("title", required=True, min_len=1, max_len=100)
    icon = body.string("icon", nullable=True, max_len=50)
    draft = bool(body.boolean("draft"))
    outer = group_named(At(ctx, Place(org, site)), body.string("parent"), "parent")
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
    return Place(org, site), tree.find_child(ctx.tx, site, tree.GROUP, group_id)


class GroupRules(ItemRules):
    group_field = "parentSectionGroupId"

    def items(self, ctx: Ctx, site: Row) -> list[Doc]:
        return [group_view(ctx, site, row) for row in tree.groups(ctx.tx, site)]

    def serve_create(self, ctx: Ctx, res: Entry) -> Response:
        return self.answer_created(ctx, res, *create_group(ctx))

    def remove(self, ctx: Ctx, place: Place, row: Row) -> bool:
        """Its sections, links and groups go to the group's own level, in their order, where
        the group was (production's contract does not say; the emulator keeps them)."""
        level = row.parent or place.site_row.id
        order: list[tuple[str, str]] = []
        for item in ctx.tx.rows(tree.ROOT_KINDS, parent=level):
            if item.id != row.id:
                order.append((item.kind, item.id))
                continue
            for member in ctx.tx.rows(tree.GROUP_KINDS, parent=row.id):
                ctx.tx.set_parent(member.kind, member.id, level)
                order.append((member.kind, member.id))
        ctx.tx.delete(tree.GROUP, row.id)
        ctx.tx.reorder(order)
        return True


GROUPS = Resource(
    tree.GROUP,
    BASE,
    "siteSectionGroupId",
    of_item(group_view),
    missing="no section group {id!r} in site {site!r}",
    scope=IN_SITE,
    body=Body(
        (
            Text("title", min_len=1, max_len=100),
            Text("icon", nullable=BOTH, max_len=50),
            Shaped("localizedTitle", shape=Localized(128)),
            Flag("draft"),
            Text("parentSectionGroupId", nullable=BOTH, stored=False, resolve=_outer),
        )
    ),
    rules=GroupRules(),
    operations=("list", "create", "update", "delete"),
    access=SITE_PART,
    location="/orgs/{org}/sites/{site}/section-groups/{id}",
)


def _add_section(ctx: Ctx, place: Place, group: Row) -> None:
    body = Fields(ctx.body(), ("sectionId",))
    section_id = body.string("sectionId", required=True) or ""
    section = tree.find_child(ctx.tx, place.site_row, tree.SECTION, section_id, "sectionId")
    if section.parent != group.id:
        ctx.tx.set_parent(tree.SECTION, section.id, group.id)


class GroupSectionRules(ItemRules):
    def remove(self, ctx: Ctx, place: Place, row: Row) -> bool:
        """The section goes to the root level, right after the group."""
        to_root_after(ctx, place.site_row, row, place.holder)
        return True


#: The description's membership endpoints (§2.5): a group's sections, added (an action of the
#: group, answered as a create of it) and removed (204 when it was not in it); production moves
#: a section with PATCH .../sections/{id} {siteSectionGroupId}.
GROUP_SECTIONS = Resource(
    tree.SECTION,
    GROUPS.item_at + "/sections",
    "siteSectionId",
    of_item(section_view),
    scope=Within(GROUPS),
    rules=GroupSectionRules(),
    operations=("delete",),
    access=SITE_PART,
    description_only=True,
)

routes: list[BaseRoute] = [
    *GROUPS.routes(),
    GROUPS.action("sections", _add_section, answer="created", description_only=True),
    *GROUP_SECTIONS.routes(),
    GROUPS.action("move", mover("id", tree.ROOT_KINDS)),
]

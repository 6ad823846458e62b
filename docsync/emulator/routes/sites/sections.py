"""Site sections: list, create (with its first site space), update, delete, move (deprecated)."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator import site_tree as tree
from docsync.emulator.auth import Access
from docsync.emulator.body import BOTH, At, Body, Flag, Shaped, Text
from docsync.emulator.errors import bad_request, forbidden
from docsync.emulator.http import Ctx, created, new_id
from docsync.emulator.resource import Resource
from docsync.emulator.rules import SITE_PART, Entry
from docsync.emulator.scopes import IN_SITE
from docsync.emulator.shapes import Localized
from docsync.emulator.site_items import ItemRules, group_named, mover, of_item, path_free
from docsync.emulator.site_views import section_view, section_views
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields

BASE = "/v1/orgs/{organizationId}/sites/{siteId}/sections"
SECTION_HOLDER = "another section of site {site!r}"


def refuse_root_site_spaces(ctx: Ctx, site: Row, what: str) -> None:
    """400 when the site has site spaces at its root: it has either those or sections."""
    if tree.level(ctx.tx, site.id):
        raise bad_request(
            f"Site {site.data['title']!r} has site spaces at its root level, and a site has "
            f"either root site spaces or sections, not both: {what} is refused. Add a section "
            "first (it turns the root site spaces into the first section)"
        )


def enable_sections(ctx: Ctx, site: Row) -> None:
    """Production's "enabling sections" (admins only): a site's root site spaces become its
    first section, titled after the default one, which becomes the default section."""
    level = tree.level(ctx.tx, site.id)
    if not level:
        return
    if ctx.role != "admin":
        raise forbidden(
            "Forbidden: enabling sections requires the admin role (the site's root site spaces "
            f"become its first section); you are {ctx.role or 'guest'}"
        )
    default = tree.default_site_space(ctx.tx, site)
    first = next(row for row in level if row.id == default)
    space = ctx.tx.get_row("space", str(first.data["space"]))
    title = str(first.data.get("title") or (space.data["title"] if space else ""))
    _first_section(ctx, site, title, level, default)


def wrapper_section(ctx: Ctx, site: Row) -> Row:
    """Production as it answers (docs/emulator.md, `wrapper-section`): a space added to a site
    without sections lands in a section production makes, named after the site, which takes
    the root site spaces the site had; it becomes the default section."""
    level = tree.level(ctx.tx, site.id)
    default = tree.default_site_space(ctx.tx, site)
    title = str(site.data.get("title") or "")
    return _first_section(ctx, site, title, level, default)


def _first_section(ctx: Ctx, site: Row, title: str, level: list[Row], default: str | None) -> Row:
    """The site's first section, holding its root site spaces (`level`), default as before."""
    section = insert_section(ctx, site, site.id, title if 2 <= len(title) <= 128 else "", {})
    for row in level:
        ctx.tx.set_parent(tree.SITE_SPACE, row.id, section.id)
        ctx.tx.update(tree.SITE_SPACE, row.id, {**row.data, "section": section.id})
    tree.patch(ctx.tx, section, {"defaultSiteSpace": default})
    ctx.tx.reorder(
        [(section.kind, section.id)]
        + [(row.kind, row.id) for row in tree.root_items(ctx.tx, site) if row.id != section.id]
    )
    tree.patch(ctx.tx, site, {"defaultSection": section.id})
    return tree.reload(ctx.tx, section)


def insert_section(ctx: Ctx, site: Row, parent: str, title: str, extra: Doc) -> Row:
    """A new section last of `parent` (the site or a group), its path unique in the site."""
    title = title or "Untitled section"
    path = tree.unique_path(tree.slugify(title, "section"), tree.section_paths(ctx.tx, site))
    section_id = new_id()
    data: dict[str, Any] = {
        "id": section_id,
        "site": site.id,
        "title": title,
        "path": path,
        "icon": None,
        "description": None,
        "condition": None,
        "defaultSiteSpace": None,
        "draft": False,
        "createdAt": ctx.now,
        **extra,
    }
    ctx.tx.insert(tree.SECTION, section_id, data, org=site.org, parent=parent)
    return tree.find_child(ctx.tx, site, tree.SECTION, section_id)


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
    enable_sections(ctx, site)
    if title is None:
        space_title = str(space.data.get("title") or "")
        title = space_title if 2 <= len(space_title) <= 128 else ""
    parent = group.id if group else site.id
    section = insert_section(ctx, site, parent, title, {"icon": icon, "draft": draft})
    tree.add_site_space(ctx, site, section, space, {"pageId": page_id, "draft": draft})
    tree.settle_defaults(ctx.tx, site)
    location = ctx.url(f"/orgs/{org}/sites/{site.id}/sections/{section.id}")
    return created(section_view(ctx, site, tree.reload(ctx.tx, section)), location)


def _site_space_of(at: At, ss_id: str | None, name: str) -> str:
    """A section's `defaultSiteSpace`: one of its own site spaces."""
    assert at.row is not None
    row = tree.find_child(at.ctx.tx, at.place.site_row, tree.SITE_SPACE, ss_id or "", name)
    if row.parent != at.row.id:
        raise bad_request(f"{name}: site space {ss_id!r} is not in section {at.row.id!r}")
    return row.id


def _other_paths(at: At) -> list[str]:
    assert at.row is not None
    return tree.section_paths(at.ctx.tx, at.place.site_row, excluding=at.row.id)


class SectionRules(ItemRules):
    settles = True
    group_field = "siteSectionGroupId"

    def items(self, ctx: Ctx, site: Row) -> list[Doc]:
        return section_views(ctx, site)

    def serve_create(self, ctx: Ctx, res: Entry) -> Response:
        return create_section(ctx)


SECTIONS = Resource(
    tree.SECTION,
    BASE,
    "siteSectionId",
    of_item(section_view),
    missing="no section {id!r} in site {site!r}",
    scope=IN_SITE,
    body=Body(
        (
            Text("title", min_len=2, max_len=128),
            Text("path", min_len=1, max_len=100, resolve=path_free(_other_paths, SECTION_HOLDER)),
            Text("condition", nullable=BOTH, max_len=1024),
            Shaped("localizedTitle", shape=Localized(128)),
            Shaped("localizedDescription", shape=Localized(256)),
            Flag("draft"),
            Text("icon", nullable=BOTH, max_len=50),
            Text("description", nullable=BOTH, max_len=256),
            Text("defaultSiteSpace", resolve=_site_space_of),
            Text("siteSectionGroupId", nullable=BOTH, stored=False, resolve=group_named),
        )
    ),
    rules=SectionRules(),
    operations=("list", "create", "update", "delete"),
    access=SITE_PART,
)

routes: list[BaseRoute] = [
    *SECTIONS.routes(),
    SECTIONS.action("move", mover("siteSection", (tree.SECTION,))),
]

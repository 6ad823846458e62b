"""Site spaces: list (`default` filter), add a space, update, delete, move (deprecated)."""

from __future__ import annotations

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator import site_tree as tree
from docsync.emulator.auth import Access
from docsync.emulator.body import BOTH, At, Body, Flag, Place, Text
from docsync.emulator.http import Ctx
from docsync.emulator.paging import query_bool
from docsync.emulator.resource import Resource
from docsync.emulator.routes.sites.sections import wrapper_section
from docsync.emulator.rules import SITE_PART, Entry
from docsync.emulator.scopes import IN_SITE
from docsync.emulator.site_items import ItemRules, mover, of_item, path_free
from docsync.emulator.site_views import answer, site_space_view, site_spaces_views
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields

BASE = "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces"
LEVEL_HOLDER = "another site space of the same level"


def _level(ctx: Ctx, site: Row, section_id: str | None) -> Row:
    """Where a new site space goes: the given section, the default section, or the root when
    the site has no section (production's words, a site of section groups only included). As
    production answers, a site with nothing but root site spaces gets a section named after it
    instead (`sections.wrapper_section`)."""
    if section_id is not None:
        return tree.find_child(ctx.tx, site, tree.SECTION, section_id, "sectionId")
    default = tree.default_section(ctx.tx, site)
    if default is not None:
        return tree.find_child(ctx.tx, site, tree.SECTION, default)
    if ctx.production and not tree.root_items(ctx.tx, site):
        return wrapper_section(ctx, site)
    return site


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


def _level_paths(at: At) -> list[str]:
    assert at.row is not None
    return tree.level_paths(at.ctx.tx, at.row.parent or "", excluding=at.row.id)


def _space_of(at: At, space_id: str | None, name: str) -> str:
    return tree.find_space(at.ctx, at.place.org, space_id or "", name).id


class SiteSpaceRules(ItemRules):
    settles = True

    def items(self, ctx: Ctx, site: Row) -> list[Doc]:
        items = site_spaces_views(ctx, site)
        default = query_bool(ctx, "default")
        if default is None:
            return items
        return [item for item in items if item["default"] is default]

    def serve_create(self, ctx: Ctx, res: Entry) -> Response:
        return add_site_space(ctx)

    def change(self, ctx: Ctx, res: Entry, place: Place, row: Row, values: Doc) -> Row:
        if "spaceId" in values:  # production: a new space drops the custom home page
            values = {"pageId": None, **values}
        return super().change(ctx, res, place, row, values)


SITE_SPACES = Resource(
    tree.SITE_SPACE,
    BASE,
    "siteSpaceId",
    of_item(site_space_view),
    missing="no site space {id!r} in site {site!r}",
    scope=IN_SITE,
    body=Body(
        (
            Text("path", min_len=1, max_len=100, resolve=path_free(_level_paths, LEVEL_HOLDER)),
            Text("condition", nullable=BOTH, max_len=1024),
            Flag("hidden"),
            Flag("draft"),
            Text("spaceId", store_as="space", resolve=_space_of),
            Text("pageId", nullable=BOTH),
        )
    ),
    rules=SiteSpaceRules(),
    operations=("list", "create", "update", "delete"),
    access=SITE_PART,
)

routes: list[BaseRoute] = [
    *SITE_SPACES.routes(),
    SITE_SPACES.action("move", mover("siteSpace", (tree.SITE_SPACE,))),
]

"""Sites: list, create, get, update, delete, publish, unpublish, published profile.

Choices the API description leaves open are documented in docs/emulator-sites.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from starlette.routing import BaseRoute

from docsync.emulator import git_sync
from docsync.emulator import site_tree as tree
from docsync.emulator.body import (
    BOTH,
    CREATE,
    UPDATE,
    At,
    Body,
    Choice,
    Place,
    Shaped,
    Text,
    Texts,
    stored,
)
from docsync.emulator.customization import effective, site_settings
from docsync.emulator.errors import bad_request, conflict
from docsync.emulator.http import Ctx
from docsync.emulator.paging import query_bool
from docsync.emulator.refs import site_is_default_content
from docsync.emulator.resource import Resource
from docsync.emulator.rules import Entry, Rules
from docsync.emulator.shapes import Bool, Obj
from docsync.emulator.site_views import site_view, site_views, structure_view
from docsync.emulator.snapshot import Loading
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import ROLES

SITE_TYPES = ("basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium")
VISIBILITIES = ("public", "unlisted", "share-link", "visitor-auth")
AGENTS_CONTEXT = ("excluded", "included")
PROXY_PATTERN = r"^([A-Za-z0-9_-]+[.])*[A-Za-z0-9_-]+[.][a-zA-Z]{2,}(/[A-Za-z0-9_-]+)+$"
BASE = "/v1/orgs/{organizationId}/sites"


def _spaces(at: At, ids: list[str] | None, name: str) -> list[Row]:
    return [
        tree.find_space(at.ctx, at.place.org, space, f"{name}[{i}]")
        for i, space in enumerate(ids or [])
    ]


def _styleguide(at: At, value: str | None, name: str) -> str | None:
    """A style guide space of the organization (production's Space `type: styleguide`, which
    the seed gives: createSpace makes none), or null, which detaches the site's."""
    if value is None:
        return None
    space = tree.find_space(at.ctx, at.place.org, value, name)
    if space.data.get("type") != "styleguide":
        raise bad_request(
            f"{name}: space {value!r} is not a style guide (production attaches a space "
            "holding a writing style guide, `type: styleguide`)"
        )
    return space.id


def _section_of(at: At, value: str | None, name: str) -> str:
    assert at.row is not None
    return tree.find_child(at.ctx.tx, at.row, tree.SECTION, value or "", name).id


def _default_site_space(ctx: Ctx, site: Row, id_: str) -> None:
    """PATCH site `defaultSiteSpace`: the root default, or the default section's default."""
    row = tree.find_child(ctx.tx, site, tree.SITE_SPACE, id_, "defaultSiteSpace")
    if not tree.has_sections(ctx.tx, site):
        tree.patch(ctx.tx, site, {"defaultSiteSpace": row.id})
        return
    section = tree.default_section(ctx.tx, site)
    if section is None or row.parent != section:
        raise bad_request(
            f"defaultSiteSpace: site space {row.id!r} is in section {row.parent!r}, not in the "
            f"default section {section!r}; set it with PATCH .../sections/{row.parent} "
            "{defaultSiteSpace} instead"
        )
    tree.patch(
        ctx.tx, tree.find_child(ctx.tx, site, tree.SECTION, section), {"defaultSiteSpace": row.id}
    )


class SiteRules(Rules):
    def filter(self, ctx: Ctx, place: Place, rows: list[Row]) -> list[Row]:
        space = ctx.query.get("space")
        if space is not None:
            rows = [
                r
                for r in rows
                if any(s.data["space"] == space for s in tree.all_site_spaces(ctx.tx, r))
            ]
        title = ctx.query.get("title")
        if title is not None:
            rows = [r for r in rows if title.lower() in str(r.data["title"]).lower()]
        published = query_bool(ctx, "published")
        if published is not None:
            rows = [r for r in rows if bool(r.data.get("published")) is published]
        types = ctx.query.getlist("type")
        for value in types:
            if value not in SITE_TYPES:
                raise bad_request(f"type: must be one of {', '.join(SITE_TYPES)}, got {value!r}")
        return [r for r in rows if r.data["type"] in types] if types else rows

    def render(self, ctx: Ctx, res: Entry, page: Sequence[Row]) -> list[Doc]:
        return site_views(ctx, page)

    def created(self, ctx: Ctx, place: Place, row: Row, values: Doc) -> None:
        for space in values["spaces"]:
            tree.add_site_space(ctx, row, row, space)

    def change(self, ctx: Ctx, res: Entry, place: Place, row: Row, values: Doc) -> Row:
        site = tree.patch(ctx.tx, row, stored(res.body, values))
        if "defaultSiteSpace" in values:
            _default_site_space(ctx, site, values["defaultSiteSpace"] or "")
        return tree.reload(ctx.tx, site)

    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
        """A site as answered: its proxy's origin as written (its target is the emulator's);
        its defaults are its structure's (read apart)."""
        data = super().seeded(at, res, place, item) or {}
        proxy = item.get("proxy")
        data["proxy"] = proxy.get("origin") if isinstance(proxy, dict) else None
        return data

    def remove(self, ctx: Ctx, place: Place, row: Row) -> bool:
        if site_is_default_content(ctx.tx, place.org, row.id):
            raise conflict(
                "site-is-default-content",
                f"Site {row.data['title']!r} is the defaultContent of organization "
                f"{place.org!r}: change the organization's defaultContent first, then delete "
                "the site",
            )
        git_sync.drop_on(ctx.tx, row.id)  # with the space installations it manages
        ctx.tx.delete_tree(tree.SITE, row.id)
        return True


SITES = Resource(
    tree.SITE,
    BASE,
    "siteId",
    site_view,
    missing="Site {id!r} not found in organization {org!r}",
    body=Body(
        (
            Choice("type", ops=CREATE, values=SITE_TYPES, default="basic"),
            Text("title", min_len=2, max_len=128, default="Untitled site"),
            Choice("visibility", values=VISIBILITIES, default="public"),
            Texts("spaces", ops=CREATE, stored=False, resolve=_spaces, default=()),
            Text("basename", ops=UPDATE, min_len=1, max_len=100),
            # the description's alone: production's updateSiteById has no such field
            Choice("agentsContext", ops=UPDATE, values=AGENTS_CONTEXT, description_only=True),
            Choice("defaultLevel", ops=UPDATE, values=(*ROLES, "inherit"), nullable=BOTH),
            Shaped("adaptiveContent", ops=UPDATE, shape=Obj({"enabled": Bool()}, ("enabled",))),
            Text("proxy", ops=UPDATE, nullable=BOTH, max_len=512, pattern=PROXY_PATTERN),
            Text("styleguide", ops=UPDATE, nullable=BOTH, resolve=_styleguide),
            Text("defaultSiteSection", ops=UPDATE, store_as="defaultSection", resolve=_section_of),
            Text("defaultSiteSpace", ops=UPDATE, stored=False),
        ),
        optional_on_create=True,
    ),
    rules=SiteRules(),
    location="/orgs/{org}/sites/{id}",
    id_in_data=True,
    defaults={
        "published": False,
        "agentsContext": "excluded",
        "defaultLevel": "inherit",
        "defaultSection": None,
        "defaultSiteSpace": None,
    },
    snapshot=("published",),
)


def _publish(published: bool) -> Callable[[Ctx, Place, Row], None]:
    def apply(ctx: Ctx, place: Place, row: Row) -> None:
        tree.patch(ctx.tx, row, {"published": published})

    return apply


def _published(ctx: Ctx, site: Row) -> Doc:
    """Production's published content of a site: the site, its structure, its customization and
    each site space's."""
    site_spaces = tree.all_site_spaces(ctx.tx, site)
    return {
        "object": "published-content-site",
        "site": site_view(ctx, site),
        "structure": structure_view(ctx, site),
        "customizations": {
            "site": site_settings(ctx, site),
            "siteSpaces": {row.id: effective(ctx, site, row) for row in site_spaces},
        },
        "scripts": [],
    }


routes: list[BaseRoute] = [
    *SITES.routes(),
    SITES.action("publish", _publish(True)),
    SITES.action("unpublish", _publish(False)),
    SITES.read("published", _published),
]

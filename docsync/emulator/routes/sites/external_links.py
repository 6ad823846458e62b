"""Site external links: create, update, delete. A link is a leaf of a sections site, at the root
or inside a section group (`parent` on create and PATCH, as production: into a group last, out of
one right after it), sorted among its level's items by `PATCH .../structure/sort`; the structure
read shows it where it stands (`site-external-link`, with `sectionGroup` inside a group)."""

from __future__ import annotations

from starlette.routing import BaseRoute

from docsync.emulator import site_tree as tree
from docsync.emulator.body import (
    BOTH,
    CREATE,
    UPDATE,
    Body,
    Flag,
    Place,
    Shaped,
    Text,
)
from docsync.emulator.errors import bad_request
from docsync.emulator.http import Ctx
from docsync.emulator.resource import Resource
from docsync.emulator.rules import SITE_PART
from docsync.emulator.scopes import IN_SITE
from docsync.emulator.shapes import Localized
from docsync.emulator.site_items import ItemRules, group_named
from docsync.emulator.site_views import link_view
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import URL_PATTERN

BASE = "/v1/orgs/{organizationId}/sites/{siteId}/external-links"


class LinkRules(ItemRules):
    group_field = "parent"

    def fresh(self, ctx: Ctx, place: Place, values: Doc) -> Doc:
        """400 for a site of root site spaces: production's links "require a section-based
        site structure"; an empty site takes one, as it takes a group."""
        if tree.level(ctx.tx, place.site_row.id):
            raise bad_request(
                f"Site {place.site_row.data['title']!r} has site spaces at its root level: "
                "external links need a section-based structure; add a section first (it turns "
                "the root site spaces into the first section)"
            )
        return {"site": place.site_row.id}

    def parent(self, ctx: Ctx, place: Place, values: Doc) -> str | None:
        """Last of the site's root level, or of the group `parent` names."""
        group = values.get("parent")
        return group.id if isinstance(group, Row) else place.parent


LINKS = Resource(
    tree.LINK,
    BASE,
    "siteExternalLinkId",
    lambda ctx, row: link_view(row),
    missing="no external link {id!r} in site {site!r}",
    scope=IN_SITE,
    body=Body(
        (
            Text("title", required=CREATE, min_len=2, max_len=128),
            Text("url", required=CREATE, max_len=2048, pattern=URL_PATTERN),
            Text("description", nullable=BOTH, max_len=256),
            Text("icon", nullable=BOTH, max_len=50),
            Text("condition", nullable=BOTH, max_len=1024),
            Flag("draft"),
            # production: null clears them on PATCH; on create only the description takes null
            Shaped("localizedTitle", shape=Localized(128), nullable=UPDATE),
            Shaped("localizedDescription", shape=Localized(256), nullable=BOTH),
            Text("parent", nullable=UPDATE, stored=False, resolve=group_named),
        )
    ),
    rules=LinkRules(),
    operations=("create", "update", "delete"),
    access=SITE_PART,
    location="/orgs/{org}/sites/{site}/external-links/{id}",
    id_in_data=True,
)

routes: list[BaseRoute] = LINKS.routes()

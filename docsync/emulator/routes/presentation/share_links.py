"""Site share links: list (search by name or key), create, rename or (de)activate, delete.

Rows (id / org / parent): site-share-link (id / org / site), so deleting the site deletes its
links. Each link has a random `key`, the secret of its published URL
(`<published site>/~/share/<key>`): whoever holds the URL reads the site while the link is
active. Production answers the URL in every view of the link (`urls.published`).
"""

from __future__ import annotations

import secrets

from starlette.routing import BaseRoute

from docsync.emulator import site_tree as tree
from docsync.emulator.body import CREATE, UPDATE, Body, Flag, Place, Text
from docsync.emulator.errors import bad_request
from docsync.emulator.http import Ctx
from docsync.emulator.resource import Resource
from docsync.emulator.rules import SITE_PART, Entry, Rules
from docsync.emulator.scopes import IN_SITE
from docsync.emulator.site_views import published_url
from docsync.emulator.snapshot import Loading
from docsync.emulator.store import Doc, Row

BASE = "/v1/orgs/{organizationId}/sites/{siteId}/share-links"
KIND = "site-share-link"
#: production's ShareLinkName
NAME_MAX = 50


def _view(ctx: Ctx, row: Row) -> Doc:
    data = row.data
    site = ctx.tx.get_row(tree.SITE, str(row.parent))
    assert site is not None
    return {
        "object": "share-link",
        "id": row.id,
        "createdAt": data["createdAt"],
        "name": data["name"],
        "active": data["active"],
        "urls": {"published": f"{published_url(ctx, site)}/~/share/{data['key']}"},
    }


class ShareLinkRules(Rules):
    def filter(self, ctx: Ctx, place: Place, rows: list[Row]) -> list[Row]:
        search = (ctx.query.get("search") or "").lower()
        return [
            row
            for row in rows
            if search in str(row.data["name"]).lower() or search == str(row.data["key"]).lower()
        ]

    def fresh(self, ctx: Ctx, place: Place, values: Doc) -> Doc:
        return {"key": secrets.token_urlsafe(24)}

    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
        """A link as answered, with a key of its own: a snapshot never holds one."""
        return {**(super().seeded(at, res, place, item) or {}), "key": secrets.token_urlsafe(24)}

    def change(self, ctx: Ctx, res: Entry, place: Place, row: Row, values: Doc) -> Row:
        if not values:
            raise bad_request("body: write `active`, `name` or both")
        return super().change(ctx, res, place, row, values)


SHARE_LINKS = Resource(
    KIND,
    BASE,
    "shareLinkId",
    _view,
    missing="No share link {id!r} in site {site!r}",
    scope=IN_SITE,
    body=Body(
        (
            Text("name", required=CREATE, max_len=NAME_MAX),
            Flag("active", ops=UPDATE),
        )
    ),
    rules=ShareLinkRules(),
    operations=("list", "create", "update", "delete"),
    access=SITE_PART,
    location="/orgs/{org}/sites/{site}/share-links/{id}",
    id_in_data=True,
    defaults={"active": True},
    snapshot=(),
)

routes: list[BaseRoute] = SHARE_LINKS.routes()

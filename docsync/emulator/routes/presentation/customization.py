"""A site's customization: read (production's defaults until written) and replaced as a whole;
a site space's override of it: read as the effective settings, changed, removed.

A site's settings are stored on its row (`customization`), so they go with the site. `PUT` takes
production's SiteCustomizationSettingsInput, checked whole (customization_shapes.SETTINGS: every
required group present, every value as production declares it), 400 naming the field; it is kept
as checked (a field production does not name dropped) and answered back. The published-content
answer carries the same object.

A site space's override is stored on the site space row (`customization`, only the fields
overridden), so it goes with its site space. GET answers the effective settings, as production
documents ("the effective settings with site-level defaults where no override is set"): the
site's object with the override on top, so what is overridden and what is inherited look alike.
PATCH takes production's override body (the fields of each group, null clearing a field's
override) and answers the effective settings; DELETE answers 205 when there was an override and
204 when not. `unmasked` (deprecated) is read as a boolean and changes nothing: the emulator's
customization masks nothing. How the two combine is `docsync.emulator.customization`'s.
"""

from __future__ import annotations

from typing import Any

from starlette.routing import BaseRoute

from docsync.emulator import site_tree as tree
from docsync.emulator.body import Body
from docsync.emulator.customization import effective, override_of, site_settings, with_override
from docsync.emulator.customization_shapes import OVERRIDE, PRODUCTION_SETTINGS, SETTINGS
from docsync.emulator.http import Ctx
from docsync.emulator.paging import query_bool
from docsync.emulator.routes.sites.site_spaces import SITE_SPACES
from docsync.emulator.routes.sites.sites import SITES
from docsync.emulator.singleton import Held, HeldOp, Singleton
from docsync.emulator.snapshot import Loading, obj
from docsync.emulator.store import Doc, Row


class SiteSettings(Held):
    def asked(self, ctx: Ctx) -> None:
        query_bool(ctx, "unmasked")


class Override(SiteSettings):
    """Only what differs from its site's, merged field by field."""

    def written(
        self, ctx: Ctx, one: Singleton, holder: Row, current: Doc | None, values: Doc, op: HeldOp
    ) -> Doc | None:
        return with_override(current or {}, values) or None

    def seeded(
        self, at: Loading, one: Singleton, params: dict[str, str], answer: Any
    ) -> Doc | None:
        """A site space's effective customization as read: its override is what differs from
        its site's (read first: a shorter path)."""
        site = at.row(tree.SITE, params["siteId"])
        base = site.data.get("customization") if site is not None else None
        override = override_of(obj(answer), base if isinstance(base, dict) else {})
        return {"customization": override or None}


def _space_view(ctx: Ctx, site_space: Row, value: Doc | None) -> Doc:
    site = ctx.tx.get_row(tree.SITE, str(site_space.data["site"]))
    assert site is not None
    return effective(ctx, site, site_space)


#: production's settings, and in production's mode what it takes beyond its document
CUSTOMIZATION = Singleton(
    SITES,
    "customization",
    lambda ctx, site, value: site_settings(ctx, site),
    stored_in="customization",
    body=Body(shape=SETTINGS, production_shape=PRODUCTION_SETTINGS),
    rules=SiteSettings(),
    stamps=("updatedAt",),
)
SPACE_CUSTOMIZATION = Singleton(
    SITE_SPACES,
    "customization",
    _space_view,
    stored_in="customization",
    body=Body(shape=OVERRIDE),
    rules=Override(),
    operations=("get", "patch", "delete"),
)

routes: list[BaseRoute] = CUSTOMIZATION.routes() + SPACE_CUSTOMIZATION.routes()

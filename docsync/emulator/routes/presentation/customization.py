"""A site's customization: read (production's defaults until written) and replace as a whole.

Stored on the site row (`customization`), so it goes with the site. `PUT` takes production's
SiteCustomizationSettingsInput, checked whole (customization_shapes.SETTINGS: every required group
present, every value as production declares it), 400 naming the field; it is kept as checked (a
field production does not name dropped) and answered back. The published-content answer carries
the same object.

A site space's override (`.../site-spaces/{siteSpaceId}/customization`) is stored on the site
space row (`customization`, only the fields overridden), so it goes with its site space. GET
answers the effective settings, as production documents ("the effective settings with site-level
defaults where no override is set"): the site's object with the override on top, so what is
overridden and what is inherited look alike. PATCH takes production's override body (the fields
of each group, null clearing a field's override) and answers the effective settings; DELETE
answers 205 when there was an override and 204 when not. `unmasked` (deprecated) is read as a
boolean and changes nothing: the emulator's customization masks nothing.
"""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator import site_tree as tree
from docsync.emulator.auth import Access
from docsync.emulator.customization import default_customization
from docsync.emulator.customization_shapes import (
    MERGED,
    OVERRIDE,
    PRODUCTION_SETTINGS,
    SETTINGS,
)
from docsync.emulator.http import Ctx, api_route, empty, ok
from docsync.emulator.paging import query_bool
from docsync.emulator.snapshot import Loading, obj
from docsync.emulator.store import Doc, Row

PATH = "/v1/orgs/{organizationId}/sites/{siteId}/customization"
SPACE_PATH = "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization"


def _stored(ctx: Ctx, site: Row) -> Doc:
    stored = site.data.get("customization")
    return dict(stored) if isinstance(stored, dict) else default_customization(ctx.production)


def get_customization(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org()["id"])
    query_bool(ctx, "unmasked")
    return ok(_stored(ctx, site))


def put_customization(ctx: Ctx) -> Response:
    """Production's settings, and in production's mode what it takes beyond its document."""
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    body = (PRODUCTION_SETTINGS if ctx.production else SETTINGS).check(ctx.body(), "")
    stored = {**body, "updatedAt": ctx.now}
    tree.patch(ctx.tx, site, {"customization": stored})
    return ok(stored)


def _overlaid(base: Doc, override: Doc, path: str = "") -> Doc:
    """`base` with `override` on top; the parts in MERGED field by field."""
    out = dict(base)
    for name, value in override.items():
        where = path + name
        if where in MERGED and isinstance(base.get(name), dict):
            out[name] = _overlaid(base[name], value, where + ".")
        else:
            out[name] = value
    return out


def _override_of(effective: Doc, base: Doc, path: str = "") -> Doc:
    """What `_overlaid` put on `base` to show `effective`: the fields that differ (the parts
    in MERGED field by field). An override equal to its site's value reads as none."""
    out: Doc = {}
    for name, value in effective.items():
        where = path + name
        if where in MERGED and isinstance(value, dict) and isinstance(base.get(name), dict):
            inner = _override_of(value, base[name], where + ".")
            if inner:
                out[name] = inner
        elif base.get(name) != value:
            out[name] = value
    return out


def load_customization(at: Loading, params: dict[str, str], answer: Any) -> None:
    """A site's customization as a snapshot read it (production's defaults when none was
    written read the same kept)."""
    at.patch(tree.SITE, params["siteId"], {"customization": obj(answer)})


def load_space_customization(at: Loading, params: dict[str, str], answer: Any) -> None:
    """A site space's effective customization as read: its override is what differs from its
    site's (read first: a shorter path)."""
    site = at.row(tree.SITE, params["siteId"])
    base = site.data.get("customization") if site is not None else None
    override = _override_of(obj(answer), base if isinstance(base, dict) else {})
    at.patch(tree.SITE_SPACE, params["siteSpaceId"], {"customization": override or None})


def _with_override(stored: Doc, body: Doc, path: str = "") -> Doc:
    """The stored override after a PATCH: given fields set, null ones cleared, a part of MERGED
    left out once nothing in it is overridden."""
    out = dict(stored)
    for name, value in body.items():
        where = path + name
        if value is None:
            out.pop(name, None)
        elif where in MERGED:
            merged = _with_override(out.get(name) or {}, value, where + ".")
            if merged:
                out[name] = merged
            else:
                out.pop(name, None)
        else:
            out[name] = value
    return out


def _site_space(ctx: Ctx, site: Row) -> Row:
    return tree.find_child(ctx.tx, site, tree.SITE_SPACE, ctx.params["siteSpaceId"])


def effective_customization(ctx: Ctx, site: Row, site_space: Row) -> Doc:
    """What a site space shows: its site's settings with its override on top."""
    override = site_space.data.get("customization")
    return _overlaid(_stored(ctx, site), override if isinstance(override, dict) else {})


def get_space_customization(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org()["id"])
    query_bool(ctx, "unmasked")
    return ok(effective_customization(ctx, site, _site_space(ctx, site)))


def override_space_customization(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    row = _site_space(ctx, site)
    body = OVERRIDE.check(ctx.body(), "")
    stored = row.data.get("customization")
    override = _with_override(stored if isinstance(stored, dict) else {}, body)
    row = tree.patch(ctx.tx, row, {"customization": override or None})
    return ok(effective_customization(ctx, site, row))


def delete_space_customization(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    row = _site_space(ctx, site)
    if not row.data.get("customization"):
        return empty(204)
    tree.patch(ctx.tx, row, {"customization": None})
    return empty(205)


def site_customization(ctx: Ctx, site: Row) -> Doc:
    """What the published-content answer carries for the site."""
    return _stored(ctx, site)


routes: list[BaseRoute] = [
    api_route("GET", PATH, get_customization, loads=load_customization),
    api_route("PUT", PATH, put_customization),
    api_route("GET", SPACE_PATH, get_space_customization, loads=load_space_customization),
    api_route("PATCH", SPACE_PATH, override_space_customization),
    api_route("DELETE", SPACE_PATH, delete_space_customization),
]

"""A visitor-auth site's publishing auth: read, update (backend and URLs), regenerate the key.

Row (id / org / parent): site-publishing-auth (the site's id / org / site), made on first use
with production's defaults (a custom backend, no URLs) and a random private key, so deleting the
site deletes it. Only a site whose visibility is `visitor-auth` has one: any other answers 400.
"""

from __future__ import annotations

import secrets
from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator import site_tree as tree
from docsync.emulator.auth import Access
from docsync.emulator.errors import bad_request
from docsync.emulator.http import Ctx, api_route, ok
from docsync.emulator.snapshot import Loading, kept, obj
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import URL_PATTERN, Fields

PATH = "/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth"
KIND = "site-publishing-auth"
BACKENDS = ("custom", "integration")
URLS = ("fallbackURL", "logoutURL")


def _new_key() -> str:
    return f"pk_{secrets.token_hex(32)}"


def _auth(ctx: Ctx, site: Row) -> Row:
    """The site's publishing auth, made with the defaults on first use; 400 for a site that
    is not visitor-auth."""
    if site.data.get("visibility") != "visitor-auth":
        raise bad_request(
            f"Site {site.id!r} is {site.data.get('visibility')!r}: publishing auth applies to "
            "visitor-auth sites only (PATCH the site's visibility first)"
        )
    row = ctx.tx.get_row(KIND, site.id)
    if row is None:
        data: Doc = {"backend": "custom", "privateKey": _new_key()}
        ctx.tx.insert(KIND, site.id, data, org=site.org, parent=site.id)
        row = ctx.tx.get_row(KIND, site.id)
        assert row is not None
    return row


def _view(row: Row) -> Doc:
    body: Doc = {"object": "publishing-auth", "backend": row.data["backend"]}
    body["privateKey"] = row.data["privateKey"]
    for name in URLS:
        if row.data.get(name):
            body[name] = row.data[name]
    return body


def get_auth(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org()["id"])
    return ok(_view(_auth(ctx, site)))


def update_auth(ctx: Ctx) -> Response:
    """Production's SitePublishingAuthUpdate: `backend` is required; a URL left out is kept,
    `null` unsets it."""
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    body = Fields(ctx.body(), ("backend", *URLS))
    changes: Doc = {"backend": body.enum("backend", BACKENDS, required=True)}
    for name in URLS:
        if body.has(name):
            changes[name] = body.string(name, nullable=True, max_len=2048, pattern=URL_PATTERN)
    row = tree.patch(ctx.tx, _auth(ctx, site), changes)
    return ok(_view(row))


def regenerate_auth(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    row = tree.patch(ctx.tx, _auth(ctx, site), {"privateKey": _new_key()})
    return ok(_view(row))


def load_auth(at: Loading, params: dict[str, str], answer: Any) -> None:
    """A site's publishing auth as read; its private key, which a snapshot never holds, made
    anew."""
    data: Doc = {"backend": "custom", **kept(obj(answer), ("backend", *URLS))}
    site = params["siteId"]
    at.put(KIND, site, {**data, "privateKey": _new_key()}, parent=site)


routes: list[BaseRoute] = [
    api_route("GET", PATH, get_auth, loads=load_auth),
    api_route("PATCH", PATH, update_auth),
    api_route("POST", PATH + "/regenerate", regenerate_auth),
]

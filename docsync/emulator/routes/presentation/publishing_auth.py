"""A visitor-auth site's publishing auth: read, update (backend and URLs), regenerate the key.

Stored on the site row (`publishingAuth`), made on first use with production's defaults (a
custom backend, no URLs) and a random private key, so it goes with the site. Only a site whose
visibility is `visitor-auth` has one: any other answers 400.
"""

from __future__ import annotations

import secrets
from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.body import BOTH, UPDATE, Body, Choice, Place, Text
from docsync.emulator.errors import bad_request
from docsync.emulator.http import Ctx, ok
from docsync.emulator.routes.sites.sites import SITES
from docsync.emulator.singleton import Held, Singleton
from docsync.emulator.snapshot import Loading, kept, obj
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import URL_PATTERN

BACKENDS = ("custom", "integration")
URLS = ("fallbackURL", "logoutURL")


def _new_key() -> str:
    return f"pk_{secrets.token_hex(32)}"


def _view(ctx: Ctx, site: Row, auth: Doc | None) -> Doc:
    assert auth is not None  # made on first use
    body: Doc = {"object": "publishing-auth", "backend": auth["backend"]}
    body["privateKey"] = auth["privateKey"]
    body.update({name: auth[name] for name in URLS if auth.get(name)})
    return body


class Auth(Held):
    def current(self, ctx: Ctx, one: Singleton, holder: Row) -> Doc | None:
        """The site's, made with the defaults on first use; 400 for a site that is not
        visitor-auth."""
        if holder.data.get("visibility") != "visitor-auth":
            raise bad_request(
                f"Site {holder.id!r} is {holder.data.get('visibility')!r}: publishing auth "
                "applies to visitor-auth sites only (PATCH the site's visibility first)"
            )
        found = super().current(ctx, one, holder)
        if found is None:
            found = {"backend": "custom", "privateKey": _new_key()}
            one.store(ctx, holder, found)
        return found

    def seeded(
        self, at: Loading, one: Singleton, params: dict[str, str], answer: Any
    ) -> Doc | None:
        """As read; its private key, which a snapshot never holds, made anew."""
        data: Doc = {"backend": "custom", **kept(obj(answer), ("backend", *URLS))}
        return {one.stored_in: {**data, "privateKey": _new_key()}}


PUBLISHING_AUTH = Singleton(
    SITES,
    "publishing/auth",
    _view,
    stored_in="publishingAuth",
    # production's SitePublishingAuthUpdate: a URL left out is kept, null unsets it
    body=Body(
        (
            Choice("backend", values=BACKENDS, required=UPDATE),
            *(Text(name, nullable=BOTH, max_len=2048, pattern=URL_PATTERN) for name in URLS),
        )
    ),
    rules=Auth(),
    operations=("get", "patch"),
)


def _regenerate(ctx: Ctx, place: Place, site: Row) -> Response:
    auth = {**(PUBLISHING_AUTH.rules.current(ctx, PUBLISHING_AUTH, site) or {})}
    auth["privateKey"] = _new_key()
    return ok(_view(ctx, PUBLISHING_AUTH.store(ctx, site, auth), auth))


routes: list[BaseRoute] = [
    *PUBLISHING_AUTH.routes(),
    PUBLISHING_AUTH.action("regenerate", _regenerate),
]

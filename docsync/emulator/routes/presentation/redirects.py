"""Site redirects: list, create, update, delete, and resolve by source; the bulk upsert is
redirects_bulk.py's, the rows and body checks redirects.py's.

A redirect whose section or site space is deleted stays, as production keeps a rule when its
target goes: it is listed with the id it had and resolving it answers 404 (docs/emulator.md).
"""

from __future__ import annotations

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator import site_tree as tree
from docsync.emulator.auth import Access
from docsync.emulator.body import CREATE, UPDATE, At, Body, Field, Flag, Place, Text, stored
from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.http import Ctx, api_route, ok
from docsync.emulator.paging import page_answer, page_window, query_bool, query_enum
from docsync.emulator.redirects import (
    KIND,
    SOURCE_MAX,
    SOURCE_PATTERN,
    by_source,
    change_redirect,
    checked_destination,
    index_redirect,
    outside_site,
    redirect_view,
    remove_redirect,
    source_taken,
)
from docsync.emulator.redirects_bulk import bulk_upsert
from docsync.emulator.resource import Resource
from docsync.emulator.rules import SITE_PART, Entry, Rules
from docsync.emulator.scopes import IN_SITE
from docsync.emulator.site_views import published_url, segment
from docsync.emulator.snapshot import Loading
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import check_string

BASE = "/v1/orgs/{organizationId}/sites/{siteId}/redirects"
ORDERS: dict[str, tuple[tuple[str, bool], ...]] = {
    "createdAt": (("position", True),),  # the most recently created first
    "updatedAt": (("touched", True), ("position", True)),
    "source": (("source", False),),
}


class RedirectRules(Rules):
    def serve_list(self, ctx: Ctx, res: Entry) -> Response:
        """One page, ordered and filtered by the store: a list costs what it answers."""
        site = res.scope.enter(ctx, Access.READ).site_row
        order = query_enum(ctx, "orderBy", list(ORDERS), "createdAt") or "createdAt"
        draft = bool(query_bool(ctx, "draft"))
        search = ctx.query.get("search")
        offset, limit = page_window(ctx)
        rows, total = ctx.tx.window(
            KIND,
            site.id,
            equal=[("draft", draft)],
            contains=("source", search) if search else None,
            order=ORDERS[order],
            offset=offset,
            limit=limit,
        )
        return page_answer([redirect_view(row) for row in rows], total, offset, limit)

    def fresh(self, ctx: Ctx, place: Place, values: Doc) -> Doc:
        source, draft = values["source"], values["draft"]
        if by_source(ctx.tx, place.site_row, source, draft) is not None:
            raise source_taken(place.site_row, source, draft)
        return {"touched": ctx.now}

    def created(self, ctx: Ctx, place: Place, row: Row, values: Doc) -> None:
        index_redirect(ctx.tx, place.site_row, row.data)

    def change(self, ctx: Ctx, res: Entry, place: Place, row: Row, values: Doc) -> Row:
        source = str(values.get("source", row.data["source"]))
        draft = bool(values.get("draft", row.data["draft"]))
        other = by_source(ctx.tx, place.site_row, source, draft)
        if other is not None and other.id != row.id:
            raise source_taken(place.site_row, source, draft)
        return change_redirect(ctx.tx, place.site_row, row, stored(res.body, values), ctx.now)

    def remove(self, ctx: Ctx, place: Place, row: Row) -> bool:
        remove_redirect(ctx.tx, row)
        return True

    def seeded_order(self, items: list[Doc]) -> list[Doc]:
        """Listed the most recent first: stored the oldest first."""
        return items[::-1]

    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
        """A redirect as answered, found by its source too."""
        data = super().seeded(at, res, place, item) or {}
        data["touched"] = data.get("updatedAt") or data["createdAt"]
        index_redirect(at.tx, place.site_row, data)
        return data


def _destination(at: At, value: Doc, name: str) -> Doc:
    return checked_destination(at.ctx, at.place.site_row, value, name, inputs=at.row is None)


REDIRECTS = Resource(
    KIND,
    BASE,
    "siteRedirectId",
    lambda ctx, row: redirect_view(row),
    missing="No redirect {id!r} in site {site!r}",
    scope=IN_SITE,
    body=Body(
        (
            Text("source", required=CREATE, min_len=1, max_len=SOURCE_MAX, pattern=SOURCE_PATTERN),
            # a create reads `draft` first, an update after `captureWildcard`
            Flag("draft", ops=CREATE, default=False),
            Flag("captureWildcard", default=False),
            Flag("draft", ops=UPDATE),
            Flag("permanent", default=False),
            Field("destination", required=CREATE, resolve=_destination),
        )
    ),
    rules=RedirectRules(),
    operations=("list", "create", "update", "delete"),
    access=SITE_PART,
    id_in_data=True,
    snapshot=("updatedAt",),
)


def _target(ctx: Ctx, site: Row, destination: Doc) -> str | None:
    """Where a redirect sends a reader, or None when its section or site space is gone."""
    if destination["kind"] == "external":
        return str(destination["url"])
    base = published_url(ctx, site)
    if outside_site(ctx.tx, site, destination) is not None:
        return None
    if destination["kind"] == "site-section":
        section = ctx.tx.get(tree.SECTION, destination["siteSectionId"]) or {}
        return f"{base}/{segment(section['path'])}"
    site_space = ctx.tx.get(tree.SITE_SPACE, destination["siteSpaceId"]) or {}
    section = ctx.tx.get(tree.SECTION, str(site_space.get("section"))) or {}
    parts = [base, *([segment(section["path"])] if section else []), segment(site_space["path"])]
    if destination["kind"] == "site-page":
        parts.append(segment(str(destination["pageId"])))
    return "/".join(parts)


def get_by_source(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org()["id"])
    source = ctx.query.get("source")
    if source is None:
        raise bad_request("source: is required")
    check_string("source", source, 1, SOURCE_MAX, SOURCE_PATTERN)
    row = by_source(ctx.tx, site, source, False)
    if row is None:
        raise not_found(f"No redirect from {source!r} in site {site.id!r}")
    target = _target(ctx, site, row.data["destination"])
    if target is None:
        raise not_found(
            f"The redirect from {source!r} points at a section or site space that was deleted"
        )
    return ok({"redirect": redirect_view(row), "target": target})


routes: list[BaseRoute] = [
    *REDIRECTS.routes(),
    REDIRECTS.batch(bulk_upsert),
    api_route("GET", "/v1/orgs/{organizationId}/sites/{siteId}/redirect", get_by_source),
]

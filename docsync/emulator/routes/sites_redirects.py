"""Site redirects: list, create, update, delete, and resolve by source; the bulk upsert is
sites_redirects_bulk's, the rows and body checks sites_redirect_rows'.

A redirect whose section or site space is deleted stays, as production keeps a rule when its
target goes: it is listed with the id it had and resolving it answers 404 (docs/emulator.md).
"""

from __future__ import annotations

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.http import Ctx, api_route, created, empty, new_id, ok
from docsync.emulator.paging import page_answer, page_window, query_bool, query_enum
from docsync.emulator.routes import sites_tree as tree
from docsync.emulator.routes.sites_redirect_rows import (
    KIND,
    SOURCE_MAX,
    SOURCE_PATTERN,
    by_source,
    change_redirect,
    checked_destination,
    insert_redirect,
    outside_site,
    redirect_view,
    remove_redirect,
    source_of,
    source_taken,
)
from docsync.emulator.routes.sites_redirects_bulk import bulk_upsert
from docsync.emulator.routes.sites_views import published_url, segment
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields, check_string

BASE = "/v1/orgs/{organizationId}/sites/{siteId}/redirects"
REDIRECT = BASE + "/{siteRedirectId}"
ORDERS: dict[str, tuple[tuple[str, bool], ...]] = {
    "createdAt": (("position", True),),  # the most recently created first
    "updatedAt": (("touched", True), ("position", True)),
    "source": (("source", False),),
}


def list_redirects(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org()["id"])
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


def create_redirect(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    body = Fields(ctx.body(), ("source", "captureWildcard", "draft", "permanent", "destination"))
    source = source_of(body)
    draft = bool(body.boolean("draft"))
    data: Doc = {
        "id": new_id(),
        "source": source,
        "draft": draft,
        "captureWildcard": bool(body.boolean("captureWildcard")),
        "permanent": bool(body.boolean("permanent")),
        "destination": checked_destination(
            ctx, site, body.obj("destination", required=True), "destination", inputs=True
        ),
        "createdAt": ctx.now,
        "touched": ctx.now,
    }
    if by_source(ctx.tx, site, source, draft) is not None:
        raise source_taken(site, source, draft)
    row = insert_redirect(ctx.tx, site, data)
    return created(redirect_view(row))


def _find(ctx: Ctx, site: Row) -> Row:
    row = ctx.tx.get_row(KIND, ctx.params["siteRedirectId"])
    if row is None or row.parent != site.id:
        raise not_found(f"No redirect {ctx.params['siteRedirectId']!r} in site {site.id!r}")
    return row


def update_redirect(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    row = _find(ctx, site)
    body = Fields(ctx.body(), ("source", "captureWildcard", "draft", "permanent", "destination"))
    changes: Doc = {}
    if body.has("source"):
        changes["source"] = source_of(body)
    for flag in ("captureWildcard", "draft", "permanent"):
        if body.has(flag):
            changes[flag] = bool(body.boolean(flag))
    if body.has("destination"):
        value = body.obj("destination")
        changes["destination"] = checked_destination(ctx, site, value, "destination", inputs=False)
    source = str(changes.get("source", row.data["source"]))
    draft = bool(changes.get("draft", row.data["draft"]))
    other = by_source(ctx.tx, site, source, draft)
    if other is not None and other.id != row.id:
        raise source_taken(site, source, draft)
    return ok(redirect_view(change_redirect(ctx.tx, site, row, changes, ctx.now)))


def delete_redirect(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    row = ctx.tx.get_row(KIND, ctx.params["siteRedirectId"])
    if row is None or row.parent != site.id:
        return empty(204)
    remove_redirect(ctx.tx, row)
    return empty(205)


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
    api_route("GET", BASE, list_redirects),
    api_route("POST", BASE, create_redirect),
    api_route("PUT", BASE, bulk_upsert),
    api_route("PATCH", REDIRECT, update_redirect),
    api_route("DELETE", REDIRECT, delete_redirect),
    api_route("GET", "/v1/orgs/{organizationId}/sites/{siteId}/redirect", get_by_source),
]

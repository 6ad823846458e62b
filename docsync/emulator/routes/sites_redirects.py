"""Site redirects: list, create, bulk upsert, update, delete, and resolve by source.

Rows (id / org / parent): site-redirect (id / org / site) and, to find one by its source without
reading the site's others, site-redirect-source ("site/live/source" or "site/draft/source" / org /
site) naming it. Both sit under the site, so deleting the site deletes its redirects. A redirect
whose section or site space is deleted stays, as production keeps a rule when its target goes:
it is listed with the id it had and resolving it answers 404 (docs/emulator.md).
"""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.errors import ApiError, bad_request, conflict, not_found
from docsync.emulator.http import Ctx, api_route, created, empty, new_id, ok
from docsync.emulator.paging import page_answer, page_window, query_bool, query_enum
from docsync.emulator.routes import sites_tree as tree
from docsync.emulator.routes.sites_redirect_paths import checked, resolve_path
from docsync.emulator.routes.sites_views import published_url
from docsync.emulator.store import Doc, Row, Tx
from docsync.emulator.validate import URL_PATTERN, Fields, check_string, json_type

BASE = "/v1/orgs/{organizationId}/sites/{siteId}/redirects"
REDIRECT = BASE + "/{siteRedirectId}"
KIND = "site-redirect"
BY_SOURCE = "site-redirect-source"
#: production's SiteRedirectSourcePath
SOURCE_PATTERN = (
    r"^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+"
    r"(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$"
)
SOURCE_MAX = 512
BULK_MAX = 500
ORDERS: dict[str, tuple[tuple[str, bool], ...]] = {
    "createdAt": (("position", True),),  # the most recently created first
    "updatedAt": (("touched", True), ("position", True)),
    "source": (("source", False),),
}
_DESTINATIONS = {
    "external": ("url",),
    "site-section": ("siteSectionId",),
    "site-space": ("siteSpaceId",),
    "site-page": ("siteSpaceId", "pageId"),
    "path": ("spaceId", "path"),
}


# -- the store ------------------------------------------------------------------------------


def _source_key(site: str, draft: bool, source: str) -> str:
    return f"{site}/{'draft' if draft else 'live'}{source}"


def by_source(tx: Tx, site: Row, source: str, draft: bool) -> Row | None:
    """The redirect of `site` with this source, live or draft (indexed)."""
    found = tx.get(BY_SOURCE, _source_key(site.id, draft, source))
    return None if found is None else tx.get_row(KIND, str(found["redirect"]))


def _insert(tx: Tx, site: Row, data: Doc) -> Row:
    tx.insert(KIND, data["id"], data, org=site.org, parent=site.id)
    key = _source_key(site.id, data["draft"], data["source"])
    tx.insert(BY_SOURCE, key, {"redirect": data["id"]}, org=site.org, parent=site.id)
    row = tx.get_row(KIND, data["id"])
    assert row is not None
    return row


def _remove(tx: Tx, row: Row) -> None:
    tx.delete(KIND, row.id)
    tx.delete(BY_SOURCE, _source_key(str(row.parent), row.data["draft"], row.data["source"]))


def _change(tx: Tx, site: Row, row: Row, changes: Doc, now: str) -> Row:
    """Merge `changes` into a redirect, moving its source entry when source or draft changes."""
    data = {**row.data, **changes, "updatedAt": now, "touched": now}
    moved = (data["source"], data["draft"]) != (row.data["source"], row.data["draft"])
    if moved:
        _remove(tx, row)
        return _insert(tx, site, data)
    tx.update(KIND, row.id, data)
    return tree.reload(tx, row)


def _view(row: Row) -> Doc:
    data = row.data
    body: Doc = {"object": "site-redirect", "id": row.id}
    for key in ("source", "draft", "captureWildcard", "permanent", "destination", "createdAt"):
        body[key] = data[key]
    if data.get("updatedAt"):
        body["updatedAt"] = data["updatedAt"]
    return body


# -- bodies ---------------------------------------------------------------------------------


def _source(body: Fields, name: str = "source") -> str:
    value = body.string(name, required=True)
    return check_string(body.prefix + name, value, 1, SOURCE_MAX, SOURCE_PATTERN)


def _destination(value: Any, name: str, *, inputs: bool) -> Doc:
    """A destination's shape (production's SiteRedirectInputDestination, or without the
    `path` kind for an update); 400 naming the field."""
    if not isinstance(value, dict):
        raise bad_request(f"{name}: must be an object; got {json_type(value)}")
    kinds = [k for k in _DESTINATIONS if inputs or k != "path"]
    kind = Fields(value, value.keys(), f"{name}.").enum("kind", kinds, required=True)
    assert kind is not None
    body = Fields(value, ("kind", *_DESTINATIONS[kind]), f"{name}.")
    for field in _DESTINATIONS[kind]:
        pattern, limit = (URL_PATTERN, 2048) if field == "url" else (None, None)
        body.string(field, required=True, max_len=limit, pattern=pattern)
    return {"kind": kind, **{f: value[f] for f in _DESTINATIONS[kind]}}


def outside_site(tx: Tx, site: Row, destination: Doc) -> str | None:
    """Why a destination is not in the site (a section or site space of another), or None."""
    for field, kind, what in (
        ("siteSectionId", tree.SECTION, "section"),
        ("siteSpaceId", tree.SITE_SPACE, "site space"),
    ):
        target = destination.get(field)
        if target is None:
            continue
        row = tx.get_row(kind, str(target))
        if row is None or row.data.get("site") != site.id:
            return f"destination.{field}: no {what} {target!r} in site {site.id!r}"
    return None


def _checked(ctx: Ctx, site: Row, value: Any, name: str, *, inputs: bool) -> Doc:
    destination = _destination(value, name, inputs=inputs)
    if destination["kind"] == "path":
        destination = resolve_path(ctx.tx, site, destination, name)
    problem = outside_site(ctx.tx, site, destination)
    if problem is not None:
        raise not_found(problem.replace("destination", name, 1))
    return destination


def _taken(site: Row, source: str, draft: bool) -> ApiError:
    return conflict(
        "redirect-source-taken",
        f"Site {site.id!r} already has a {'draft' if draft else 'live'} redirect from "
        f"{source!r}: update that one, or write it through the bulk upsert",
    )


# -- routes ---------------------------------------------------------------------------------


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
    return page_answer([_view(row) for row in rows], total, offset, limit)


def create_redirect(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    body = Fields(ctx.body(), ("source", "captureWildcard", "draft", "permanent", "destination"))
    source = _source(body)
    draft = bool(body.boolean("draft"))
    data: Doc = {
        "id": new_id(),
        "source": source,
        "draft": draft,
        "captureWildcard": bool(body.boolean("captureWildcard")),
        "permanent": bool(body.boolean("permanent")),
        "destination": _checked(
            ctx, site, body.obj("destination", required=True), "destination", inputs=True
        ),
        "createdAt": ctx.now,
        "touched": ctx.now,
    }
    if by_source(ctx.tx, site, source, draft) is not None:
        raise _taken(site, source, draft)
    row = _insert(ctx.tx, site, data)
    return created(_view(row))


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
        changes["source"] = _source(body)
    for flag in ("captureWildcard", "draft", "permanent"):
        if body.has(flag):
            changes[flag] = bool(body.boolean(flag))
    if body.has("destination"):
        value = body.obj("destination")
        changes["destination"] = _checked(ctx, site, value, "destination", inputs=False)
    source = str(changes.get("source", row.data["source"]))
    draft = bool(changes.get("draft", row.data["draft"]))
    other = by_source(ctx.tx, site, source, draft)
    if other is not None and other.id != row.id:
        raise _taken(site, source, draft)
    return ok(_view(_change(ctx.tx, site, row, changes, ctx.now)))


def delete_redirect(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    row = ctx.tx.get_row(KIND, ctx.params["siteRedirectId"])
    if row is None or row.parent != site.id:
        return empty(204)
    _remove(ctx.tx, row)
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
        return f"{base}/{section['path']}"
    site_space = ctx.tx.get(tree.SITE_SPACE, destination["siteSpaceId"]) or {}
    section = ctx.tx.get(tree.SECTION, str(site_space.get("section"))) or {}
    parts = [base, *([section["path"]] if section else []), site_space["path"]]
    if destination["kind"] == "site-page":
        parts.append(str(destination["pageId"]))
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
    return ok({"redirect": _view(row), "target": target})


# -- bulk upsert ----------------------------------------------------------------------------


def _bulk_items(ctx: Ctx) -> list[Doc]:
    """The items of a bulk upsert, each checked against production's schema (any problem is a
    400 for the whole request, nothing applied): `{source, intent, destination?, ...}`."""
    data = ctx.body()
    Fields(data, ("redirects",))
    items = data.get("redirects")
    if not isinstance(items, list):
        raise bad_request(f"redirects: must be an array; got {json_type(items)}")
    if not 1 <= len(items) <= BULK_MAX:
        raise bad_request(f"redirects: must have 1 to {BULK_MAX} items; got {len(items)}")
    checked: list[Doc] = []
    for index, item in enumerate(items):
        name = f"redirects[{index}]"
        if not isinstance(item, dict):
            raise bad_request(f"{name}: must be an object; got {json_type(item)}")
        if item.get("intent") == "publish":
            fields = Fields(item, ("source", "intent"), f"{name}.")
            checked.append({"source": _source(fields), "intent": "publish"})
            continue
        allowed = ("source", "intent", "captureWildcard", "permanent", "destination")
        fields = Fields(item, allowed, f"{name}.")
        entry: Doc = {
            "source": _source(fields),
            "intent": fields.enum("intent", ("publish", "live", "draft")) or "live",
        }
        if not fields.has("destination"):
            raise bad_request(f"{name}.destination: is required (null deletes the redirect)")
        value = item["destination"]
        entry["destination"] = (
            None if value is None else _destination(value, f"{name}.destination", inputs=True)
        )
        entry["captureWildcard"] = bool(fields.boolean("captureWildcard"))
        if fields.has("permanent"):
            entry["permanent"] = fields.boolean("permanent")
        checked.append(entry)
    return checked


def _publish(ctx: Ctx, site: Row, source: str) -> Doc:
    draft = by_source(ctx.tx, site, source, True)
    if draft is None:
        return {
            "status": "error",
            "source": source,
            "draft": True,
            "error": f"No draft redirect from {source!r} to publish",
        }
    live = by_source(ctx.tx, site, source, False)
    if live is not None:
        _remove(ctx.tx, live)
    row = _change(ctx.tx, site, draft, {"draft": False}, ctx.now)
    return {"status": "published", "source": source, "draft": False, "id": row.id}


def _upsert(ctx: Ctx, site: Row, item: Doc) -> Doc:
    source, draft = item["source"], item["intent"] == "draft"
    existing = by_source(ctx.tx, site, source, draft)
    destination = item["destination"]
    if destination is None:
        if existing is not None:
            _remove(ctx.tx, existing)
        return {"status": "deleted", "source": source, "draft": draft}
    destination, problem = checked(ctx.tx, site, destination, outside_site)
    if problem is not None:
        return {"status": "error", "source": source, "draft": draft, "error": problem}
    changes = {"destination": destination, "captureWildcard": item["captureWildcard"]}
    if "permanent" in item:
        changes["permanent"] = item["permanent"]
    if existing is not None:
        row = _change(ctx.tx, site, existing, changes, ctx.now)
        return {"status": "updated", "source": source, "draft": draft, "id": row.id}
    data = {
        "id": new_id(),
        "source": source,
        "draft": draft,
        "permanent": False,
        **changes,
        "createdAt": ctx.now,
        "touched": ctx.now,
    }
    row = _insert(ctx.tx, site, data)
    return {"status": "created", "source": source, "draft": draft, "id": row.id}


def bulk_upsert(ctx: Ctx) -> Response:
    """Every item on its own, in order: a destination outside the site is that item's `error`
    result, the others still apply (production: "processed independently")."""
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    results = [
        _publish(ctx, site, item["source"])
        if item["intent"] == "publish"
        else _upsert(ctx, site, item)
        for item in _bulk_items(ctx)
    ]
    return ok({"results": results})


routes: list[BaseRoute] = [
    api_route("GET", BASE, list_redirects),
    api_route("POST", BASE, create_redirect),
    api_route("PUT", BASE, bulk_upsert),
    api_route("PATCH", REDIRECT, update_redirect),
    api_route("DELETE", REDIRECT, delete_redirect),
    api_route("GET", "/v1/orgs/{organizationId}/sites/{siteId}/redirect", get_by_source),
]

"""A site's redirects as rows, and the checks of their bodies.

Rows (id / org / parent): site-redirect (id / org / site) and, to find one by its source without
reading the site's others, site-redirect-source ("site/live/source" or "site/draft/source" / org /
site) naming it. Both sit under the site, so deleting the site deletes its redirects.
"""

from __future__ import annotations

from typing import Any

from docsync.emulator import site_tree as tree
from docsync.emulator.errors import ApiError, bad_request, conflict, not_found
from docsync.emulator.http import Ctx
from docsync.emulator.redirect_paths import resolve_path
from docsync.emulator.store import Doc, Row, Tx
from docsync.emulator.validate import URL_PATTERN, Fields, check_string, json_type

KIND = "site-redirect"
BY_SOURCE = "site-redirect-source"
#: production's SiteRedirectSourcePath
SOURCE_PATTERN = (
    r"^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+"
    r"(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$"
)
SOURCE_MAX = 512
_DESTINATIONS = {
    "external": ("url",),
    "site-section": ("siteSectionId",),
    "site-space": ("siteSpaceId",),
    "site-page": ("siteSpaceId", "pageId"),
    "path": ("spaceId", "path"),
}


def _source_key(site: str, draft: bool, source: str) -> str:
    return f"{site}/{'draft' if draft else 'live'}{source}"


def by_source(tx: Tx, site: Row, source: str, draft: bool) -> Row | None:
    """The redirect of `site` with this source, live or draft (indexed)."""
    found = tx.get(BY_SOURCE, _source_key(site.id, draft, source))
    return None if found is None else tx.get_row(KIND, str(found["redirect"]))


def insert_redirect(tx: Tx, site: Row, data: Doc) -> Row:
    tx.insert(KIND, data["id"], data, org=site.org, parent=site.id)
    index_redirect(tx, site, data)
    row = tx.get_row(KIND, data["id"])
    assert row is not None
    return row


def index_redirect(tx: Tx, site: Row, data: Doc) -> None:
    """Find the redirect by its source and draft flag (`by_source`)."""
    key = _source_key(site.id, data["draft"], data["source"])
    tx.insert(BY_SOURCE, key, {"redirect": data["id"]}, org=site.org, parent=site.id)


def remove_redirect(tx: Tx, row: Row) -> None:
    tx.delete(KIND, row.id)
    tx.delete(BY_SOURCE, _source_key(str(row.parent), row.data["draft"], row.data["source"]))


def change_redirect(tx: Tx, site: Row, row: Row, changes: Doc, now: str) -> Row:
    """Merge `changes` into a redirect, moving its source entry when source or draft changes."""
    data = {**row.data, **changes, "updatedAt": now, "touched": now}
    moved = (data["source"], data["draft"]) != (row.data["source"], row.data["draft"])
    if moved:
        remove_redirect(tx, row)
        return insert_redirect(tx, site, data)
    tx.update(KIND, row.id, data)
    return tree.reload(tx, row)


def redirect_view(row: Row) -> Doc:
    data = row.data
    body: Doc = {"object": "site-redirect", "id": row.id}
    for key in ("source", "draft", "captureWildcard", "permanent", "destination", "createdAt"):
        body[key] = data[key]
    if data.get("updatedAt"):
        body["updatedAt"] = data["updatedAt"]
    return body


def source_of(body: Fields, name: str = "source") -> str:
    value = body.string(name, required=True)
    return check_string(body.prefix + name, value, 1, SOURCE_MAX, SOURCE_PATTERN)


def destination_of(value: Any, name: str, *, inputs: bool) -> Doc:
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


def checked_destination(ctx: Ctx, site: Row, value: Any, name: str, *, inputs: bool) -> Doc:
    destination = destination_of(value, name, inputs=inputs)
    if destination["kind"] == "path":
        destination = resolve_path(ctx.tx, site, destination, name)
    problem = outside_site(ctx.tx, site, destination)
    if problem is not None:
        raise not_found(problem.replace("destination", name, 1))
    return destination


def source_taken(site: Row, source: str, draft: bool) -> ApiError:
    return conflict(
        "redirect-source-taken",
        f"Site {site.id!r} already has a {'draft' if draft else 'live'} redirect from "
        f"{source!r}: update that one, or write it through the bulk upsert",
    )

"""The bulk upsert of a site's redirects (`PUT .../redirects`): up to 500 items, each created,
updated, deleted (destination null) or published (intent publish) on its own, in order."""

from __future__ import annotations

from docsync.emulator.body import Place
from docsync.emulator.errors import bad_request
from docsync.emulator.http import Ctx, new_id
from docsync.emulator.redirect_paths import checked
from docsync.emulator.redirects import (
    by_source,
    change_redirect,
    destination_of,
    insert_redirect,
    outside_site,
    remove_redirect,
    source_of,
)
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields, json_type

BULK_MAX = 500


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
            checked.append({"source": source_of(fields), "intent": "publish"})
            continue
        allowed = ("source", "intent", "captureWildcard", "permanent", "destination")
        fields = Fields(item, allowed, f"{name}.")
        entry: Doc = {
            "source": source_of(fields),
            "intent": fields.enum("intent", ("publish", "live", "draft")) or "live",
        }
        if not fields.has("destination"):
            raise bad_request(f"{name}.destination: is required (null deletes the redirect)")
        value = item["destination"]
        entry["destination"] = (
            None if value is None else destination_of(value, f"{name}.destination", inputs=True)
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
        remove_redirect(ctx.tx, live)
    row = change_redirect(ctx.tx, site, draft, {"draft": False}, ctx.now)
    return {"status": "published", "source": source, "draft": False, "id": row.id}


def _upsert(ctx: Ctx, site: Row, item: Doc) -> Doc:
    source, draft = item["source"], item["intent"] == "draft"
    existing = by_source(ctx.tx, site, source, draft)
    destination = item["destination"]
    if destination is None:
        if existing is not None:
            remove_redirect(ctx.tx, existing)
        return {"status": "deleted", "source": source, "draft": draft}
    destination, problem = checked(ctx.tx, site, destination, outside_site)
    if problem is not None:
        return {"status": "error", "source": source, "draft": draft, "error": problem}
    changes = {"destination": destination, "captureWildcard": item["captureWildcard"]}
    if "permanent" in item:
        changes["permanent"] = item["permanent"]
    if existing is not None:
        row = change_redirect(ctx.tx, site, existing, changes, ctx.now)
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
    row = insert_redirect(ctx.tx, site, data)
    return {"status": "created", "source": source, "draft": draft, "id": row.id}


def bulk_upsert(ctx: Ctx, place: Place) -> Doc:
    """Every item on its own, in order: a destination outside the site is that item's `error`
    result, the others still apply (production: "processed independently")."""
    site = place.site_row
    results = [
        _publish(ctx, site, item["source"])
        if item["intent"] == "publish"
        else _upsert(ctx, site, item)
        for item in _bulk_items(ctx)
    ]
    return {"results": results}

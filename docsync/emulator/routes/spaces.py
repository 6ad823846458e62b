"""Spaces: list, create, get, PATCH, soft DELETE, restore (7 days), move, transfer, duplicate."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator import merge_rules
from docsync.emulator.auth import Access
from docsync.emulator.computed_sources import check_source, refuse_template
from docsync.emulator.content import (
    default_level,
    find,
    is_purged,
    live_collection,
    move,
    transfer_tree,
)
from docsync.emulator.errors import bad_request, conflict, not_found
from docsync.emulator.grants import drop_resource
from docsync.emulator.http import Ctx, api_route, created, empty, new_id, ok
from docsync.emulator.paging import paginate
from docsync.emulator.validate import URL_PATTERN, Fields
from docsync.emulator.views import space_view

LANGUAGES = (
    "en",
    "fr",
    "de",
    "es",
    "it",
    "pt",
    "pt-br",
    "ru",
    "ja",
    "zh",
    "zh-tw",
    "yue",
    "ko",
    "ar",
    "hi",
    "nl",
    "pl",
    "tr",
    "sv",
    "no",
    "da",
    "fi",
    "el",
    "cs",
    "hu",
    "ro",
    "th",
    "vi",
    "id",
    "ms",
    "he",
    "uk",
    "sk",
    "bg",
    "hr",
    "lt",
    "lv",
    "et",
    "sl",
)
ORG_BASE = "/v1/orgs/{organizationId}/spaces"
BASE = "/v1/spaces/{spaceId}"
_READ_ONLY = ("visibility", "organization", "id", "createdAt", "updatedAt", "deletedAt")


def _refuse_read_only(ctx: Ctx) -> dict[str, object]:
    data = ctx.body()
    for name in _READ_ONLY:
        if name in data:
            raise bad_request(f"{name}: is read-only and cannot be written")
    return data


def list_spaces(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    rows = [
        row
        for row in ctx.tx.rows("space", org=org)
        if not row.data.get("deletedAt") and not is_purged(row, ctx.now)
    ]
    return paginate(ctx, [space_view(ctx, row) for row in rows])


def insert_space(ctx: Ctx, org: str, title: str, parent: str | None = None, **fields: Any) -> str:
    """Store a new space (also for a site section or site space created with `spaceId: null`)."""
    data = {
        "title": title,
        "emoji": "",
        "editMode": "live",
        "language": None,
        **fields,
        "defaultLevel": "inherit",
        "createdAt": ctx.now,
        "updatedAt": ctx.now,
        "deletedAt": None,
    }
    space_id = new_id()
    ctx.tx.insert("space", space_id, data, org=org, parent=parent)
    return space_id


def create_space(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT)["id"]
    if "visibility" in ctx.body(required=False):
        raise bad_request("visibility: is read-only and cannot be written")
    fields = ("title", "emoji", "parent", "language", "editMode", "empty", *MADE_FROM)
    body = Fields(ctx.body(required=False), fields)
    parent = body.string("parent")  # null: 400, as production
    if parent is not None:
        live_collection(ctx, org, parent, "parent")
    body.boolean("empty")
    source = _made_from(ctx, org, body)
    space_id = insert_space(
        ctx,
        org,
        body.string("title", max_len=50) or "",
        parent,
        emoji=body.string("emoji", max_len=50) or "",
        editMode=body.enum("editMode", ("live", "locked")) or "live",
        language=body.enum("language", LANGUAGES),
        **source,
    )
    return created(space_view(ctx, find(ctx, "space", space_id)), ctx.url(f"/spaces/{space_id}"))


#: what production's createSpace makes a space from, besides nothing (one at most)
MADE_FROM = ("template", "computedSource")


def _made_from(ctx: Ctx, org: str, body: Fields) -> dict[str, Any]:
    """The row fields of a space made from a computed source; a template names nothing (the
    emulator holds none: 404); both at once is a 400 (production's body is one of them)."""
    given = [name for name in MADE_FROM if body.has(name)]
    if len(given) > 1:
        raise bad_request("computedSource: give a template or a computed source, not both")
    refuse_template(body)
    if body.has("computedSource"):
        return {"computedSource": check_source(ctx.tx, org, body.data["computedSource"])}
    return {}


def get_space(ctx: Ctx) -> Response:
    return ok(space_view(ctx, find(ctx, "space", ctx.params["spaceId"])))


def update_space(ctx: Ctx) -> Response:
    row = find(ctx, "space", ctx.params["spaceId"], Access.CONTENT)
    body = Fields(
        _refuse_read_only(ctx),
        ("title", "emoji", "icon", "editMode", "defaultLevel", "language", "mergeRules"),
    )
    given = [name for name in ("emoji", "icon") if body.data.get(name) is not None]
    if given and len([name for name in ("emoji", "icon") if body.has(name)]) > 1:
        # production's body is one of {emoji}, {icon} or {emoji: null, icon: null}
        raise bad_request(
            f"{given[0]}: give an emoji or an icon alone, or null for both to remove them"
        )
    data = dict(row.data)
    if body.has("title"):
        data["title"] = body.string("title", max_len=50)
    if body.has("emoji"):
        data["emoji"] = body.string("emoji", max_len=50, nullable=True) or ""
    if body.has("icon"):
        data["icon"] = body.string("icon", max_len=2048, pattern=URL_PATTERN, nullable=True)
    if body.has("editMode"):
        data["editMode"] = body.enum("editMode", ("live", "locked"))
    if body.has("defaultLevel"):
        data["defaultLevel"] = default_level(body)
    if body.has("language"):
        data["language"] = body.enum("language", LANGUAGES)  # null: 400, as production
    if body.has("mergeRules"):
        merge_rules.SPACE.check(body.data["mergeRules"], "mergeRules")
        data["mergeRules"] = body.data["mergeRules"]
    data["updatedAt"] = ctx.now
    ctx.tx.update("space", row.id, data)
    return ok(space_view(ctx, find(ctx, "space", row.id)))


def delete_space(ctx: Ctx) -> Response:
    row = ctx.tx.get_row("space", ctx.params["spaceId"])
    if row is None or is_purged(row, ctx.now):
        return empty(204)
    find(ctx, "space", row.id, Access.CONTENT_ADMIN)
    if row.data.get("deletedAt"):
        return empty(204)
    ctx.tx.update("space", row.id, {**row.data, "deletedAt": ctx.now, "updatedAt": ctx.now})
    drop_resource(ctx.tx, row.id)  # a restored space comes back without grants
    return empty(205)


def restore_space(ctx: Ctx) -> Response:
    """A space that is not deleted is answered as it is (200): production lists no refusal, and
    a restore retried after its answer was lost must not fail."""
    row = find(ctx, "space", ctx.params["spaceId"], Access.CONTENT)
    if not row.data.get("deletedAt"):
        return ok(space_view(ctx, row))
    ctx.tx.update("space", row.id, {**row.data, "deletedAt": None, "updatedAt": ctx.now})
    if row.parent and ctx.tx.get("collection", row.parent) is None:
        ctx.tx.set_parent("space", row.id, None)
    return ok(space_view(ctx, find(ctx, "space", row.id)))


def move_space(ctx: Ctx) -> Response:
    row = find(ctx, "space", ctx.params["spaceId"], Access.CONTENT)
    move(ctx, row)
    return ok(space_view(ctx, find(ctx, "space", row.id)))


def transfer_space(ctx: Ctx) -> Response:
    row = find(ctx, "space", ctx.params["spaceId"], Access.CONTENT_ADMIN)
    body = Fields(ctx.body(), ("organization", "collection"))
    if not body.has("organization") and not body.has("collection"):
        raise bad_request("body: give organization, collection or both")
    target = body.string("organization") or row.org
    assert target is not None
    ctx.org(Access.CONTENT, target)
    collection = body.string("collection", nullable=True)
    if collection is not None:
        live_collection(ctx, target, collection, "collection")
    if target == row.org and collection == row.parent:
        raise conflict("space-transfer-no-change", "Transfer would not result in any update")
    transfer_tree(ctx, row, target, collection)
    return ok(space_view(ctx, find(ctx, "space", row.id)))


def duplicate_space(ctx: Ctx) -> Response:
    row = find(ctx, "space", ctx.params["spaceId"], Access.CONTENT)
    if row.data.get("deletedAt"):
        # as for its grants: a space in the bin is not found until restored
        raise not_found(f"Space {row.id!r} is deleted: restore it before duplicating it")
    data = {**row.data, "title": f"{row.data['title']} (copy)"[:50]}
    data.update(createdAt=ctx.now, updatedAt=ctx.now, deletedAt=None)
    space_id = new_id()
    ctx.tx.insert("space", space_id, data, org=row.org, parent=row.parent)
    return created(space_view(ctx, find(ctx, "space", space_id)), ctx.url(f"/spaces/{space_id}"))


routes: list[BaseRoute] = [
    api_route("GET", ORG_BASE, list_spaces),
    api_route("POST", ORG_BASE, create_space),
    api_route("GET", BASE, get_space),
    api_route("PATCH", BASE, update_space),
    api_route("DELETE", BASE, delete_space),
    api_route("POST", BASE + "/restore", restore_space),
    api_route("POST", BASE + "/move", move_space),
    api_route("POST", BASE + "/transfer", transfer_space, description_only=True),
    api_route("POST", BASE + "/duplicate", duplicate_space),
]

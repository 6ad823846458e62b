"""Collections: list (`nested`), create, get, PATCH, DELETE, move, transfer, and their spaces."""

from __future__ import annotations

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.content import (
    collection_view,
    default_level,
    find,
    is_purged,
    live_collection,
    move,
    transfer_tree,
)
from docsync.emulator.errors import conflict
from docsync.emulator.grants import drop_resource
from docsync.emulator.http import Ctx, api_route, created, empty, new_id, ok
from docsync.emulator.paging import paginate, query_bool
from docsync.emulator.refs import live_children
from docsync.emulator.validate import Fields
from docsync.emulator.views import space_view

ORG_BASE = "/v1/orgs/{organizationId}/collections"
BASE = "/v1/collections/{collectionId}"


def list_collections(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    rows = ctx.tx.rows("collection", org=org)
    if query_bool(ctx, "nested") is False:
        rows = [row for row in rows if row.parent is None]
    return paginate(ctx, [collection_view(ctx, row) for row in rows])


def create_collection(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT)["id"]
    body = Fields(ctx.body(required=False), ("title", "parent", "description", "defaultLevel"))
    title = body.string("title", max_len=50) or ""
    parent = body.string("parent")  # production refuses null here
    if parent is not None:
        live_collection(ctx, org, parent, "parent")
    data = {
        "title": title,
        "description": body.string("description", max_len=100, nullable=True),
        "defaultLevel": default_level(body) if body.has("defaultLevel") else "inherit",
        "createdAt": ctx.now,
        "updatedAt": ctx.now,
    }
    collection_id = new_id()
    ctx.tx.insert("collection", collection_id, data, org=org, parent=parent)
    row = ctx.tx.get_row("collection", collection_id)
    assert row is not None
    return created(collection_view(ctx, row), ctx.url(f"/collections/{collection_id}"))


def get_collection(ctx: Ctx) -> Response:
    return ok(collection_view(ctx, find(ctx, "collection", ctx.params["collectionId"])))


def update_collection(ctx: Ctx) -> Response:
    row = find(ctx, "collection", ctx.params["collectionId"], Access.CONTENT)
    body = Fields(ctx.body(), ("title", "description", "defaultLevel"))
    data = dict(row.data)
    if body.has("title"):
        data["title"] = body.string("title", max_len=50)
    if body.has("description"):
        data["description"] = body.string("description", max_len=100)  # null: 400, as production
    if body.has("defaultLevel"):
        data["defaultLevel"] = default_level(body)
    data["updatedAt"] = ctx.now
    ctx.tx.update("collection", row.id, data)
    return ok(collection_view(ctx, find(ctx, "collection", row.id)))


def delete_collection(ctx: Ctx) -> Response:
    row = ctx.tx.get_row("collection", ctx.params["collectionId"])
    if row is None:
        return empty(204)
    find(ctx, "collection", row.id, Access.CONTENT_ADMIN)
    children = live_children(ctx.tx, row.id)
    if children:
        names = ", ".join(f"{c.kind} {c.data.get('title')!r}" for c in children[:3])
        raise conflict(
            "collection-not-empty",
            f"Collection {row.data['title']!r} still holds {len(children)} item(s) ({names}): "
            "move or delete them first",
        )
    for space in ctx.tx.rows("space", parent=row.id):  # soft-deleted spaces leave the collection
        ctx.tx.set_parent("space", space.id, None)
    ctx.tx.delete("collection", row.id)
    drop_resource(ctx.tx, row.id)
    return empty(205)


def move_collection(ctx: Ctx) -> Response:
    row = find(ctx, "collection", ctx.params["collectionId"], Access.CONTENT)
    move(ctx, row)
    return ok(collection_view(ctx, find(ctx, "collection", row.id)))


def transfer_collection(ctx: Ctx) -> Response:
    row = find(ctx, "collection", ctx.params["collectionId"], Access.CONTENT_ADMIN)
    target = Fields(ctx.body(), ("organization",)).string("organization", required=True)
    assert target is not None
    ctx.org(Access.CONTENT, target)
    if target == row.org:
        raise conflict("transfer-no-change", "Transfer would not result in any update")
    transfer_tree(ctx, row, target, None)
    return ok(collection_view(ctx, find(ctx, "collection", row.id)))


def collection_spaces(ctx: Ctx) -> Response:
    row = find(ctx, "collection", ctx.params["collectionId"])
    spaces = [
        space_view(ctx, space)
        for space in ctx.tx.rows("space", parent=row.id)
        if not space.data.get("deletedAt") and not is_purged(space, ctx.now)
    ]
    return paginate(ctx, spaces)


routes: list[BaseRoute] = [
    api_route("GET", ORG_BASE, list_collections),
    api_route("POST", ORG_BASE, create_collection),
    api_route("GET", BASE, get_collection),
    api_route("PATCH", BASE, update_collection),
    api_route("DELETE", BASE, delete_collection),
    api_route("POST", BASE + "/move", move_collection),
    api_route("POST", BASE + "/transfer", transfer_collection),
    api_route("GET", BASE + "/spaces", collection_spaces),
]

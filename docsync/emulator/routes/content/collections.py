"""Collections: list (`nested`), create, get, PATCH, DELETE, move, transfer, and their spaces."""

from __future__ import annotations

from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.body import BOTH, CREATE, At, Body, Choice, Place, Text
from docsync.emulator.content import (
    LEVELS,
    answered_parent,
    collection_view,
    is_purged,
    live_collection,
    move,
    transfer_tree,
)
from docsync.emulator.errors import conflict
from docsync.emulator.grants import drop_resource
from docsync.emulator.http import Ctx
from docsync.emulator.paging import query_bool
from docsync.emulator.refs import live_children
from docsync.emulator.resource import Resource
from docsync.emulator.rules import Rules
from docsync.emulator.scopes import BY_ID
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields
from docsync.emulator.views import space_view

ORG_BASE = "/v1/orgs/{organizationId}/collections"
BASE = "/v1/collections/{collectionId}"


def _parent(at: At, parent: str, name: str) -> str:
    return live_collection(at.ctx, at.place.org, parent, name).id


class CollectionRules(Rules):
    def seeded_parent(self, place: Place, item: Doc) -> str | None:
        return answered_parent(item)

    def filter(self, ctx: Ctx, place: Place, rows: list[Row]) -> list[Row]:
        if query_bool(ctx, "nested") is False:
            return [row for row in rows if row.parent is None]
        return rows

    def parent(self, ctx: Ctx, place: Place, values: Doc) -> str | None:
        parent = values.get("parent")
        return None if parent is None else str(parent)

    def remove(self, ctx: Ctx, place: Place, row: Row) -> bool:
        children = live_children(ctx.tx, row.id)
        if children:
            names = ", ".join(f"{c.kind} {c.data.get('title')!r}" for c in children[:3])
            raise conflict(
                "collection-not-empty",
                f"Collection {row.data['title']!r} still holds {len(children)} item(s) "
                f"({names}): move or delete them first",
            )
        for space in ctx.tx.rows("space", parent=row.id):  # soft-deleted spaces leave it
            ctx.tx.set_parent("space", space.id, None)
        ctx.tx.delete("collection", row.id)
        drop_resource(ctx.tx, row.id)
        return True


COLLECTIONS = Resource(
    "collection",
    ORG_BASE,
    "collectionId",
    collection_view,
    scope=BY_ID,
    item_path=BASE,
    body=Body(
        (
            Text("title", max_len=50, default=""),
            Text("parent", ops=CREATE, stored=False, resolve=_parent),  # null: 400, as production
            # null: 400 on update, as production
            Text("description", max_len=100, nullable=CREATE, default=None),
            Choice("defaultLevel", nullable=BOTH, values=LEVELS, default="inherit"),
        ),
        optional_on_create=True,
    ),
    rules=CollectionRules(),
    location="/collections/{id}",
    stamps=("createdAt", "updatedAt"),
    snapshot=(),
)


def _transfer(ctx: Ctx, place: Place, row: Row) -> None:
    target = Fields(ctx.body(), ("organization",)).string("organization", required=True)
    assert target is not None
    ctx.org(Access.CONTENT, target)
    if target == row.org:
        raise conflict("transfer-no-change", "Transfer would not result in any update")
    transfer_tree(ctx, row, target, None)


def _spaces(ctx: Ctx, place: Place, row: Row) -> list[Row]:
    """The spaces in a collection, those in the bin left out."""
    return [
        space
        for space in ctx.tx.rows("space", parent=row.id)
        if not space.data.get("deletedAt") and not is_purged(space, ctx.now)
    ]


routes: list[BaseRoute] = [
    *COLLECTIONS.routes(),
    COLLECTIONS.action("move", lambda ctx, place, row: move(ctx, row)),
    COLLECTIONS.action("transfer", _transfer, Access.CONTENT_ADMIN),
    COLLECTIONS.listing("spaces", _spaces, lambda ctx, page: [space_view(ctx, s) for s in page]),
]

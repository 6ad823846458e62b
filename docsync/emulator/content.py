"""Shared rules of spaces and collections: a new space, lookup with access, retention, move and
transfer."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta
from typing import Any

from docsync.emulator.auth import Access, can
from docsync.emulator.errors import bad_request, conflict, not_found
from docsync.emulator.grants import drop_resource
from docsync.emulator.http import Ctx, new_id
from docsync.emulator.store import Row
from docsync.emulator.validate import ROLES, Fields

RETENTION = timedelta(days=7)
CONTAINERS = ("space", "collection")
#: a `defaultLevel`: a role, null (guest) or "inherit"
LEVELS = (*ROLES, "inherit")


def answered_parent(item: dict[str, Any]) -> str | None:
    """The collection a space or collection answered by a snapshot is in (None: none)."""
    parent = item.get("parent")
    return None if parent is None else str(parent)


def is_purged(row: Row, now: str) -> bool:
    """A space deleted more than 7 days ago is gone for good (GET and restore answer 404)."""
    deleted = row.data.get("deletedAt")
    return bool(deleted) and _parse(now) - _parse(str(deleted)) > RETENTION


def _parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


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


def find(ctx: Ctx, kind: str, id_: str, access: Access = Access.READ) -> Row:
    """A space or collection the caller may reach with `access`; 404 when unknown or purged."""
    row = ctx.tx.get_row(kind, id_)
    if row is not None and kind == "space" and is_purged(row, ctx.now):
        ctx.tx.delete("space", row.id)
        row = None
    missing = f"{kind.capitalize()} {id_!r} not found"
    if row is None or row.org is None:
        raise not_found(missing)
    ctx.org(access, row.org, unseen=missing)  # another organization's: as an unknown id
    return row


def live_collection(ctx: Ctx, org: str, id_: str, field: str) -> Row:
    """A collection of `org` named by a body field; 404 (naming the field) when unknown."""
    row = ctx.tx.get_row("collection", id_)
    if row is None or row.org != org:
        raise not_found(f"{field}: no collection {id_!r} in organization {org!r}")
    return row


def default_level(body: Fields) -> Any:
    """The `defaultLevel` field: a role, null (guest) or "inherit"."""
    return body.enum("defaultLevel", LEVELS, nullable=True)


def collection_view(ctx: Ctx, row: Row) -> dict[str, Any]:
    """A `Collection` with the caller's permissions."""
    body: dict[str, Any] = {
        "object": "collection",
        "id": row.id,
        "title": row.data["title"],
        "organization": row.org,
        "defaultLevel": row.data.get("defaultLevel", "inherit"),
        "urls": {
            "location": ctx.url(f"/collections/{row.id}"),
            "app": ctx.app_url(f"/o/{row.org}/c/{row.id}"),
        },
        "permissions": {
            "view": True,
            "admin": can(ctx.member, Access.CONTENT_ADMIN),
            "viewInviteLinks": can(ctx.member, Access.CONTENT_ADMIN),
            "create": can(ctx.member, Access.CONTENT),
        },
    }
    if row.data.get("description") is not None:
        body["description"] = row.data["description"]
    if row.parent:
        body["parent"] = row.parent
    return body


def _ancestors(ctx: Ctx, collection: str | None) -> list[str]:
    chain: list[str] = []
    while collection is not None and collection not in chain:
        chain.append(collection)
        found = ctx.tx.get_row("collection", collection)
        collection = found.parent if found else None
    return chain


def move(ctx: Ctx, row: Row) -> None:
    """POST .../move: `{parent?: id|null, position?: {before|after: pointer}}` (one required).

    409 when nothing would change; 404 for a parent or an anchor the target collection does
    not hold; 400 for a cycle or a malformed position. A position `{}` is the end of the level;
    `after` and `before` both, the place between two adjacent items.
    """
    body = Fields(ctx.body(), ("parent", "position"))
    if not body.has("parent") and not body.has("position"):
        raise bad_request("body: give parent, position or both")
    assert row.org is not None
    parent = row.parent
    if body.has("parent"):
        parent = body.string("parent", nullable=True)
        if parent is not None:
            live_collection(ctx, row.org, parent, "parent")
            if row.kind == "collection" and row.id in _ancestors(ctx, parent):
                raise bad_request("parent: a collection cannot move inside itself")
    position = body.obj("position")
    anchors = _position(position)
    if parent == row.parent and position is None:
        raise conflict("move-no-change", "Operation would not result in any update")
    if parent != row.parent:
        ctx.tx.set_parent(row.kind, row.id, parent)
    for side, target in anchors.items():
        if target == (row.kind, row.id):
            raise bad_request(f"position.{side}: an item cannot be placed next to itself")
        sibling = ctx.tx.get_row(*target)
        if sibling is None or sibling.org != row.org or sibling.parent != parent:
            raise not_found(f"position.{side}: no {target[0]} {target[1]!r} in the target level")
    if len(anchors) == 2:
        _between(ctx, row, parent, anchors["after"], anchors["before"])
        anchors = {"after": anchors["after"]}
    ctx.tx.move(row.kind, row.id, kinds=CONTAINERS, **anchors)


def _between(
    ctx: Ctx, row: Row, parent: str | None, after: tuple[str, str], before: tuple[str, str]
) -> None:
    """400 unless `after` and `before` are adjacent items of the level `row` goes to."""
    siblings = [
        (r.kind, r.id)
        for r in ctx.tx.rows(CONTAINERS, org=row.org, parent=parent, any_parent=False)
        if (r.kind, r.id) != (row.kind, row.id)
    ]
    if (after, before) not in itertools.pairwise(siblings):
        raise bad_request(
            f"position: after {after[1]!r} and before {before[1]!r} are not adjacent items of "
            "the level: there is no place between them"
        )


def _position(value: dict[str, Any] | None) -> dict[str, tuple[str, str]]:
    """The anchors of a position by side (`{}` or none: the end of the level)."""
    if value is None:
        return {}
    fields = Fields(value, ("before", "after"), "position.")
    return {side: _pointer(fields, side) for side in ("before", "after") if fields.has(side)}


def _pointer(fields: Fields, side: str) -> tuple[str, str]:
    pointer = fields.obj(side, required=True) or {}
    kind = Fields(pointer, ("type", "space", "collection"), f"position.{side}.").enum(
        "type", CONTAINERS, required=True
    )
    assert kind is not None
    target = Fields(pointer, ("type", kind), f"position.{side}.").string(kind, required=True)
    assert target is not None
    return kind, target


def transfer_tree(ctx: Ctx, row: Row, org: str, parent: str | None) -> None:
    """Move a space or collection (with everything inside) to `org` under `parent`; its grants
    (to teams and members of the old organization) stay behind."""
    if row.org != org:
        drop_resource(ctx.tx, row.id)
    ctx.tx.set_parent(row.kind, row.id, parent, org=org)
    if row.kind == "collection":
        for child in ctx.tx.rows(CONTAINERS, parent=row.id):
            transfer_tree(ctx, child, org, row.id)

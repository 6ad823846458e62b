"""Where a site's items stand among their siblings: a move next to a sibling or last of its
level, into or out of a group, and the positions and pointers that name where.

Siblings: the site spaces of one level (one section, or the site root); the sections, groups and
external links at the root of a site; the sections and external links of one group. Sorting
never changes an item's level.
"""

from __future__ import annotations

import itertools

from docsync.emulator import site_tree as tree
from docsync.emulator.errors import ApiError, bad_request
from docsync.emulator.http import Ctx
from docsync.emulator.store import Row
from docsync.emulator.validate import Fields

POINTER_TYPES = (tree.SITE_SPACE, tree.SECTION, tree.GROUP, tree.LINK)


def sibling_kinds(row: Row) -> tuple[str, ...]:
    """The kinds that share a level with `row`."""
    return (tree.SITE_SPACE,) if row.kind == tree.SITE_SPACE else tree.ROOT_KINDS


def place(ctx: Ctx, row: Row, side: str | None = None, anchor: Row | None = None) -> None:
    """Move `row` right `side` ("before"/"after") `anchor`, or last of its level without one.

    400 when the anchor is the item itself or not a sibling (another level or kind).
    """
    kinds = sibling_kinds(row)
    if anchor is None or side is None:
        ctx.tx.move(row.kind, row.id, kinds=kinds)
        return
    if (anchor.kind, anchor.id) == (row.kind, row.id):
        raise bad_request(f"position.{side}: an item cannot be placed next to itself")
    if anchor.parent != row.parent or anchor.kind not in kinds:
        raise bad_request(
            f"position.{side}: {anchor.kind} {anchor.id!r} is not a sibling of {row.kind} "
            f"{row.id!r}: sorting only reorders items of one level; move a section into or "
            "out of a group first (PATCH a section's siteSectionGroupId, a link's parent)"
        )
    where = {side: (anchor.kind, anchor.id)}
    ctx.tx.move(row.kind, row.id, kinds=kinds, **where)


def to_root_after(ctx: Ctx, site: Row, item: Row, group: Row) -> None:
    """Take a section, link or group out of `group` and put it at the root right after the
    group (after the root group that holds it, for a nested group)."""
    anchor = tree.top_group(ctx.tx, site, group)
    ctx.tx.set_parent(item.kind, item.id, site.id)
    ctx.tx.move(item.kind, item.id, after=(tree.GROUP, anchor.id), kinds=tree.ROOT_KINDS)


def regroup(ctx: Ctx, site: Row, item: Row, group: Row | None) -> None:
    """An update's group for a section, link or group: into `group` (last), or for None to the
    root right after the group that held it."""
    if group is None:
        if item.parent != site.id:
            held = tree.find_child(ctx.tx, site, tree.GROUP, item.parent or "")
            to_root_after(ctx, site, item, held)
    elif item.parent != group.id:
        ctx.tx.set_parent(item.kind, item.id, group.id)


def pointer(value: object, where: str, id_key: str = "id") -> tuple[str, str]:
    """`(type, id)` of a `{type, <id_key>}` pointer object (400 naming `where` when malformed)."""
    if not isinstance(value, dict):
        raise bad_request(f"{where}: must be an object {{type, {id_key}}}")
    fields = Fields(value, ("type", id_key), f"{where}.")
    kind = fields.enum("type", POINTER_TYPES, required=True)
    id_ = fields.string(id_key, required=True)
    assert kind is not None and id_ is not None
    return kind, id_


def resolve(ctx: Ctx, site: Row, target: tuple[str, str], where: str) -> Row:
    """The site's item a pointer names; 404 naming `where` when there is none."""
    kind, id_ = target
    return tree.find_child(ctx.tx, site, kind, id_, where)


def position(
    ctx: Ctx,
    site: Row,
    row: Row,
    value: object,
    id_key: str = "id",
    kinds: tuple[str, ...] = POINTER_TYPES,
) -> tuple[str | None, Row | None]:
    """The side and anchor of a `{before|after: pointer}` position for `row` (absent or `{}`:
    `(None, None)`, the end of its level). Production's schema allows both sides: then the two
    must be adjacent siblings of the item, and it goes between them."""
    if value is None:
        return None, None
    if not isinstance(value, dict):
        raise bad_request("position: must be an object {before} or {after}")
    if "before" in value and "after" in value:
        return _between(ctx, site, row, value, id_key, kinds)
    fields = Fields(value, ("before", "after"), "position.")
    sides = [side for side in ("before", "after") if fields.has(side)]
    if not sides:  # production's position has no required side: {} is the default place
        return None, None
    side = sides[0]
    return side, _anchor(ctx, site, value[side], side, id_key, kinds)


def _anchor(
    ctx: Ctx, site: Row, value: object, side: str, id_key: str, kinds: tuple[str, ...]
) -> Row:
    """The sibling a position names (404 when unknown)."""
    target = pointer(value, f"position.{side}", id_key)
    if target[0] not in kinds:
        raise bad_request(f"position.{side}.type: must be one of {', '.join(kinds)}")
    return resolve(ctx, site, target, f"position.{side}")


def sort_position(ctx: Ctx, site: Row, row: Row, value: object) -> tuple[str | None, Row | None]:
    """The position of a sort; an unknown anchor is a 400 there, as production answers."""
    try:
        return position(ctx, site, row, value)
    except ApiError as error:
        if error.status == 404:
            raise bad_request(error.message) from None
        raise


def _between(
    ctx: Ctx, site: Row, row: Row, value: dict[str, object], id_key: str, kinds: tuple[str, ...]
) -> tuple[str | None, Row | None]:
    """`after` and `before` both: the place between two adjacent siblings of the item."""
    Fields(value, ("before", "after"), "position.")
    before = _anchor(ctx, site, value["before"], "before", id_key, kinds)
    after = _anchor(ctx, site, value["after"], "after", id_key, kinds)
    siblings = [
        (r.kind, r.id)
        for r in ctx.tx.rows(sibling_kinds(row), parent=row.parent)
        if (r.kind, r.id) != (row.kind, row.id)
    ]
    pair = ((after.kind, after.id), (before.kind, before.id))
    if pair not in itertools.pairwise(siblings):
        raise bad_request(
            f"position: after {after.kind} {after.id!r} and before {before.kind} {before.id!r} "
            "are not adjacent siblings of the item: there is no place between them"
        )
    return "after", after

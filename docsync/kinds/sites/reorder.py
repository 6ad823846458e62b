"""The site's one reorder: re-reads its structure and moves only what is out of place, level by
level, with the fewest moves (`nested.order`); a root production wrapped is read as the wrapper
section's (`sites.wrapper`)."""

from __future__ import annotations

from typing import Any

from docsync.core.context import RunContext
from docsync.core.model import Action
from docsync.kinds.kind import Kind, Kinds
from docsync.kinds.nested.applied import AppliedChild
from docsync.kinds.nested.order import Move, plan_moves
from docsync.kinds.nested.payloads import Reorder
from docsync.kinds.sites.wrapper import wrapped


def pointer_type(kinds: Kinds, kind: str) -> str:
    found = kinds.named(kind)
    assert isinstance(found, AppliedChild), f"{kind} is not a site's child"
    return found.pointer_type


async def reorder(action: Action, run: RunContext, site: Kind) -> None:
    """Re-reads the structure and moves only what is out of place, level by level (the site's
    routes `structure`, `sort`): the order the API gives new items is not promised, so the
    moves are computed from what is there."""
    payload = action.payload
    if not isinstance(payload, Reorder):
        raise TypeError(f"{action.key}: expected a Reorder payload, got {payload!r}")
    kinds, at = site.kinds, {"org": run.org_id, "id": run.resolve(payload.site)}
    structure = await site.send(run.api, "structure", **at)
    for level in payload.levels:
        want = [run.id_of(address) for address in level.desired]
        types = {run.id_of(a): pointer_type(kinds, k) for a, k in level.kinds.items()}
        container = run.id_of(level.container) if level.container else None
        have = [i for i in current_order(structure, container) if i in types]
        if container is None and not have and (held := wrapped(structure)) is not None:
            have = [i for i in current_order(structure, str(held["id"])) if i in types]
        for move in plan_moves(have, want):
            await site.send(run.api, "sort", _sort_body(move, types), **at)


def _sort_body(move: Move, types: dict[str, str]) -> dict[str, Any]:
    anchor = move.after if move.after is not None else move.before
    assert anchor is not None
    where = "after" if move.after is not None else "before"
    return {
        "item": {"type": types[move.item], "id": move.item},
        "position": {where: {"type": types[anchor], "id": anchor}},
    }


def current_order(structure: dict[str, Any], container: str | None) -> list[str]:
    """Ids of the items of one level of a structure read: the root when `container` is None,
    else the children of that section (site spaces) or group (sections and links)."""
    items = structure.get("structure") or []
    if container is None:
        return [str(item["id"]) for item in items]
    for item in items:
        found = _children_of(item, container)
        if found is not None:
            return found
    return []


def _children_of(item: dict[str, Any], container: str) -> list[str] | None:
    if str(item.get("id")) == container:
        if item.get("object") == "site-section":
            return [str(s["id"]) for s in item.get("siteSpaces") or []]
        return [str(s["id"]) for s in item.get("children") or item.get("sections") or []]
    for section in item.get("sections") or []:
        if str(section.get("id")) == container:
            return [str(s["id"]) for s in section.get("siteSpaces") or []]
    return None

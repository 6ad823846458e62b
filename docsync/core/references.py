"""References a plan removes from under itself: an entry that names a resource the same plan
deletes (pruned, written `state: absent`, or left out of an exact list) or renames. Its request
would fail once the delete has run, or, where it sends none (a grant already in place), the next
plan would find nothing by that name: either way the reviewed plan would not hold, so it is
refused while planning, located at the reference."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from docsync.core.context import PlanContext
from docsync.core.model import Action


def removed_references(ctx: PlanContext) -> None:
    """Records a problem for each reference whose target this plan only deletes (a replace
    makes it again, under the same address: that one holds), or renames."""
    renamed_to = {
        (desired.kind, live_id): address
        for address, live_id in ctx.known_ids.items()
        if (desired := ctx.desired.by_address.get(address)) and address not in ctx.live.by_address
    }
    for path, target in ctx.references:
        live = ctx.live.by_address.get(target)
        new = renamed_to.get((live.kind, live.id)) if live is not None else None
        if new is not None and target not in ctx.desired.by_address:
            named = ctx.desired.by_address[new].name
            ctx.problem(
                path,
                f"names {target}, which this plan renames to {new}: after the apply the old "
                f"name names nothing; write {json.dumps(named)}",
            )
            continue
        actions = ctx.actions_at.get(target, [])
        if not actions or {a.verb for a in actions} != {"delete"}:
            continue
        deleted = actions[0]
        why = f" ({'; '.join(deleted.notes)})" if deleted.notes else ""
        ctx.problem(
            path,
            f"names {target}, which this plan deletes{why}: after the apply it would name "
            f"nothing; keep it, or name another{_rename_hint(ctx, target)}",
        )


def _rename_hint(ctx: PlanContext, target: str) -> str:
    """When the plan creates one resource of the deleted one's kind: perhaps it is renamed."""
    live = ctx.live.by_address.get(target)
    made = [a.address for a in ctx.actions if a.verb == "create" and live and a.kind == live.kind]
    if live is None or len(made) != 1:
        return ""
    return (
        f"; if {made[0]} is the same {live.kind} renamed, write `was: {json.dumps(live.name)}` "
        f"on the entry of {made[0]}: a rename keeps its id and what it holds"
    )


def looks_renamed(actions: Sequence[Action], keys: Mapping[str, str]) -> list[str]:
    """Warnings for a delete and a create of one kind whose fields are the same but its key
    (`keys`: the renamable kinds' key fields): a rename written as a new entry, which loses the
    resource's id and what it holds; `was:` keeps them."""

    def shape(action: Action, side: str) -> dict[str, Any]:
        key = keys[action.kind]
        return {c.field: getattr(c, side) for c in action.changes if c.field != key}

    found = []
    for deleted in (a for a in actions if a.verb == "delete" and a.kind in keys):
        alike = [
            a
            for a in actions
            if a.verb == "create"
            and a.kind == deleted.kind
            and shape(a, "after") == shape(deleted, "before")
        ]
        old = next((c.before for c in deleted.changes if c.field == keys[deleted.kind]), None)
        if len(alike) == 1 and old is not None:
            made = alike[0].address
            found.append(
                f"{deleted.address} is deleted and {made} created alike: this looks like a "
                f"rename; write `was: {json.dumps(old)}` on the entry of {made} to rename it in "
                "place (its id, and what it holds, kept)"
            )
    return found

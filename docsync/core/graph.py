"""Dependency edges between actions, and an order that respects them.

Creates and updates wait for the resources they refer to; a delete waits for every change that
stops a live resource from referring to what it deletes (decK's levels, but per resource)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from graphlib import CycleError, TopologicalSorter
from typing import Any

from docsync.core.errors import PlanError
from docsync.core.model import Action
from docsync.core.state import LiveResource, LiveState

_BRINGS_INTO_BEING = ("create", "replace", "restore")


def link(
    actions: list[Action],
    live: LiveState,
    matched: Collection[str] = (),
    singletons: Collection[str] = (),
) -> list[str]:
    """Fills `depends_on` of every action; returns problems (deletes that something needs).
    `matched`: the ids of the live resources an entry matched; `singletons`: the kinds of one
    resource (the organization's settings), whose one entry is what lets go."""
    by_address: dict[str, list[Action]] = defaultdict(list)
    by_live_id: dict[tuple[str, str], list[Action]] = defaultdict(list)
    deleted_under: dict[str, list[Action]] = defaultdict(list)
    for action in actions:
        by_address[action.address].append(action)
        if action.live_id is not None:
            by_live_id[(action.kind, action.live_id)].append(action)
        if action.verb == "delete":
            for ancestor in _ancestors(action.address):
                deleted_under[ancestor].append(action)
    holders = _holders(live)
    problems: list[str] = []
    for action in actions:
        needs: list[Action] = []
        if action.verb == "replace":
            problems += _replacing_held(action, holders, by_address)
            # Its delete, like any, waits for the changes that stop others from naming it.
            needs += [
                a
                for holder in holders.get(action.address, [])
                for a in by_address.get(holder.address, [])
                if a.verb == "update" and _releases(a, action.address)
            ]
        if action.verb != "delete":
            for target in set(action.payload.refs()) | _ancestors(action.address):
                needs += [a for a in by_address.get(target, []) if a.verb in _BRINGS_INTO_BEING]
            # Several actions on one address run in plan order (an update before its reorder),
            # after the delete of a live resource the address named: it now names another one
            # (a new section titled as one that goes, a site space under a renamed section's
            # old title), which the API may refuse beside the old one.
            same_address = by_address[action.address]
            needs += [a for a in same_address if a.verb == "delete"]
            needs += same_address[: same_address.index(action)]
        else:
            for holder in holders.get(action.address, []):
                # A holder renamed or moved in this plan acts under its new address.
                holder_actions = list(by_address.get(holder.address, []))
                holder_actions += [
                    a
                    for a in by_live_id.get((holder.kind, holder.id), [])
                    if a.address != holder.address
                ]
                # A holder inside a resource deleted or replaced (a site space of a site that
                # goes) lets go with it.
                holder_actions += [
                    a
                    for above in _ancestors(holder.address)
                    for a in by_address.get(above, [])
                    if a.verb in ("delete", "replace")
                ]
                if not any(_releases(a, action.address) for a in holder_actions):
                    where = f"{action.location}: " if action.location else ""
                    entry = bool(holder_actions) or holder.id in matched
                    problems.append(
                        f"{where}{action.address} cannot be deleted: "
                        + _how_to_release(holder, action.address, entry, holder.kind in singletons)
                    )
                needs += holder_actions
            # Children that are deleted go first.
            needs += deleted_under.get(action.address, [])
        # Kinds may have set dependencies of their own (a site's publish waits for its tree).
        action.depends_on = sorted(
            {a.key for a in needs if a is not action} | set(action.depends_on)
        )
    return problems


def _how_to_release(holder: LiveResource, target: str, entry: bool, singleton: bool) -> str:
    """Who still names the target, in which fields, and what lets go: its entry, or (no entry
    matches it: moved or renamed by key, which makes another resource) one pinning its id. A
    site's part no entry matches goes by its site's entry (its structure written without it,
    or the site deleted); the organization's one resource (its settings), when no manifest
    writes it, by writing it."""
    says = f"{holder.address} still refers to it"
    fields = [name for name, value in holder.fields.items() if _names(value, target)]
    within = f"{says} in `{', '.join(fields)}`" if fields else says
    if singleton and not entry:
        field = fields[0] if fields else "..."
        return (
            f"{within}, and no manifest writes `{holder.kind}`: write `{holder.kind}: "
            f"{{{field}: ...}}` naming another one, or null, in the same plan"
        )
    if entry or singleton:
        return f"{within}: change that in its entry, or delete the entry, in the same plan"
    if "]." in holder.address:
        site = holder.address.split("].", 1)[0] + "]"
        return (
            f"{says} (id {holder.id}): write {site}'s structure without it, or delete {site}, "
            "in the same plan"
        )
    return (
        f"{says} and no entry matches it (id {holder.id}): write one pinning `id: "
        f"{holder.id}` that moves or renames it, or deletes it with `state: absent`"
    )


def _names(value: Any, target: str) -> bool:
    """Whether a field's value names the address `target`, at any depth."""
    if isinstance(value, dict):
        return any(_names(item, target) for item in value.values())
    if isinstance(value, list | tuple | set):
        return any(_names(item, target) for item in value)
    return bool(value == target)


def _replacing_held(
    action: Action,
    holders: dict[str, list[LiveResource]],
    by_address: dict[str, list[Action]],
) -> list[str]:
    """A replace deletes the live resource before it creates the new one, and the API refuses
    to delete what another resource names (the organization's default site): refuse it while
    planning, located, rather than fail half-way through an apply."""
    problems = []
    for holder in holders.get(action.address, []):
        holder_actions = by_address.get(holder.address, [])
        if any(_releases(a, action.address) for a in holder_actions):
            continue
        where = f"{action.location}: " if action.location else ""
        problems.append(
            f"{where}{action.address} would be replaced (deleted, then created anew), but "
            f"{holder.address} refers to it and the API refuses to delete it: point "
            f"{holder.address} elsewhere in one apply, then replace it in the next"
        )
    return problems


def _ancestors(addr: str) -> set[str]:
    parts = addr.split("].")
    return {"].".join(parts[:i]) + "]" for i in range(1, len(parts))}


def _holders(live: LiveState) -> dict[str, list[LiveResource]]:
    """address -> the live resources that refer to it."""
    found: dict[str, list[LiveResource]] = defaultdict(list)
    for group in live.by_kind.values():
        for resource in group:
            for target in resource.refs:
                found[target].append(resource)
    return found


def _releases(action: Action, addr: str) -> bool:
    """Whether the action stops its resource from referring to `addr`."""
    if action.verb in ("delete", "replace"):
        return True
    return any(c.before == addr and c.after != addr for c in action.changes)


def order(actions: list[Action]) -> list[Action]:
    """A stable topological order: among ready actions, the planner's own order wins."""
    position = {a.key: i for i, a in enumerate(actions)}
    by_key = {a.key: a for a in actions}
    sorter: TopologicalSorter[str] = TopologicalSorter()
    for action in actions:
        sorter.add(action.key, *[d for d in action.depends_on if d in by_key])
    try:
        sorter.prepare()
    except CycleError as error:
        cycle = " -> ".join(error.args[1])
        raise PlanError(f"the plan has a dependency cycle: {cycle}") from error
    result: list[Action] = []
    while sorter.is_active():
        ready = sorted(sorter.get_ready(), key=position.__getitem__)
        for key in ready:
            result.append(by_key[key])
            sorter.done(key)
    return result

"""The one matching routine of every list docsync manages, flat (teams) or nested (a site's
sections, a section's site spaces): manifest entries meet live resources by pinned `id` or by
natural key; a stale pinned id is a located problem (never a create that the next plan deletes
again); protected entries are never deleted; what no entry matches is left to the caller, who
deletes it (an exact list, or a pruned kind) or reports it as unmanaged."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from docsync.core.paths import Path
from docsync.core.state import DesiredResource, LiveResource, LiveState

Problem = Callable[[Path, str], None]


@dataclass
class Reconciliation:
    """The outcome of matching one list: `entries` in manifest order, each with its live match
    (None: to create); absent entries only when something is there to delete; entries pinned to a
    missing id and protected entries asked to go are left out (their problem is recorded).
    `unmatched`: live resources no entry took, in live order."""

    entries: list[tuple[DesiredResource, LiveResource | None]] = field(default_factory=list)
    unmatched: list[LiveResource] = field(default_factory=list)
    matched: dict[str, LiveResource] = field(default_factory=dict)


def _binned(resource: LiveResource) -> bool:
    """A deleted resource read back because an entry pins it: it matches only by that id."""
    return resource.address.endswith("(deleted)")


def reconcile(
    desired: Sequence[DesiredResource],
    live: Sequence[LiveResource],
    *,
    noun: str,
    problem: Problem,
    within: str = "in the organization",
    pinnable: bool = True,
    missing_pin: Callable[[DesiredResource], None] | None = None,
    fallback: Callable[[DesiredResource, Collection[LiveResource]], LiveResource | None]
    | None = None,
) -> Reconciliation:
    """Matches `desired` (one list of the manifest) against `live` (the same list, read).
    `pinnable`: its entries may pin an id (a part's, a site's redirects, cannot).

    Pinned ids are matched first, so an entry renamed through its id keeps its resource even
    when another entry now has its old key; then keys, then the names entries had (`was:`).
    Last, `fallback` may match an entry no key matches (a site space written without `path`,
    or at a new one) among the live resources no entry took by its id, key or old name."""
    by_id = {r.id: r for r in live}
    by_key: dict[str, list[LiveResource]] = defaultdict(list)
    for resource in live:
        if not _binned(resource):
            by_key[resource.key].append(resource)
    taken: set[str] = set()
    found: dict[int, LiveResource | None] = {}
    dropped: set[int] = set()
    for index, item in enumerate(desired):
        if not item.pinned_id:
            continue
        match = by_id.get(item.pinned_id)
        if match is None or match.id in taken:
            if not item.absent:
                if missing_pin is not None:
                    missing_pin(item)
                else:
                    problem(*stale_pin(item, noun, within))
            dropped.add(index)
            continue
        taken.add(match.id)
        found[index] = match
    renamed: list[int] = []
    fallen: list[int] = []
    for index, item in enumerate(desired):
        if item.pinned_id:
            continue
        candidates = [r for r in by_key.get(item.key, []) if r.id not in taken]
        if not candidates and item.was is not None:
            renamed.append(index)  # once every entry has taken what its own key names
            continue
        if len(candidates) > 1:
            ids = ", ".join(r.id for r in candidates)
            how = (
                "pin the one you mean with `id:` in the manifest, or rename the others"
                if pinnable
                else "rename or delete all but one in the app, so that it says which one it is"
            )
            problem(
                item.path,
                f"{item.address}: {len(candidates)} live {noun}s have this key (ids {ids}); {how}",
            )
            dropped.add(index)
            continue
        match = candidates[0] if candidates else None
        if match is None and fallback is not None:
            fallen.append(index)  # once every entry has taken what its own key names
            continue
        if match is not None:
            taken.add(match.id)
        found[index] = match
    for index in renamed:
        found[index] = _renamed(desired[index], live, taken, noun, problem)
    if fallen and fallback is not None:
        # what no entry took by its id, its key or the name it had, in live order (made once:
        # a list per entry would be quadratic)
        free = {r.id: r for r in live if r.id not in taken}
        for index in fallen:
            match = fallback(desired[index], free.values())
            if match is not None:
                taken.add(match.id)
                free.pop(match.id)
            found[index] = match
    result = Reconciliation()
    for index, item in enumerate(desired):
        if index in dropped:
            continue
        match = found.get(index)
        if match is not None:
            result.matched[item.address] = match
        if item.absent:
            if match is None:
                continue  # already gone
            if item.protect:
                problem(item.path, "is protected (`protect: true`) and cannot be deleted")
                continue
        result.entries.append((item, match))
    result.unmatched = [r for r in live if r.id not in taken]
    return result


def _renamed(
    item: DesiredResource,
    live: Sequence[LiveResource],
    taken: set[str],
    noun: str,
    problem: Problem,
) -> LiveResource | None:
    """The live resource an entry renames (`was:`); None when none has that name (renamed
    already, or never there: the entry creates it)."""
    named = [r for r in live if item.was in (r.name, r.key) and not _binned(r)]
    free = [r for r in named if r.id not in taken]
    if len(free) > 1:
        ids = ", ".join(r.id for r in free)
        problem(
            (*item.path, "was"),
            f"{len(free)} live {noun}s are named {item.was!r} (ids "
            f"{ids}): pin the one renamed with `id:` instead",
        )
        return None
    if not free and named:
        problem(
            (*item.path, "was"),
            f"{named[0].address} is taken by another entry that keeps the name {item.was!r}: "
            "one resource cannot be both",
        )
        return None
    if free:
        taken.add(free[0].id)
        return free[0]
    return None


def renamed_live(live: LiveState, kind: str, key: str, was: str | None) -> LiveResource | None:
    """The live resource an entry of `kind` keyed `key` renames with `was:`, found as
    `reconcile` will match it: the name it had counts only when its own key names nothing live,
    and when one live resource alone has it. Keys made before any match ask here (a space's or
    collection's in a collection renamed in the same plan, which holds them under its live
    key)."""
    if was is None or any(r.key == key for r in live.named.get((kind, key), ())):
        return None
    named = [r for r in live.named.get((kind, was), ()) if not _binned(r)]
    return named[0] if len(named) == 1 else None


def stale_pin(item: DesiredResource, noun: str, within: str) -> tuple[Path, str]:
    """Where and why an entry pinned to an id that is not there is refused."""
    return (
        (*item.path, "id"),
        f"no {noun} with id {item.pinned_id!r} {within}; remove `id:` to create it anew",
    )


def was(desired: DesiredResource, live: LiveResource) -> list[str]:
    """The note of an update that renames or moves a resource."""
    return [f"was {live.address}"] if desired.address != live.address else []

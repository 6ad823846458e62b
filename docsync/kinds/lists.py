"""One list planned, flat (a kind's entries in the organization) or nested (a section's site
spaces): matched by `core.reconcile`, then turned into actions by the kind's own create, update
and delete hooks. Whatever is true of every list lives here (and in `reconcile`) once: stale
pinned ids and protected entries refused, known ids, creates chained in manifest order, the
"was ..." note of a rename, what no entry takes deleted (an exact list) or pruned or kept (a
managed one).

And what a list does with items the API answered otherwise than their kind relies on (a field
it uses missing, or of another type): production's answers differ from its own document, and
one odd resource must not stop a whole plan. Such an item is kept as a live resource that
nothing plans (`odd_resource`): an entry it matches is left out of the plan, named, and so is
what refers to that entry; it is never deleted as unmatched; when its key cannot be read
either, no entry could be told from it, so the creates of its list are held back (one of them
may be it)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from docsync.api.answers import odd, odd_field, odd_items
from docsync.core.context import PlanContext
from docsync.core.model import Action, address
from docsync.core.ownership import prune_decision
from docsync.core.reconcile import Reconciliation, reconcile, stale_pin, was
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.declaration import Declaration

#: the note of a delete that only the list's exactness asks for
NOT_WRITTEN = "not in the manifest's list, which is exact"


@dataclass
class Changes:
    """A part's list reconciled (a site's redirects, a team's members): what its parent's
    request must do, entries in the manifest's order, live items in the API's."""

    created: list[DesiredResource] = field(default_factory=list)
    changed: list[tuple[DesiredResource, LiveResource]] = field(default_factory=list)
    kept: list[tuple[DesiredResource, LiveResource]] = field(default_factory=list)
    deleted: list[LiveResource] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.created or self.changed or self.deleted)


class Container(Protocol):
    """The parent a list is planned under (a site, a section)."""

    @property
    def address(self) -> str: ...


@dataclass(frozen=True)
class Place:
    """Where one list is planned: in the organization (a flat kind's entries), under a
    parent (a site's sections, a section's site spaces) with the site's planning state, or as
    a part of a resource (`container`), whose list's `changes` its one request makes."""

    ctx: PlanContext
    parent: Container | None = None
    #: what planning the parent's lists gathers (a site's `SiteState`), for the kind's hooks
    tree: object = None
    container: str | None = None
    changes: Changes | None = None

    @property
    def within(self) -> str:
        """The container, in messages: `in the organization`, `in site["Docs"]`."""
        container = self.container or (self.parent.address if self.parent else None)
        return f"in {container}" if container else "in the organization"


@dataclass(frozen=True)
class Steps:
    """What planning one list does with each entry: the action of a create, of an update, of a
    delete (each may record a problem instead and return None), and what a pinned id that names
    nothing is (a located problem by default). The framework class of a kind gives these; a
    kind with rules of its own passes its own."""

    create: Callable[[DesiredResource, Place], Action | None]
    update: Callable[[DesiredResource, LiveResource, Place], Action | None]
    #: never asked for a protected entry (`reconcile` refuses that)
    delete: Callable[[LiveResource, DesiredResource | None, Place], Action | None]
    missing_pin: Callable[[DesiredResource, Place], None] | None = None


def _fallback(
    declared: Declaration,
) -> Callable[[DesiredResource, Collection[LiveResource]], LiveResource | None]:
    """A live item no key matches, for an entry no key matches: the one with the entry's value
    of the declaration's `matched_by` field (a site space publishing the entry's space)."""
    by = declared.matched_by

    def found(desired: DesiredResource, free: Collection[LiveResource]) -> LiveResource | None:
        if by is None:
            return None
        return next((r for r in free if r.fields.get(by) == desired.fields.get(by)), None)

    return found


def plan_list(
    declared: Declaration,
    steps: Steps,
    desired: Sequence[DesiredResource],
    live: Sequence[LiveResource],
    at: Place,
) -> Reconciliation:
    """Creates, updates and deletes that make `live` what `desired` writes, at `at`."""
    ctx = at.ctx

    def missing(item: DesiredResource) -> None:
        if steps.missing_pin is not None:
            steps.missing_pin(item, at)
        else:
            ctx.problem(*stale_pin(item, declared.noun, at.within))

    result = reconcile(
        desired,
        live,
        noun=declared.noun,
        problem=ctx.problem,
        within=at.within,
        pinnable=not declared.part,
        missing_pin=missing,
        fallback=_fallback(declared),
    )
    entries = {item.address: item for item in desired}
    for desired_address, matched in result.matched.items():
        ctx.matched(entries[desired_address], matched)
    _hold_back(result, live, declared.noun, at)
    previous: Action | None = None
    for item, found in result.entries:
        if item.absent:
            if found is not None:
                steps.delete(found, item, at)
        elif found is None:
            created = steps.create(item, at)
            if created is not None and declared.chained:
                if previous is not None:
                    created.depends_on.append(previous.key)
                previous = created
        else:
            updated = steps.update(item, found, at)
            if updated is not None and updated.verb == "update":
                updated.notes[:0] = was(item, found)
    for resource in result.unmatched:
        if resource.odd:
            owned, _ = prune_decision(ctx.loaded.manifest.prune, declared.section, resource.name)
            if declared.exact or (declared.prunable and owned):
                ctx.not_planned(resource.address, None, f"not deleted: {resource.odd}")
            continue
        if declared.exact:
            deleted = steps.delete(resource, None, at)
            if deleted is not None:
                deleted.notes.append(NOT_WRITTEN)
            continue
        owned, why = prune_decision(ctx.loaded.manifest.prune, declared.section, resource.name)
        if declared.prunable and owned:
            deleted = steps.delete(resource, None, at)
            if deleted is not None:
                deleted.notes.append(why)
        else:
            ctx.unmanaged.append(resource)
            ctx.why_kept[resource.address] = why
    return result


def odd_resources(
    declared: Declaration,
    items: Sequence[dict[str, Any]],
    live: LiveState,
    key: Callable[[dict[str, Any], LiveState], str] | None = None,
) -> list[LiveResource]:
    """A live resource for each item the list of `items` set aside (`answers.Listed`)."""
    return [odd_resource(declared, i, n, live, key) for n, i in enumerate(odd_items(items))]


def odd_resource(
    declared: Declaration,
    item: dict[str, Any],
    index: int,
    live: LiveState,
    key: Callable[[dict[str, Any], LiveState], str] | None = None,
) -> LiveResource:
    """A live item of a kind not as it relies on, with what can be read of it: its id, and its
    key unless the odd field is its key or where it is (its scope), else no key an entry could
    match (`unkeyed`)."""
    ident = item.get("id")
    scope = {f.wire_name for f in declared.fields if f.name == declared.scope}
    unkeyed = odd_field(item) in {declared.key, *scope}
    own = ""
    if not unkeyed:
        try:
            own = key(item, live) if key else str(item[declared.key])
        except (KeyError, TypeError, ValueError, AttributeError):
            unkeyed = True
    readable = isinstance(ident, str | int) and not isinstance(ident, bool) and ident != ""
    label = str(ident) if readable else f"without an id, {index + 1}"
    own = f"(unreadable {label})" if unkeyed else own
    resource = LiveResource(declared.name, label, own, address(declared.name, own), own, {}, item)
    resource.odd, resource.unkeyed = odd(item) or "answered otherwise", unkeyed
    return resource


def _hold_back(
    result: Reconciliation, live: Sequence[LiveResource], noun: str, at: Place
) -> Reconciliation:
    """`result` without the entries no action may be planned for: one matched to an odd
    resource, and, while the list holds an odd resource without a key, one that would be
    created (it may be that resource). Each is named on the plan (`PlanContext.unplanned`);
    what no entry matched stays in `unmatched`, where the list never deletes an odd one."""
    unkeyed = [r for r in live if r.odd and r.unkeyed]
    kept: list[tuple[DesiredResource, LiveResource | None]] = []
    for desired, found in result.entries:
        if found is not None and found.odd:
            at.ctx.not_planned(desired.address, desired.path, found.odd)
        elif found is None and not desired.absent and unkeyed:
            some = f"{len(unkeyed)} live {noun}s" if len(unkeyed) > 1 else f"a live {noun}"
            at.ctx.not_planned(
                desired.address,
                desired.path,
                f"not created: {some} {at.within} whose key docsync cannot read may be it "
                f"({unkeyed[0].odd})",
            )
        else:
            kept.append((desired, found))
    result.entries = kept
    return result

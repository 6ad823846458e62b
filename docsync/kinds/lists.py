"""One list planned, flat (a kind's entries in the organization) or nested (a section's site
spaces): matched by `core.reconcile`, then turned into actions by the kind's own create, update
and delete hooks. Whatever is true of every list lives here (and in `reconcile`) once: stale
pinned ids and protected entries refused, known ids, creates chained in manifest order, the
"was ..." note of a rename, what no entry takes deleted (an exact list) or pruned or kept (a
managed one)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from docsync.core.context import PlanContext
from docsync.core.model import Action
from docsync.core.ownership import prune_decision
from docsync.core.reconcile import Reconciliation, reconcile, stale_pin, was
from docsync.core.state import DesiredResource, LiveResource
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

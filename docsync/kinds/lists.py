"""One list planned, flat (a kind's entries in the organization) or nested (a section's site
spaces): matched by `core.reconcile`, then turned into actions by the kind's own create, update
and delete hooks. Whatever is true of every list lives here (and in `reconcile`) once: stale
pinned ids and protected entries refused, known ids, creates chained in manifest order, the
"was ..." note of a rename, what no entry takes deleted (an exact list) or pruned or kept (a
managed one)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from docsync.core.context import PlanContext
from docsync.core.model import Action
from docsync.core.ownership import prune_decision
from docsync.core.reconcile import Reconciliation, reconcile, was
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


class Lister(Protocol):
    """What plans one list: a kind (flat or nested), its hooks told where the list is."""

    @property
    def declaration(self) -> Declaration: ...

    #: creates wait for the one before, so they arrive in manifest order (the API appends)
    @property
    def chained(self) -> bool: ...

    def missing_pinned(self, desired: DesiredResource, at: Place) -> None: ...

    def fallback(
        self, desired: DesiredResource, free: Collection[LiveResource]
    ) -> LiveResource | None:
        """A live item to match an entry that no key matches (None: create it)."""

    def plan_create(self, desired: DesiredResource, at: Place) -> Action | None: ...

    def plan_update(
        self, desired: DesiredResource, live: LiveResource, at: Place
    ) -> Action | None: ...

    def plan_delete(
        self, live: LiveResource, desired: DesiredResource | None, at: Place
    ) -> Action | None:
        """Never asked for a protected entry (`reconcile` refuses that)."""


def plan_list(
    lister: Lister,
    desired: Sequence[DesiredResource],
    live: Sequence[LiveResource],
    at: Place,
) -> Reconciliation:
    """Creates, updates and deletes that make `live` what `desired` writes, at `at`."""
    ctx = at.ctx
    declared = lister.declaration
    result = reconcile(
        desired,
        live,
        noun=declared.noun,
        problem=ctx.problem,
        within=at.within,
        pinnable=not declared.part,
        missing_pin=lambda item: lister.missing_pinned(item, at),
        fallback=lister.fallback,
    )
    for desired_address, matched in result.matched.items():
        ctx.known_ids[desired_address] = matched.id
    previous: Action | None = None
    for item, found in result.entries:
        if item.absent:
            if found is not None:
                lister.plan_delete(found, item, at)
        elif found is None:
            created = lister.plan_create(item, at)
            if created is not None and lister.chained:
                if previous is not None:
                    created.depends_on.append(previous.key)
                previous = created
        else:
            updated = lister.plan_update(item, found, at)
            if updated is not None and updated.verb == "update":
                updated.notes[:0] = was(item, found)
    for resource in result.unmatched:
        if declared.exact:
            deleted = lister.plan_delete(resource, None, at)
            if deleted is not None:
                deleted.notes.append(NOT_WRITTEN)
            continue
        owned, why = prune_decision(ctx.loaded.manifest.prune, declared.section, resource.name)
        if declared.prunable and owned:
            deleted = lister.plan_delete(resource, None, at)
            if deleted is not None:
                deleted.notes.append(why)
        else:
            ctx.unmanaged.append(resource)
            ctx.why_kept[resource.address] = why
    return result

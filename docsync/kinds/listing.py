"""One list planned, flat (a kind's entries in the organization) or nested (a section's site
spaces): matched by `core.reconcile`, then turned into actions by the kind's own create, update
and delete hooks. Whatever is true of every list lives here (and in `reconcile`) once: stale
pinned ids and protected entries refused, known ids, creates chained in manifest order, the
"was ..." note of a rename, what no entry takes deleted (an exact list) or pruned or kept (a
managed one)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Protocol

from docsync.core.context import PlanContext
from docsync.core.kind import Declaration
from docsync.core.model import Action
from docsync.core.ownership import prune_decision
from docsync.core.reconcile import Reconciliation, reconcile, was
from docsync.core.state import DesiredResource, LiveResource

#: the note of a delete that only the list's exactness asks for
NOT_WRITTEN = "not in the manifest's list, which is exact"


class Lister(Protocol):
    """What plans one list: a flat kind itself, or a nested kind bound to one parent."""

    @property
    def declaration(self) -> Declaration: ...

    #: creates wait for the one before, so they arrive in manifest order (the API appends)
    @property
    def chained(self) -> bool: ...

    def missing_pinned(self, desired: DesiredResource, ctx: PlanContext) -> None: ...

    def fallback(
        self, desired: DesiredResource, free: Collection[LiveResource]
    ) -> LiveResource | None:
        """A live item to match an entry that no key matches (None: create it)."""

    def plan_create(self, desired: DesiredResource, ctx: PlanContext) -> Action | None: ...

    def plan_update(
        self, desired: DesiredResource, live: LiveResource, ctx: PlanContext
    ) -> Action | None: ...

    def plan_delete(
        self, live: LiveResource, ctx: PlanContext, desired: DesiredResource | None
    ) -> Action | None:
        """Never asked for a protected entry (`reconcile` refuses that)."""


def plan_list(
    lister: Lister,
    desired: Sequence[DesiredResource],
    live: Sequence[LiveResource],
    ctx: PlanContext,
    *,
    within: str = "in the organization",
) -> Reconciliation:
    """Creates, updates and deletes that make `live` what `desired` writes; `within` names the
    container in messages (`in site["Docs"]`)."""
    declared = lister.declaration
    result = reconcile(
        desired,
        live,
        noun=declared.noun,
        problem=ctx.problem,
        within=within,
        missing_pin=lambda item: lister.missing_pinned(item, ctx),
        fallback=lister.fallback,
    )
    for desired_address, matched in result.matched.items():
        ctx.known_ids[desired_address] = matched.id
    previous: Action | None = None
    for item, found in result.entries:
        if item.absent:
            if found is not None:
                lister.plan_delete(found, ctx, item)
        elif found is None:
            created = lister.plan_create(item, ctx)
            if created is not None and lister.chained:
                if previous is not None:
                    created.depends_on.append(previous.key)
                previous = created
        else:
            updated = lister.plan_update(item, found, ctx)
            if updated is not None and updated.verb == "update":
                updated.notes[:0] = was(item, found)
    for resource in result.unmatched:
        if declared.exact:
            deleted = lister.plan_delete(resource, ctx, None)
            if deleted is not None:
                deleted.notes.append(NOT_WRITTEN)
            continue
        owned, why = prune_decision(ctx.loaded.manifest.prune, declared.section, resource.name)
        if declared.prunable and owned:
            deleted = lister.plan_delete(resource, ctx, None)
            if deleted is not None:
                deleted.notes.append(why)
        else:
            ctx.unmanaged.append(resource)
            ctx.why_kept[resource.address] = why
    return result

"""A part of a resource written as a keyed list (a site's redirects and share links, a team's
members): matched by the one reconciler through the one list planner, whose hooks here only
record what changes (`listing.Changes`); the part's own kind says what is equal (`same`) and
turns the changes into its parent's one request. Read, planned and written with its parent,
never on its own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docsync.core.context import PlanContext
from docsync.core.model import Action
from docsync.core.reconcile import Reconciliation
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.kind import Kind
from docsync.kinds.lists import Changes, Place, plan_list


class Part(Kind):
    """A part of a resource: read, planned and written with its parent, never on its own."""

    def wanted(self, manifest: Any, referenced: set[str]) -> bool:
        return False

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        return []

    def to_desired(self, ctx: PlanContext) -> list[DesiredResource]:
        return []

    def plan(self, ctx: PlanContext) -> Reconciliation | None:
        return None


class ListPart(Part):
    """The hooks of a keyed list part: matched entries compared by `same`, nothing planned
    on its own."""

    def same(self, desired: DesiredResource, live: LiveResource) -> bool:
        """Whether a matched entry and live item are equal (every written field, by default)."""
        return all(
            self.declaration.field(name).same(live.fields.get(name), value)
            for name, value in desired.fields.items()
        )

    def changes(
        self,
        desired: Sequence[DesiredResource],
        live: Sequence[LiveResource],
        ctx: PlanContext,
        container: str,
    ) -> Changes:
        """The list of `container` (the parent's address) reconciled."""
        found = Changes()
        plan_list(self, desired, live, Place(ctx, container=container, changes=found))
        return found

    # -- the list planner's hooks: record, make no action ---------------------------------------
    def plan_create(self, desired: DesiredResource, at: Place) -> Action | None:
        _recording(at).created.append(desired)
        return None

    def plan_update(self, desired: DesiredResource, live: LiveResource, at: Place) -> Action | None:
        record = _recording(at)
        (record.kept if self.same(desired, live) else record.changed).append((desired, live))
        return None

    def plan_delete(
        self, live: LiveResource, desired: DesiredResource | None, at: Place
    ) -> Action | None:
        _recording(at).deleted.append(live)
        return None


def _recording(at: Place) -> Changes:
    assert at.changes is not None, "a part's list is planned through ListPart.changes"
    return at.changes

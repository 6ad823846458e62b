"""A part of a resource (a site's redirects and customization, a team's members, a resource's
grants): read, planned and written with its parent, never on its own, so the hooks of reading
and planning are its parent's. One written as a keyed list is matched by the one reconciler
through the one list planner, whose steps here only record what changes (`lists.Changes`): the
part's parent turns the changes into its one request."""

from __future__ import annotations

from collections.abc import Sequence
from typing import final

from docsync.core.context import PlanContext
from docsync.core.model import Action
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.kind import Kind
from docsync.kinds.lists import Changes, Place, Steps, plan_list


class Part(Kind):
    """A part of a resource: its parent reads, plans and exports it."""


class ListPart(Part):
    """A part written as a keyed list: matched entries compared field by field (every field
    written), nothing planned on its own."""

    @final
    def same(self, desired: DesiredResource, live: LiveResource) -> bool:
        """Whether a matched entry and live item are equal (every written field)."""
        declared = {f.name: f for f in self.fields}
        return all(
            declared[name].same(live.fields.get(name), value)
            if name in declared
            else live.fields.get(name) == value
            for name, value in desired.fields.items()
        )

    @final
    def changes(
        self,
        desired: Sequence[DesiredResource],
        live: Sequence[LiveResource],
        ctx: PlanContext,
        container: str,
    ) -> Changes:
        """The list of `container` (the parent's address) reconciled: what its parent's request
        must do, nothing planned here."""
        found = Changes()

        def created(item: DesiredResource, at: Place) -> Action | None:
            found.created.append(item)
            return None

        def updated(item: DesiredResource, there: LiveResource, at: Place) -> Action | None:
            (found.kept if self.same(item, there) else found.changed).append((item, there))
            return None

        def deleted(there: LiveResource, item: DesiredResource | None, at: Place) -> Action | None:
            found.deleted.append(there)
            return None

        steps = Steps(created, updated, deleted)
        plan_list(self.declaration, steps, desired, live, Place(ctx, container=container))
        return found

"""One site's children as planning sees them: the parent of a list (`Parent`), a list as
planned (`Planned`), the live tree of one structure read (`LiveTree`) and what planning gathers
(`SiteState`). The nested kinds' hooks, the structure reader and the site's driver all stand on
this module, which imports none of them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from docsync.core.context import PlanContext, ref
from docsync.core.model import Action, FieldChange
from docsync.core.reconcile import Reconciliation
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.kind import Kinds
from docsync.kinds.lists import Place
from docsync.kinds.nested.order import apply_moves, placement, plan_moves
from docsync.kinds.nested.payloads import ChildChange, Level


@dataclass(frozen=True)
class Parent:
    """The container of one list: the site (`root`), or one of its children (a section)."""

    kind: str
    desired: DesiredResource
    live: LiveResource | None
    root: bool = False

    @property
    def address(self) -> str:
        return self.desired.address

    @property
    def container(self) -> str | None:
        """Where its live items are in the site's tree (None: it has none, being new)."""
        if self.root:
            return ""
        return self.live.id if self.live is not None else None


@dataclass(frozen=True)
class Planned:
    """One list as planned: its parent, its entries, their matches, the actions it added."""

    parent: Parent
    wanted: list[DesiredResource]
    result: Reconciliation
    actions: list[Action]


#: what the site adds to an exported item of its tree (a site space's customization override)
Extra = Callable[[LiveResource], dict[str, Any]]


@dataclass
class LiveTree:
    """One site's structure as read: each kind's items by container (the id of the item they
    are nested in, "" for the site), in the API's order."""

    by_container: dict[tuple[str, str], list[LiveResource]] = field(default_factory=dict)
    #: ids of the items of the root, in order (a site of sections)
    root_order: list[str] = field(default_factory=list)
    #: id of an item that holds siblings (a group) -> the ids of what stands in it, in order
    #: (its sections and links)
    holds: dict[str, list[str]] = field(default_factory=dict)

    def of(self, kind: str, container: str = "") -> list[LiveResource]:
        return self.by_container.get((kind, container), [])

    def add(self, kind: str, container: str, resource: LiveResource) -> None:
        self.by_container.setdefault((kind, container), []).append(resource)

    def items(self) -> list[LiveResource]:
        """Every child of the site, whatever its kind."""
        return [r for inner in self.by_container.values() for r in inner]


@dataclass
class SiteState:
    """What planning one site's children knows and gathers, as the kinds' hooks see it: the
    entries and live items matched so far, the actions added, the reorder's levels. The driver
    (the site's, `SiteTree`) walks the kinds over it. `site_live` is None when the site is
    created (or replaced)."""

    ctx: PlanContext
    site: DesiredResource
    site_live: LiveResource | None
    live_tree: LiveTree
    #: every kind (the catalogue): the kinds nested under a site, their declarations
    kinds: Kinds
    actions: list[Action] = field(default_factory=list)
    reorders: list[Level] = field(default_factory=list)
    moved_lines: list[FieldChange] = field(default_factory=list)
    #: some level of the reorder is only checked (the API places new items where it likes)
    placed_by_api: bool = False
    #: desired address -> its live match, every level
    matches: dict[str, LiveResource] = field(default_factory=dict)
    #: kind -> every entry written of it, for the lists planned, in plan order
    planned: dict[str, list[DesiredResource]] = field(default_factory=dict)
    #: action key -> the desired address of its parent
    parent_of: dict[str, str] = field(default_factory=dict)
    #: live address -> the desired address of the entry that matched it
    known_as: dict[str, str] = field(default_factory=dict)

    def add(self, action: Action, parent: Parent) -> Action:
        if not isinstance(action.payload, ChildChange):
            action.payload = ChildChange()
        if action.payload.site is None:
            action.payload.site = ref(self.site.address)
        self.actions.append(action)
        self.parent_of[action.key] = parent.address
        return self.ctx.add(action)

    def desired_of(self, kind: str) -> list[DesiredResource] | None:
        """The entries of `kind` in the lists planned (None: no list of it is written)."""
        return self.planned.get(kind)

    def as_desired(self, live_address: str) -> str:
        """The address under which the plan knows a live child (its new title if renamed)."""
        if self.site_live is not None and live_address == self.site_live.address:
            return self.site.address
        return self.known_as.get(live_address, live_address)

    def addresses_by_id(self, *kinds: str) -> dict[str, str]:
        """Live id -> desired address of every matched entry of `kinds`."""
        return {
            self.matches[d.address].id: d.address
            for kind in kinds
            for d in self.planned.get(kind, [])
            if d.address in self.matches
        }

    # -- order -------------------------------------------------------------------------------
    def current(
        self, live: list[LiveResource], matched: dict[str, LiveResource], present: list[str]
    ) -> list[str]:
        """The order the API will show after creates (appended, in manifest order) and deletes."""
        by_id = {r.id: address for address, r in matched.items()}
        kept = set(present)
        order = [by_id[r.id] for r in live if r.id in by_id and by_id[r.id] in kept]
        return order + [d for d in present if d not in matched]

    def plan_order(
        self,
        container: str | None,
        kinds: dict[str, str],
        current: list[str],
        desired: list[str],
        placed_by_api: bool = False,
        *,
        known_when_new: bool,
    ) -> None:
        """Adds one level to the site's reorder when its order after the creates and deletes
        (simulated as the API behaves: new items last) is not the manifest's, or when the API
        places some of its items (created, or moved between groups): where it puts them is not
        promised, so the apply checks that level once they are in, and moves only what is out
        of place (possibly nothing). `known_when_new`: on a new site, which holds only what
        this apply creates one after the other, the level's order needs no check."""
        simulated = sorted(current) == sorted(desired)
        moves = plan_moves(current, desired) if simulated and current != desired else []
        known = self.site_live is None and known_when_new
        if not moves and (known or not (placed_by_api and len(desired) > 1)):
            return
        self.placed_by_api |= not moves
        after = apply_moves(current, moves)
        for move in moves:
            self.moved_lines.append(
                FieldChange(
                    move.item,
                    placement(current, move.item),
                    placement(after, move.item),
                    reference=True,  # shown as written: `first -> after section["API"]`
                )
            )
        self.reorders.append(Level(container, desired, kinds))


def under(at: Place) -> tuple[Parent, SiteState]:
    """The parent and the site's state of a list planned under a parent of a site."""
    parent, tree = at.parent, at.tree
    assert isinstance(parent, Parent) and isinstance(tree, SiteState), "a list with no parent"
    return parent, tree

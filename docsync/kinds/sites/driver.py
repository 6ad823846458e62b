"""The site's driver for its children: walks the kinds the catalogue nests under a site (and
under them, recursively), plans each written list through the one list planner with the kind's
own hooks, then does what is true of any site: the old layout removed first when the site
switches between sections and root site spaces, paths handed over in an order the API accepts,
deletes last, and one reorder of the fewest moves. It names no child kind."""

from __future__ import annotations

from typing import Any

from docsync.core.model import Action
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.lists import Place, plan_list
from docsync.kinds.nested.kind import NestedKind, every_nested_kind, nested_kinds
from docsync.kinds.nested.payloads import PathStep, child
from docsync.kinds.nested.state import Parent, Planned, SiteState


class SiteTree(SiteState):
    """Plans one site's children: walks the kinds nested under a site over its `SiteState`."""

    # -- the walk ----------------------------------------------------------------------------
    def plan(self) -> None:
        root = Parent("site", self.site, self.site_live, root=True)
        kinds = nested_kinds(self.kinds, "site")
        leading = next((k for k in kinds if k.leads and k.written_list(root) is not None), None)
        switching = self._switch(root, kinds, leading) if leading else []
        for kind in kinds:
            if leading is not None and kind.layout not in (None, leading.layout):
                continue  # the other layout's list: its items are gone with the switch
            self._plan_list(kind, root, kind.to_desired(root, self))
        for kind in every_nested_kind(self.kinds):
            kind.plan(None, self)
        self._deletes_last(switching, self._handovers())

    def _plan_list(
        self,
        kind: NestedKind,
        parent: Parent,
        wanted: list[DesiredResource] | None,
    ) -> None:
        if wanted is None:
            return
        self.planned.setdefault(kind.name, []).extend(wanted)
        before = len(self.actions)
        live = kind.fetch(parent, self)
        result = plan_list(
            kind.declaration, kind.steps(), wanted, live, Place(self.ctx, parent, self)
        )
        self.matches |= result.matched
        self.known_as |= {live.address: desired for desired, live in result.matched.items()}
        kind.plan(Planned(parent, wanted, result, self.actions[before:]), self)
        for item, found in result.entries:
            if item.absent:
                continue  # left out: gone, or refused (a stale pinned id, an ambiguous key)
            below = Parent(kind.name, item, found)
            for inner in nested_kinds(self.kinds, kind.name):
                self._plan_list(inner, below, inner.to_desired(below, self))

    def _switch(
        self, root: Parent, kinds: tuple[NestedKind, ...], leading: NestedKind
    ) -> list[Action]:
        """A site has either sections or root site spaces: writing one layout's leading list
        (`leading`) where the other one's leading kind has live items removes the other
        layout's items first."""
        now = next((k for k in kinds if k.leads and k.fetch(root, self)), None)
        if now is None or now.layout == leading.layout:
            return []
        before = len(self.actions)
        for kind in kinds:
            if kind.layout in (None, leading.layout):
                continue
            for item in kind.fetch(root, self):
                kind.plan_delete(item, None, Place(self.ctx, root, self))
        for action in self.actions[before:]:
            action.notes = [f"the site now has {leading.section}: the old structure goes first"]
        return self.actions[before:]

    # -- what is true of every site ----------------------------------------------------------
    def _deletes_last(self, switching: list[Action], freeing: set[str]) -> None:
        """Deletes wait for the creates, updates and default moves of the same site, so no level
        is ever left without the default the manifest asked for; but those that free a path
        another item takes go first (`freeing`: the API refuses a path twice in a level), and
        so do those of an address another action of the site now names (a section renamed to
        the title of one that goes; a new section with the old title of a renamed one, and the
        site spaces under either): one address names one item at a time (`core.graph`)."""
        first = {a.key for a in switching}
        others = [a.key for a in self.actions if a.verb != "delete"]
        taken = {a.address for a in self.actions if a.verb != "delete"}
        freeing = freeing | {a.key for a in self.actions if a.address in taken}
        for action in self.actions:
            if action.verb == "delete" and action.key not in first | freeing:
                action.depends_on += others
            elif action.verb != "delete" and first:
                action.depends_on += sorted(first)

    def _handovers(self) -> set[str]:
        """An item that takes the path of another item of its level (its kind's items under
        one parent, for kinds whose paths are unique there) waits until that one is deleted
        or has moved to its own new path. Returns the deletes that must go first. Items that
        hand their paths round (a cycle) do it through a temporary path (`_swap`)."""
        unique = {d.name for d in self.kinds.declarations if d.paths_unique}
        holders = {
            (kind, container, r.fields.get("path")): r
            for (kind, container), items in self.live_tree.by_container.items()
            if kind in unique
            for r in items
        }
        by_live_id = {a.live_id: a for a in self.actions if a.live_id}
        edges: dict[str, str] = {}
        for action in self.actions:
            path = next((c.after for c in action.changes if c.field == "path"), None)
            if action.verb not in ("create", "update") or path is None:
                continue
            container = self._container(self.parent_of[action.key])
            if action.kind not in unique or container is None:
                continue  # under a new parent, no path is taken yet
            holder = holders.get((action.kind, container, path))
            other = by_live_id.get(holder.id) if holder is not None else None
            if holder is None or other is action:
                continue
            if other is not None and (
                other.verb == "delete" or any(c.field == "path" for c in other.changes)
            ):
                edges[action.key] = other.key
            else:
                self._path_held(action, holder, path)
        keys = {a.key: a for a in self.actions}
        freeing: set[str] = set()
        in_cycle: set[str] = set()
        for source, target in edges.items():
            cycle, step = [source], target
            while step in edges and step not in cycle:
                cycle.append(step)
                step = edges[step]
            if step == source:
                if source not in in_cycle:
                    in_cycle.update(cycle)
                    _swap([keys[k] for k in cycle])
                continue
            keys[source].depends_on.append(target)
            if keys[target].verb == "delete":
                freeing.add(target)
        return freeing

    def _path_held(self, action: Action, holder: LiveResource, path: str) -> None:
        """`action` gives its item the path of a live item of its level that keeps it: the
        API refuses a path twice in a level, so the plan says how to free it."""
        noun = self.kinds.declarations.named(action.kind).noun
        entries = {d.address: d for ds in self.planned.values() for d in ds}
        taker = entries[action.address]
        kept = entries.get(self.as_desired(holder.address))
        held = f"path {path!r} is held by the live {noun} {holder.key!r} (id {holder.id})"
        if kept is None:
            why = f"which keeps it: write an entry for it with a new `path` to free {path!r}"
        elif "path" in kept.fields:
            why = f"whose entry (at {self.ctx.where(kept.path)}) writes it too: one path a level"
        else:
            why = (
                f"whose entry (at {self.ctx.where(kept.path)}) writes no `path`, so it keeps it "
                f"(the API refuses a path twice in a level): write a new `path` there to free it"
            )
        self.ctx.problem((*taker.path, "path"), f"{held}, {why}")

    def _container(self, parent: str) -> str | None:
        """The live container of the items planned under `parent` (None: it is new)."""
        if parent == self.site.address:
            return "" if self.site_live is not None else None
        matched = self.matches.get(parent)
        return matched.id if matched is not None else None


def _swap(cycle: list[Action]) -> None:
    """Items that hand their paths round (each wants the next one's): the first one's request
    does it all, through a temporary path, in an order the API accepts."""

    def wanted(action: Action) -> Any:
        return next(c.after for c in action.changes if c.field == "path")

    first = cycle[0]
    steps = [PathStep(first.live_id, f"docsync-swap-{first.live_id}"[:100])]
    steps += [PathStep(a.live_id, wanted(a)) for a in reversed(cycle[1:])]
    steps.append(PathStep(first.live_id, wanted(first)))
    child(first).paths = steps
    first.notes.append("paths handed round: through a temporary path, one at a time")
    for action in cycle:
        child(action).fields.pop("path", None)
        if action is not first:
            action.depends_on.append(first.key)

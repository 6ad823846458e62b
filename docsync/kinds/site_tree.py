"""The plan for a site's structure: sections with their site spaces, section groups, root site
spaces (creates, updates, defaults, deletes and the fewest moves). Children are matched by key
within their parent, so a renamed site or section keeps its children."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from docsync.core.context import PlanContext, ref
from docsync.core.kind import Field
from docsync.core.model import Action, FieldChange
from docsync.core.payloads import ChildChange, DefaultVia, Level, PathStep, child
from docsync.core.reconcile import reconcile, was
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.base import field_changes
from docsync.kinds.site_groups import GroupPlanning
from docsync.kinds.site_order import apply_moves, plan_moves
from docsync.kinds.site_shape import (
    LINK_FIELDS,
    SECTION_FIELDS,
    SITE_SPACE_FIELDS,
    LiveTree,
    Path,
    desired_child,
    desired_section,
    desired_site_space,
    written_fields,
)


# -- planning --------------------------------------------------------------------------------
@dataclass
class TreePlanner(GroupPlanning):
    """Plans one site's children. `site_live` is None when the site is created (or replaced)."""

    ctx: PlanContext
    site: DesiredResource
    site_live: LiveResource | None
    tree: LiveTree
    actions: list[Action] = field(default_factory=list)
    reorders: list[Level] = field(default_factory=list)
    moved_lines: list[FieldChange] = field(default_factory=list)
    #: some level of the reorder is only checked (the API places new items where it likes)
    placed_by_api: bool = False
    sections: list[DesiredResource] = field(default_factory=list)
    section_matches: dict[str, LiveResource] = field(default_factory=dict)
    #: group address -> its sections in order, when the manifest writes `sectionGroups`
    group_members: dict[str, list[str]] | None = None
    group_matches: dict[str, LiveResource] = field(default_factory=dict)
    #: every site space written, with its live match (None: created by this plan)
    site_spaces: list[tuple[DesiredResource, LiveResource | None]] = field(default_factory=list)
    #: the manifest's external links, when it writes `externalLinks`
    links: list[DesiredResource] | None = None
    link_matches: dict[str, LiveResource] = field(default_factory=dict)

    @property
    def site_ref(self) -> Any:
        return ref(self.site.address)

    def add(self, action: Action) -> Action:
        if not isinstance(action.payload, ChildChange):
            action.payload = ChildChange()
        if action.payload.site is None:
            action.payload.site = self.site_ref
        self.actions.append(action)
        return self.ctx.add(action)

    # matching within a container: the one reconciler, with a site space's own fallback
    @staticmethod
    def _by_space(desired: DesiredResource, free: list[LiveResource]) -> LiveResource | None:
        """A site space no path matches is the one publishing its space in that level, if
        any: written without `path`, or left at the path the API chose (a create whose path
        change never came, as after a crash): its path is changed, never deleted and made anew."""
        if desired.kind != "site_space":
            return None
        return next((r for r in free if r.fields["space"] == desired.fields.get("space")), None)

    def _change_set(
        self, fields: tuple[Field, ...], desired: DesiredResource, live: LiveResource | None
    ) -> list[FieldChange]:
        return field_changes(fields, desired, live, self.ctx)

    def _payload_fields(
        self, changes: list[FieldChange], fields: tuple[Field, ...]
    ) -> dict[str, Any]:
        refs = {f.name for f in fields if f.ref}
        return {c.field: ref(c.after) if c.field in refs else c.after for c in changes}

    def _delete(self, live: LiveResource, desired: DesiredResource | None) -> None:
        if desired is not None and desired.protect:
            self.ctx.problem(desired.path, "is protected (`protect: true`) and cannot be deleted")
            return
        where = self.ctx.where(desired.path) if desired else self.ctx.where(self.site.path)
        action = Action("delete", live.kind, live.address, [], where, live_id=live.id)
        if desired is None:
            action.notes.append("not in the manifest's list, which is exact")
        self.add(action)

    def plan_level(
        self,
        kind: str,
        fields: tuple[Field, ...],
        desired: list[DesiredResource],
        live: list[LiveResource],
        extra: ChildChange,
    ) -> dict[str, LiveResource]:
        """Creates, updates and deletes for one list; returns desired address -> live match."""
        from docsync.kinds.catalogue import CATALOGUE  # built from this package's modules

        parent = desired[0].parent if desired else None
        result = reconcile(
            desired,
            live,
            noun=CATALOGUE.named(kind).noun,
            problem=self.ctx.problem,
            within=f"in {parent or self.site.address}",
            fallback=self._by_space,
        )
        for address, matched in result.matched.items():
            self.ctx.known_ids[address] = matched.id
        previous_create: Action | None = None
        for item, found in result.entries:
            if item.absent:
                if found is not None:
                    self._delete(found, item)
                continue
            changes = self._change_set(fields, item, found)
            if found is None:
                action = Action("create", kind, item.address, changes, self.ctx.where(item.path))
                action.payload = replace(extra, fields=self._payload_fields(changes, fields))
                if previous_create is not None:
                    # Created one after the other, so they arrive in manifest order.
                    action.depends_on.append(previous_create.key)
                previous_create = self.add(action)
            elif changes:
                action = Action(
                    "update",
                    kind,
                    item.address,
                    changes,
                    self.ctx.where(item.path),
                    live_id=found.id,
                )
                action.payload = replace(extra, fields=self._payload_fields(changes, fields))
                action.notes += was(item, found)
                self.add(action)
        for resource in result.unmatched:
            self._delete(resource, None)  # the list is exact
        return result.matched

    def plan_order(
        self,
        container: str | None,
        kinds: dict[str, str],
        current: list[str],
        desired: list[str],
        placed_by_api: bool = False,
    ) -> None:
        """Adds one level to the site's reorder when its order after the creates and deletes
        (simulated as the API behaves: new items last) is not the manifest's, or when the API
        places some of its items (created, or moved between groups): where it puts them is not
        promised, so the apply checks that level once they are in, and moves only what is out
        of place (possibly nothing)."""
        simulated = sorted(current) == sorted(desired)
        moves = plan_moves(current, desired) if simulated and current != desired else []
        # A new site holds only what this apply creates, one after the other (the API appends):
        # its order is known without reading it back, but where grouping puts sections.
        known = self.site_live is None and (
            set(kinds.values()) == {"site_space"}
            or (container is None and "section_group" not in kinds.values())
        )
        if not moves and (known or not (placed_by_api and len(desired) > 1)):
            return
        self.placed_by_api |= not moves
        after = apply_moves(current, moves)
        for move in moves:
            before_pos = current.index(move.item) + 1
            self.moved_lines.append(
                FieldChange(
                    move.item, f"position {before_pos}", f"position {after.index(move.item) + 1}"
                )
            )
        self.reorders.append(Level(container, desired, kinds))

    # -- the levels of a site ----------------------------------------------------------------
    def plan(self) -> None:
        entry = self.site.entry
        switching: list[Action] = []
        if entry.sections is not None:
            if self.tree.root_spaces:
                switching = self._clear(self.tree.root_spaces, "sections")
            self.plan_sections(entry.sections, switching)
            if entry.externalLinks is not None:
                self.plan_links(entry.externalLinks)
        elif entry.externalLinks is not None:
            self.ctx.problem(
                (*self.site.path, "externalLinks"),
                "external links stand among a site's sections: write `sections` in the same "
                "entry (a site of root site spaces has no place for them)",
            )
        if entry.siteSpaces is not None and entry.sections is None:
            if self.tree.sections:
                switching = self._clear(self.tree.sections + self.tree.groups, "siteSpaces")
            self.plan_root_spaces(entry.siteSpaces, switching)
        if entry.sectionGroups is not None and entry.siteSpaces is None:
            self.plan_groups(entry.sectionGroups)
        self.plan_root_order()
        self._deletes_last(switching, self._path_handovers())

    def _clear(self, items: list[LiveResource], now: str) -> list[Action]:
        """A site has either sections or root site spaces: switching removes the old kind first."""
        before = len(self.actions)
        for item in items:
            self._delete(item, None)
        for action in self.actions[before:]:
            action.notes = [f"the site now has {now}: the old structure goes first"]
        return self.actions[before:]

    def _deletes_last(self, switching: list[Action], freeing: set[str]) -> None:
        """Deletes wait for the creates, updates and default moves of the same site, so no level
        is ever left without the default the manifest asked for; but those that free a path
        another item takes go first (`freeing`: the API refuses a path twice in a level)."""
        first = {a.key for a in switching}
        others = [a.key for a in self.actions if a.verb != "delete"]
        for action in self.actions:
            if action.verb == "delete" and action.key not in first | freeing:
                action.depends_on += others
            elif action.verb != "delete" and first:
                action.depends_on += sorted(first)

    def _path_level(self, kind: str, parent: str) -> str:
        """Paths are unique among a site's sections, and among the site spaces of one level."""
        return "sections" if kind == "section" else self._as_desired(parent)

    def _path_handovers(self) -> set[str]:
        """An item that takes the path of another item of its level waits until that one is
        deleted or has moved to its own new path. Returns the deletes that must go first.
        Items that swap paths (a cycle) are left as they are: the API refuses the swap."""
        live = self.tree.sections + self.tree.root_spaces
        live += [s for spaces in self.tree.spaces_of.values() for s in spaces]
        holders = {
            (self._path_level(r.kind, r.parent or ""), r.fields.get("path")): r for r in live
        }
        by_live_id = {a.live_id: a for a in self.actions if a.live_id}
        edges: dict[str, str] = {}
        for action in self.actions:
            path = next((c.after for c in action.changes if c.field == "path"), None)
            if action.verb not in ("create", "update") or path is None:
                continue
            cut = action.address.rfind('.site_space["')
            parent = action.address[:cut] if action.kind == "site_space" else ""
            holder = holders.get((self._path_level(action.kind, parent), path))
            other = by_live_id.get(holder.id) if holder is not None else None
            if other is None or other is action:
                continue
            if other.verb == "delete" or any(c.field == "path" for c in other.changes):
                edges[action.key] = other.key
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
                    self._swap([keys[k] for k in cycle])
                continue
            keys[source].depends_on.append(target)
            if keys[target].verb == "delete":
                freeing.add(target)
        return freeing

    @staticmethod
    def _swap(cycle: list[Action]) -> None:
        """Items that hand their paths round (each wants the next one's): the first one's
        request does it all, through a temporary path, in an order the API accepts."""

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

    def plan_sections(self, entries: list[Any], switching: list[Action]) -> None:
        site = self.site.address
        base: Path = (*self.site.path, "sections")
        desired = [desired_section(e, site, (*base, i)) for i, e in enumerate(entries)]
        self.sections = desired
        extra = ChildChange(default_via=DefaultVia("site"))
        matched = self.plan_level("section", SECTION_FIELDS, desired, self.tree.sections, extra)
        self.section_matches = matched
        for index, section in enumerate(desired):
            if section.absent:
                continue
            live = matched.get(section.address)
            if live is None and section.pinned_id:
                continue  # pinned to an id the site does not have: a problem, not a create
            spaces = section.entry.siteSpaces
            path: Path = (*base, index, "siteSpaces")
            if spaces is None:
                if live is None:
                    self.ctx.problem(
                        (*base, index),
                        "a new section needs `siteSpaces`: the API creates a section from its "
                        "first space",
                    )
                continue
            wanted = [
                desired_site_space(e, section.address, (*path, j), self.ctx)
                for j, e in enumerate(spaces)
            ]
            present = [w for w in wanted if not w.absent]
            if live is None and not present:
                self.ctx.problem(path, "a new section needs at least one site space")
                continue
            extra_spaces = ChildChange(
                section=ref(section.address),
                default_via=DefaultVia("section", ref(section.address)),
            )
            live_spaces = self.tree.spaces_of.get(live.id, []) if live else []
            before = len(self.actions)
            found = self.plan_level(
                "site_space", SITE_SPACE_FIELDS, wanted, live_spaces, extra_spaces
            )
            self.site_spaces += [(w, found.get(w.address)) for w in wanted]
            if live is None:
                self._made_by_section(section, present[0], self.actions[before:])
            self.plan_order(
                section.address,
                dict.fromkeys([w.address for w in present], "site_space"),
                self._current(live_spaces, found, present),
                [w.address for w in present],
                any(w.address not in found for w in present),
            )

    def _made_by_section(
        self, section: DesiredResource, first: DesiredResource, new: list[Action]
    ) -> None:
        """The section's create request makes its first site space: that space's create only
        sets what the request could not carry."""
        create = next(
            a for a in self.actions if a.verb == "create" and a.address == section.address
        )
        child(create).first_space = ref(first.fields.get("space"))
        child(create).first_site_space = first.address
        own = next((a for a in new if a.address == first.address and a.verb == "create"), None)
        if own is not None:
            child(own).made_by_section = True
            own.notes.append("made by its section's create request")

    def _current(
        self,
        live: list[LiveResource],
        matched: dict[str, LiveResource],
        present: list[DesiredResource],
    ) -> list[str]:
        """The order the API will show after creates (appended, in manifest order) and deletes."""
        by_id = {r.id: address for address, r in matched.items()}
        kept = {d.address for d in present}
        order = [by_id[r.id] for r in live if r.id in by_id and by_id[r.id] in kept]
        return order + [d.address for d in present if d.address not in matched]

    def plan_root_spaces(self, entries: list[Any], switching: list[Action]) -> None:
        base: Path = (*self.site.path, "siteSpaces")
        wanted = [
            desired_site_space(e, self.site.address, (*base, j), self.ctx)
            for j, e in enumerate(entries)
        ]
        present = [w for w in wanted if not w.absent]
        live = self.tree.root_spaces
        extra = ChildChange(default_via=DefaultVia("site"))
        found = self.plan_level("site_space", SITE_SPACE_FIELDS, wanted, live, extra)
        self.site_spaces += [(w, found.get(w.address)) for w in wanted]
        self.plan_order(
            None,
            dict.fromkeys([w.address for w in present], "site_space"),
            self._current(live, found, present),
            [w.address for w in present],
            any(w.address not in found for w in present),
        )

    def plan_links(self, entries: list[Any]) -> None:
        """Creates, updates and deletes of the root's external links; their places are the root
        order's business (`plan_root_order`)."""
        base: Path = (*self.site.path, "externalLinks")
        wanted = []
        for index, entry in enumerate(entries):
            if entry.state != "absent" and entry.url is None:
                self.ctx.problem((*base, index), "an external link needs `url`")
            fields = written_fields(entry, LINK_FIELDS)
            key = str(entry.title or entry.id)
            wanted.append(
                desired_child(
                    "external_link", key, self.site.address, fields, (*base, index), entry
                )
            )
        self.links = wanted
        self.link_matches = self.plan_level(
            "external_link", LINK_FIELDS, wanted, self.tree.links, ChildChange()
        )

"""A site's structure, live and desired: sections with their site spaces, section groups, root
site spaces; and the plan that turns one into the other (creates, updates, defaults, deletes and
the fewest moves). Children are matched by key within their parent, so a renamed site or
section keeps its children."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from docsync.engine.context import PlanContext, ref
from docsync.engine.model import Action, FieldChange, address
from docsync.engine.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.base import ExportNames, Field, field_changes
from docsync.kinds.site_children import SectionGroupKind, SectionKind, SiteSpaceKind
from docsync.kinds.site_order import apply_moves, plan_moves

SECTION_FIELDS = SectionKind.fields
SITE_SPACE_FIELDS = SiteSpaceKind.fields
GROUP_FIELDS = SectionGroupKind.fields

Path = tuple[str | int, ...]


# -- live ------------------------------------------------------------------------------------
@dataclass
class LiveTree:
    """One site's structure as read: children by container, in the API's order."""

    sections: list[LiveResource] = field(default_factory=list)
    groups: list[LiveResource] = field(default_factory=list)
    root_spaces: list[LiveResource] = field(default_factory=list)
    spaces_of: dict[str, list[LiveResource]] = field(default_factory=dict)  # section id ->
    root_order: list[str] = field(default_factory=list)  # ids of root sections and groups
    group_order: dict[str, list[str]] = field(default_factory=dict)  # group id -> section ids


def _site_space(item: dict[str, Any], parent: str, live: LiveState) -> LiveResource:
    space = item.get("space") or {}
    space_id = space.get("id") if isinstance(space, dict) else space
    space_address = live.address_of("space", space_id) or f"space#{space_id}"
    key = str(item.get("path"))
    return LiveResource(
        kind="site_space",
        id=str(item["id"]),
        key=key,
        address=address("site_space", key, parent),
        name=key,
        fields={
            "space": space_address,
            "path": item.get("path"),
            "condition": item.get("condition"),
            "default": bool(item.get("default")),
        },
        raw=item,
        refs={space_address},
        parent=parent,
    )


def _section(item: dict[str, Any], site: str, live: LiveState, tree: LiveTree) -> LiveResource:
    key = str(item.get("title"))
    own = address("section", key, site)
    resource = LiveResource(
        kind="section",
        id=str(item["id"]),
        key=key,
        address=own,
        name=key,
        fields={name: item.get(name) for name in ("title", "icon", "path", "description")}
        | {"condition": item.get("condition"), "default": bool(item.get("default"))},
        raw=item,
        parent=site,
    )
    spaces = [_site_space(s, own, live) for s in item.get("siteSpaces") or []]
    tree.spaces_of[resource.id] = spaces
    tree.sections.append(resource)
    return resource


def read_live_tree(site: LiveResource, live: LiveState) -> tuple[LiveTree, list[LiveResource]]:
    """Every child of a site, from its one structure read."""
    tree = LiveTree()
    structure = site.raw.get("_structure") or {}
    items = structure.get("structure") or []
    if structure.get("type") == "siteSpaces":
        tree.root_spaces = [_site_space(item, site.address, live) for item in items]
    else:
        for item in items:
            tree.root_order.append(str(item["id"]))
            if item.get("object") == "site-section-group":
                members = [
                    _section(s, site.address, live, tree)
                    for s in item.get("sections") or item.get("children") or []
                    if s.get("object", "site-section") == "site-section"
                ]
                key = str(item.get("title"))
                tree.groups.append(
                    LiveResource(
                        kind="section_group",
                        id=str(item["id"]),
                        key=key,
                        address=address("section_group", key, site.address),
                        name=key,
                        fields={
                            "title": item.get("title"),
                            "icon": item.get("icon"),
                            "sections": sorted(m.address for m in members),
                        },
                        raw=item,
                        parent=site.address,
                    )
                )
                tree.group_order[str(item["id"])] = [m.id for m in members]
            else:
                _section(item, site.address, live, tree)
    children = tree.sections + tree.groups + tree.root_spaces
    children += [s for spaces in tree.spaces_of.values() for s in spaces]
    return tree, children


# -- desired ---------------------------------------------------------------------------------
def _written(entry: Any, fields: tuple[Field, ...]) -> dict[str, Any]:
    return {f.name: getattr(entry, f.name) for f in fields if f.name in entry.model_fields_set}


def _desired(
    kind: str, key: str, parent: str, fields: dict[str, Any], path: Path, entry: Any
) -> DesiredResource:
    return DesiredResource(
        kind=kind,
        key=key,
        address=address(kind, key, parent),
        name=key,
        fields=fields,
        path=path,
        pinned_id=entry.id,
        absent=entry.state == "absent",
        protect=entry.protect,
        parent=parent,
        entry=entry,
    )


def desired_site_space(entry: Any, parent: str, path: Path, ctx: PlanContext) -> DesiredResource:
    fields = _written(entry, SITE_SPACE_FIELDS)
    if entry.space is not None:
        fields["space"] = ctx.resolve("space", str(entry.space), (*path, "space"))
    if fields.get("default") is False:
        del fields["default"]  # a level's default moves only by naming the new one
    key = entry.path or (str(entry.space) if entry.space else str(entry.id))
    return _desired("site_space", key, parent, fields, path, entry)


def desired_section(entry: Any, site: str, path: Path) -> DesiredResource:
    fields = _written(entry, SECTION_FIELDS)
    if fields.get("default") is False:
        del fields["default"]
    return _desired("section", str(entry.title or entry.id), site, fields, path, entry)


# -- planning --------------------------------------------------------------------------------
@dataclass
class TreePlanner:
    """Plans one site's children. `site_live` is None when the site is created (or replaced)."""

    ctx: PlanContext
    site: DesiredResource
    site_live: LiveResource | None
    tree: LiveTree
    actions: list[Action] = field(default_factory=list)
    reorders: list[dict[str, Any]] = field(default_factory=list)
    moved_lines: list[FieldChange] = field(default_factory=list)
    #: some level of the reorder is only checked (the API places new items where it likes)
    placed_by_api: bool = False
    sections: list[DesiredResource] = field(default_factory=list)
    section_matches: dict[str, LiveResource] = field(default_factory=dict)
    #: group address -> its sections in order, when the manifest writes `sectionGroups`
    group_members: dict[str, list[str]] | None = None
    group_matches: dict[str, LiveResource] = field(default_factory=dict)

    @property
    def site_ref(self) -> Any:
        return ref(self.site.address)

    def add(self, action: Action) -> Action:
        action.payload.setdefault("site", self.site_ref)
        self.actions.append(action)
        return self.ctx.add(action)

    # matching within a container
    @staticmethod
    def _match(
        desired: DesiredResource, live: list[LiveResource], taken: set[str]
    ) -> LiveResource | None:
        free = [r for r in live if r.id not in taken]
        if desired.pinned_id:
            return next((r for r in free if r.id == desired.pinned_id), None)
        found = next((r for r in free if r.key == desired.key), None)
        if found is None and desired.kind == "site_space" and "path" not in desired.fields:
            found = next(
                (r for r in free if r.fields["space"] == desired.fields.get("space")), None
            )
        return found

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
        extra: dict[str, Any],
    ) -> dict[str, LiveResource]:
        """Creates, updates and deletes for one list; returns desired address -> live match."""
        taken: set[str] = set()
        matched: dict[str, LiveResource] = {}
        for item in desired:
            found = self._match(item, live, taken)
            if found is not None:
                taken.add(found.id)
                matched[item.address] = found
                self.ctx.known_ids[item.address] = found.id
        previous_create: Action | None = None
        for item in desired:
            found = matched.get(item.address)
            if item.absent:
                if found is not None:
                    self._delete(found, item)
                continue
            changes = self._change_set(fields, item, found)
            if found is None:
                action = Action("create", kind, item.address, changes, self.ctx.where(item.path))
                action.payload = {"fields": self._payload_fields(changes, fields)} | extra
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
                action.payload = {"fields": self._payload_fields(changes, fields)} | extra
                if item.address != found.address:
                    action.notes.append(f"was {found.address}")
                self.add(action)
        for resource in live:
            if resource.id not in taken:
                self._delete(resource, None)
        return matched

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
        if not moves and not (placed_by_api and len(desired) > 1):
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
        self.reorders.append({"container": container, "desired": desired, "kinds": kinds})

    # -- the levels of a site ----------------------------------------------------------------
    def plan(self) -> None:
        entry = self.site.entry
        switching: list[Action] = []
        if entry.sections is not None:
            if self.tree.root_spaces:
                switching = self._clear(self.tree.root_spaces, "sections")
            self.plan_sections(entry.sections, switching)
        elif entry.siteSpaces is not None:
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
        steps = [{"id": first.live_id, "path": f"docsync-swap-{first.live_id}"[:100]}]
        steps += [{"id": a.live_id, "path": wanted(a)} for a in reversed(cycle[1:])]
        steps.append({"id": first.live_id, "path": wanted(first)})
        first.payload["paths"] = steps
        first.notes.append("paths handed round: through a temporary path, one at a time")
        for action in cycle:
            action.payload["fields"].pop("path", None)
            if action is not first:
                action.depends_on.append(first.key)

    def plan_sections(self, entries: list[Any], switching: list[Action]) -> None:
        site = self.site.address
        base: Path = (*self.site.path, "sections")
        desired = [desired_section(e, site, (*base, i)) for i, e in enumerate(entries)]
        self.sections = desired
        extra = {"default_via": {"kind": "site"}}
        matched = self.plan_level("section", SECTION_FIELDS, desired, self.tree.sections, extra)
        self.section_matches = matched
        for index, section in enumerate(desired):
            if section.absent:
                continue
            live = matched.get(section.address)
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
            extra_spaces = {
                "section": ref(section.address),
                "default_via": {"kind": "section", "id": ref(section.address)},
            }
            live_spaces = self.tree.spaces_of.get(live.id, []) if live else []
            before = len(self.actions)
            found = self.plan_level(
                "site_space", SITE_SPACE_FIELDS, wanted, live_spaces, extra_spaces
            )
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
        create.payload["first_space"] = ref(first.fields.get("space"))
        create.payload["first_site_space"] = first.address
        own = next((a for a in new if a.address == first.address and a.verb == "create"), None)
        if own is not None:
            own.payload["made_by_section"] = True
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
        extra = {"default_via": {"kind": "site"}}
        found = self.plan_level("site_space", SITE_SPACE_FIELDS, wanted, live, extra)
        self.plan_order(
            None,
            dict.fromkeys([w.address for w in present], "site_space"),
            self._current(live, found, present),
            [w.address for w in present],
            any(w.address not in found for w in present),
        )

    def _section_address(self, ref_text: str, path: Path) -> str | None:
        """A group's section, by title or id: a section of the manifest's list, else a live one."""
        for section in self.sections:
            if ref_text in (section.key, section.pinned_id) and not section.absent:
                return section.address
        for live in self.tree.sections:
            if ref_text in (live.key, live.id):
                return self._as_desired(live.address)
        self.ctx.problem(path, f"no section {ref_text!r} in this site")
        return None

    def _as_desired(self, live_address: str) -> str:
        """The address under which the plan knows a live section (its new title if renamed)."""
        for desired, live in self.section_matches.items():
            if live.address == live_address:
                return desired
        return live_address

    def plan_groups(self, entries: list[Any]) -> None:
        base: Path = (*self.site.path, "sectionGroups")
        wanted: list[DesiredResource] = []
        self.group_members = {}
        order = [s.address for s in self.sections if not s.absent]
        for index, entry in enumerate(entries):
            fields = _written(entry, GROUP_FIELDS)
            if entry.sections is not None:
                members = [
                    self._section_address(str(s), (*base, index, "sections", j))
                    for j, s in enumerate(entry.sections)
                ]
                known = [m for m in members if m is not None]
                known.sort(key=lambda a: order.index(a) if a in order else len(order))
                fields["sections"] = sorted(known)
                group = address("section_group", str(entry.title), self.site.address)
                self.group_members[group] = known
            wanted.append(
                _desired(
                    "section_group",
                    str(entry.title or entry.id),
                    self.site.address,
                    fields,
                    (*base, index),
                    entry,
                )
            )
        live = [self._mapped_group(g) for g in self.tree.groups]
        extra: dict[str, Any] = {}
        before = len(self.actions)
        matched = self.plan_level("section_group", GROUP_FIELDS, wanted, live, extra)
        self.group_matches = matched
        for action in self.actions[before:]:
            if action.verb == "create" and "sections" in action.payload["fields"]:
                ordered = self.group_members.get(action.address, [])
                action.payload["fields"]["sections"] = [ref(m) for m in ordered]
            elif action.verb == "update" and "sections" in action.payload["fields"]:
                self._membership(action, matched[action.address])

    def _gone_sections(self) -> set[str]:
        """Live sections this plan deletes: their groups lose them with no request of their own."""
        if self.site.entry.sections is None:
            return set()
        kept = {
            self.section_matches[s.address].id
            for s in self.sections
            if not s.absent and s.address in self.section_matches
        }
        return {s.address for s in self.tree.sections if s.id not in kept}

    def _mapped_group(self, group: LiveResource) -> LiveResource:
        """A live group as the plan compares it: members under their desired addresses, without
        the sections the plan deletes (else each deletion would also show as a group update)."""
        fields = dict(group.fields)
        gone = self._gone_sections()
        fields["sections"] = sorted(
            self._as_desired(a) for a in group.fields["sections"] if a not in gone
        )
        return LiveResource(
            group.kind,
            group.id,
            group.key,
            group.address,
            group.name,
            fields,
            group.raw,
            set(),
            group.parent,
        )

    def _membership(self, action: Action, live: LiveResource) -> None:
        # The payload holds `$ref` placeholders; the change holds the addresses.
        action.payload["fields"].pop("sections")
        after = set(next(c.after for c in action.changes if c.field == "sections"))
        before = set(live.fields["sections"])
        present = {s.address for s in self.sections if not s.absent}
        gone = {s.address for s in self.tree.sections} - present
        action.payload["membership"] = {
            # Added in the manifest's order: the API appends them, so they arrive in place.
            "add": [ref(a) for a in (self.group_members or {})[action.address] if a not in before],
            "remove": [ref(a) for a in sorted(before - after) if a not in gone],
        }
        # A section that moves between groups leaves its old group first.
        for other in self.actions:
            if other is action or other.kind != "section_group" or other.verb != "update":
                continue
            leaving = {r["$ref"] for r in other.payload.get("membership", {}).get("remove", [])}
            if leaving & (after - before):
                action.depends_on.append(other.key)

    def plan_root_order(self) -> None:
        sections = [s for s in self.sections if not s.absent]
        if not sections:
            return
        matched_sections = self.section_matches
        matched_groups = self.group_matches
        managed_groups = self.group_members is not None
        group_of: dict[str, str] = {}
        if self.group_members is not None:
            for group, members in self.group_members.items():
                for member in members:
                    group_of[member] = group
        else:
            for live in self.tree.groups:
                for member in live.fields["sections"]:
                    group_of[self._as_desired(member)] = live.address
        desired_root: list[str] = []
        desired_in: dict[str, list[str]] = {}
        for section in sections:
            group_address = group_of.get(section.address)
            if group_address is None:
                desired_root.append(section.address)
                continue
            if group_address not in desired_in:
                desired_root.append(group_address)
                desired_in[group_address] = []
            desired_in[group_address].append(section.address)
        if self.group_members is not None:
            desired_root += [g for g in self.group_members if g not in desired_in]
        # Where things stand once creates, deletes and group changes are done.
        by_id = {r.id: a for a, r in (matched_sections | matched_groups).items()}
        if not managed_groups:
            by_id |= {g.id: g.address for g in self.tree.groups}
        live_group_of = {
            self._as_desired(m): by_id.get(g.id, g.address)
            for g in self.tree.groups
            for m in g.fields["sections"]
        }
        current_root = [by_id[i] for i in self.tree.root_order if by_id.get(i) in desired_root]
        for section in sections:
            if section.address in current_root:
                continue
            old_group = live_group_of.get(section.address)
            if group_of.get(section.address) is None and (
                old_group is None or old_group not in desired_in
            ):
                current_root.append(section.address)
        current_root += [g for g in desired_root if g not in current_root]
        groups = set(desired_in) | set(self.group_members or {})
        kinds = {a: "section_group" if a in groups else "section" for a in desired_root}
        live_root = {by_id.get(i) for i in self.tree.root_order}
        placed = any(a not in live_root for a in desired_root)
        self.plan_order(None, kinds, current_root, desired_root, placed)
        for group, members in desired_in.items():
            live_members = [
                by_id.get(i, "")
                for gid, ids in self.tree.group_order.items()
                if by_id.get(gid) == group
                for i in ids
            ]
            current = [m for m in live_members if m in members]
            placed = len(current) < len(members)
            current += [m for m in members if m not in current]
            self.plan_order(group, dict.fromkeys(members, "section"), current, members, placed)


# -- export ----------------------------------------------------------------------------------
def _export_site_space(item: LiveResource, names: ExportNames) -> dict[str, Any]:
    entry: dict[str, Any] = {"space": names.name(item.fields["space"]), "path": item.key}
    if item.fields.get("condition") is not None:
        entry["condition"] = item.fields["condition"]
    if item.fields.get("default"):
        entry["default"] = True
    return entry


def export_tree(tree: LiveTree, names: ExportNames) -> dict[str, Any]:
    """A site's structure as manifest entries, in the live order."""
    if tree.root_spaces:
        return {"siteSpaces": [_export_site_space(s, names) for s in tree.root_spaces]}
    if not tree.sections:
        return {}
    by_id = {s.id: s for s in tree.sections}
    ordered: list[LiveResource] = []
    for item_id in tree.root_order:
        if item_id in by_id:
            ordered.append(by_id[item_id])
        ordered += [by_id[i] for i in tree.group_order.get(item_id, []) if i in by_id]
    sections = []
    for section in ordered:
        entry: dict[str, Any] = {"title": section.key}
        for name in ("path", "icon", "description", "condition"):
            if section.fields.get(name) is not None:
                entry[name] = section.fields[name]
        if section.fields.get("default"):
            entry["default"] = True
        entry["siteSpaces"] = [_export_site_space(s, names) for s in tree.spaces_of[section.id]]
        sections.append(entry)
    out: dict[str, Any] = {"sections": sections}
    if tree.groups:
        out["sectionGroups"] = [
            {"title": g.key}
            | ({"icon": g.fields["icon"]} if g.fields.get("icon") else {})
            | {"sections": [by_id[i].key for i in tree.group_order.get(g.id, []) if i in by_id]}
            for g in tree.groups
        ]
    return out

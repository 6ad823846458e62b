"""Section groups and the order of a site's root: which sections each group holds, and where
groups and ungrouped sections stand. A part of TreePlanner, kept apart for size."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docsync.core.context import PlanContext, ref
from docsync.core.kind import Field
from docsync.core.model import Action, address
from docsync.core.payloads import ChildChange, GroupMembership, child
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.site_shape import GROUP_FIELDS, LiveTree, Path, desired_child, written_fields


class GroupPlanning:
    """Mixed into TreePlanner, whose state it shares (declared here for the type checker)."""

    ctx: PlanContext
    site: DesiredResource
    tree: LiveTree
    actions: list[Action]
    sections: list[DesiredResource]
    section_matches: dict[str, LiveResource]
    group_members: dict[str, list[str]] | None
    group_matches: dict[str, LiveResource]
    links: list[DesiredResource] | None
    link_matches: dict[str, LiveResource]

    if TYPE_CHECKING:

        def plan_level(
            self,
            kind: str,
            fields: tuple[Field, ...],
            desired: list[DesiredResource],
            live: list[LiveResource],
            extra: ChildChange,
        ) -> dict[str, LiveResource]: ...

        def plan_order(
            self,
            container: str | None,
            kinds: dict[str, str],
            current: list[str],
            desired: list[str],
            placed_by_api: bool = False,
        ) -> None: ...

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
            fields = written_fields(entry, GROUP_FIELDS)
            if entry.sections is not None:
                members = [
                    self._section_address(str(s), (*base, index, "sections", j))
                    for j, s in enumerate(entry.sections)
                ]
                known = [m for m in members if m is not None]
                fields["sections"] = list(known)  # shown as written; compared as a set
                known.sort(key=lambda a: order.index(a) if a in order else len(order))
                group = address("section_group", str(entry.title), self.site.address)
                self.group_members[group] = known
            wanted.append(
                desired_child(
                    "section_group",
                    str(entry.title or entry.id),
                    self.site.address,
                    fields,
                    (*base, index),
                    entry,
                )
            )
        live = [self._mapped_group(g) for g in self.tree.groups]
        before = len(self.actions)
        matched = self.plan_level("section_group", GROUP_FIELDS, wanted, live, ChildChange())
        self.group_matches = matched
        for action in self.actions[before:]:
            if action.verb == "create" and "sections" in child(action).fields:
                ordered = self.group_members.get(action.address, [])
                child(action).fields["sections"] = [ref(m) for m in ordered]
            elif action.verb == "update" and "sections" in child(action).fields:
                self._membership(action, matched[action.address], wanted)

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
        fields["sections"] = [
            self._as_desired(a) for a in group.fields["sections"] if a not in gone
        ]
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

    def _membership(
        self, action: Action, live: LiveResource, groups: list[DesiredResource]
    ) -> None:
        # The payload holds `$ref` placeholders; the change holds the addresses.
        child(action).fields.pop("sections")
        after = set(next(c.after for c in action.changes if c.field == "sections"))
        before = set(live.fields["sections"])
        gone = self._gone_sections()
        # A section moving to another group gets there with one PATCH naming that group (or
        # by that group's create): taking it out of this one first would cost a request.
        staying = {g.address for g in groups if not g.absent and g.address != action.address}
        elsewhere = {m for g, ms in (self.group_members or {}).items() if g in staying for m in ms}
        child(action).membership = GroupMembership(
            # Added in the manifest's order: the API appends them, so they arrive in place.
            add=[ref(a) for a in (self.group_members or {})[action.address] if a not in before],
            remove=[ref(a) for a in sorted(before - after) if a not in gone | elsewhere],
        )

    def _with_links(self, root: list[str]) -> list[str]:
        """The root order with the manifest's links in place: those without `after` first, each
        other one right after the root section or group it names, in the order written."""
        present = [link for link in self.links or [] if not link.absent]
        site = self.site.address
        anchors: dict[str, str | None] = {}
        for link in present:
            after = link.entry.after
            if after is None:
                anchors[link.address] = None
                continue
            named = (address("section", after, site), address("section_group", after, site))
            found = next((item for item in root if item in named), None)
            if found is None:
                self.ctx.problem(
                    (*link.path, "after"),
                    f"no root section or group titled {after!r} in this site's manifest (a "
                    "link follows an item of the root level, not a section inside a group)",
                )
            anchors[link.address] = found
        order = [a for a, anchor in anchors.items() if anchor is None]
        for item in root:
            order.append(item)
            order += [a for a, anchor in anchors.items() if anchor == item]
        return order

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
        groups = set(desired_in) | set(self.group_members or {})
        kinds = {a: "section_group" if a in groups else "section" for a in desired_root}
        if self.links is not None:
            desired_root = self._with_links(desired_root)
            kinds |= {a: "external_link" for a in desired_root if a not in kinds}
        # Where things stand once creates, deletes and group changes are done.
        by_id = {r.id: a for a, r in (matched_sections | matched_groups).items()}
        by_id |= {r.id: a for a, r in self.link_matches.items()}
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

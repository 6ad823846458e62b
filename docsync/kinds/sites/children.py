"""What every kind nested under a site (sections, site spaces, groups, links) shares: planned
one parent at a time through the one list planner (`kinds.listing`), with hooks for what its
kind does differently; applied by requests under the site's path. The site's driver
(`kinds.site_tree`) walks the catalogue and calls these hooks; it names no kind."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, ClassVar

from docsync.core.context import PlanContext, ref
from docsync.core.model import Action, FieldChange, address
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.changes import field_changes, same_id
from docsync.kinds.kind import ExportNames, Kinds, Path
from docsync.kinds.lists import Place
from docsync.kinds.sites.child_requests import AppliedChild
from docsync.kinds.sites.payloads import ChildChange, DefaultVia
from docsync.kinds.sites.state import Extra, LiveTree, Parent, Planned, SiteState, under


def quoted(text: str) -> str:
    """A title as the picture of a site's structure shows it."""
    return json.dumps(text, ensure_ascii=False)


def read_flag(raw: dict[str, Any]) -> bool:
    """A level's default flag as read (absent: not the default)."""
    return bool(raw.get("default"))


def nested_kinds(kinds: Kinds, parent: str) -> tuple[NestedKind, ...]:
    """The kinds listed under `parent`'s entries; those referring to their siblings (a group's
    sections) after the others, so the siblings they name are planned first."""

    def build(kinds: Kinds) -> tuple[NestedKind, ...]:
        found = [k for k in kinds.children(parent) if isinstance(k, NestedKind)]
        return tuple(sorted(found, key=lambda k: any(f.ref_sibling for f in k.fields)))

    return kinds.derived(f"nested in {parent}", build)


def every_nested_kind(kinds: Kinds) -> tuple[NestedKind, ...]:
    """The kinds under a site, each followed by the kinds nested in it, each once."""

    def build(kinds: Kinds) -> tuple[NestedKind, ...]:
        found: list[NestedKind] = []

        def walk(level: tuple[NestedKind, ...]) -> None:
            for kind in level:
                if kind not in found:
                    found.append(kind)
                    walk(nested_kinds(kinds, kind.name))

        walk(nested_kinds(kinds, "site"))
        return tuple(found)

    return kinds.derived("nested under a site", build)


class NestedKind(AppliedChild):
    """A kind whose lists sit under a parent's entry; the hooks below default to a plain
    exact list whose items are created, updated and deleted one by one."""

    chained = True  # the API appends: created one after the other, they arrive in order

    #: a site's root is laid out as `sections` or as `siteSpaces`: the layout this kind's
    #: items at the root belong to, removed when the site switches to the other one (None:
    #: a switch leaves them alone)
    layout: ClassVar[str | None] = None
    #: writing this kind's list at the site chooses its layout (the other one's items go)
    leads: ClassVar[bool] = False

    # -- what is written and what is there ---------------------------------------------------
    def written(self, parent: Parent) -> list[Any] | None:
        """The parent entry's list of this kind (None: not written, not managed)."""
        entries: list[Any] | None = getattr(parent.desired.entry, self.section, None)
        return entries

    def desired_children(self, parent: Parent, tree: SiteState) -> list[DesiredResource] | None:
        entries = self.written(parent)
        if entries is None:
            return None
        base: Path = (*parent.desired.path, self.section)
        return [self.desired_child(e, parent, (*base, i), tree) for i, e in enumerate(entries)]

    def desired_child(
        self, entry: Any, parent: Parent, path: Path, tree: SiteState
    ) -> DesiredResource:
        key = self.desired_key(entry)
        return DesiredResource(
            kind=self.name,
            key=key,
            address=address(self.name, key, parent.address),
            name=key,
            fields=self.desired_fields(entry, path, tree),
            path=path,
            pinned_id=entry.id,
            absent=entry.state == "absent",
            protect=entry.protect,
            parent=parent.address,
            entry=entry,
        )

    def desired_key(self, entry: Any) -> str:
        return str(getattr(entry, self.key_field) or entry.id)

    def desired_fields(self, entry: Any, path: Path, tree: SiteState) -> dict[str, Any]:
        fields = {
            f.name: getattr(entry, f.name) for f in self.fields if f.name in entry.model_fields_set
        }
        if fields.get("default") is False:
            del fields["default"]  # a level's default moves only by naming the new one
        return fields

    def live_children(self, parent: Parent, tree: SiteState) -> list[LiveResource]:
        container = parent.container
        return [] if container is None else tree.live_tree.of(self.name, container)

    def read_item(self, item: dict[str, Any], parent: str, live: LiveState) -> LiveResource:
        """One item of the site's structure read (fields a holder holds are the reader's)."""
        key = str(item.get(self.key_field))
        return LiveResource(
            kind=self.name,
            id=str(item["id"]),
            key=key,
            address=address(self.name, key, parent),
            name=key,
            fields={f.name: f.read(item) for f in self.fields if not f.ref_sibling},
            raw=item,
            parent=parent,
        )

    # -- what its actions carry --------------------------------------------------------------
    def default_via(self, parent: Parent) -> DefaultVia | None:
        """Where its level's default flag is set (None: the kind has no default)."""
        return None

    def change(self, parent: Parent) -> ChildChange:
        """What every create or update under `parent` carries besides its fields."""
        return ChildChange(default_via=self.default_via(parent))

    def plan_create(self, desired: DesiredResource, at: Place) -> Action | None:
        parent, tree = under(at)
        changes = field_changes(self.fields, desired, None, tree.ctx)
        action = Action("create", self.name, desired.address, changes, tree.ctx.where(desired.path))
        action.payload = replace(self.change(parent), fields=self._fields(changes))
        return tree.add(action, parent)

    def plan_update(self, desired: DesiredResource, live: LiveResource, at: Place) -> Action | None:
        parent, tree = under(at)
        changes = field_changes(self.fields, desired, live, tree.ctx)
        # A reference whose target is only renamed in this plan (`was:`, a pinned id) names
        # the same resource: not a change.
        changes = [c for c in changes if not (c.reference and same_id(tree.ctx, c))]
        if not changes:
            return None
        where = tree.ctx.where(desired.path)
        action = Action("update", self.name, desired.address, changes, where, live_id=live.id)
        action.payload = replace(self.change(parent), fields=self._fields(changes))
        return tree.add(action, parent)

    def plan_delete(
        self, live: LiveResource, desired: DesiredResource | None, at: Place
    ) -> Action | None:
        parent, tree = under(at)
        where = tree.ctx.where(desired.path if desired else tree.site.path)
        action = Action("delete", live.kind, live.address, [], where, live_id=live.id)
        return tree.add(action, parent)

    def _fields(self, changes: list[FieldChange]) -> dict[str, Any]:
        refs = {f.name for f in self.fields if f.ref}
        return {c.field: ref(c.after) if c.field in refs else c.after for c in changes}

    # -- what follows a level ----------------------------------------------------------------
    def admits(
        self, item: Parent, kind: NestedKind, wanted: list[DesiredResource] | None, tree: SiteState
    ) -> bool:
        """Whether `kind`'s list under this kind's `item` is planned (it may be a problem)."""
        return wanted is not None

    def level_planned(self, planned: Planned, tree: SiteState) -> None:
        """Follow-ups of one planned list of this kind (its order, its requests' details)."""

    def children_planned(
        self, item: Parent, kind: NestedKind, wanted: list[DesiredResource], tree: SiteState
    ) -> None:
        """Follow-ups of `kind`'s list under this kind's `item`, once planned."""

    def finish(self, tree: SiteState) -> None:
        """Once every list of the site is planned, written or not: orders that span several
        kinds, or that the live state alone gives (the sections of a group not written)."""

    # -- export ------------------------------------------------------------------------------
    def export_level(
        self, tree: LiveTree, container: str, names: ExportNames, extra: Extra
    ) -> list[dict[str, Any]]:
        """Its items in `container` as manifest entries, each with the lists nested in it."""
        entries = []
        for item in self.export_order(tree, container):
            entry = self.export_item(item, tree, names)
            for inner in nested_kinds(self.kinds, self.name):
                entry[inner.section] = inner.export_level(tree, item.id, names, extra)
            entries.append(entry | extra(item))
        return entries

    def export_order(self, tree: LiveTree, container: str) -> list[LiveResource]:
        return tree.of(self.name, container)

    def export_item(self, item: LiveResource, tree: LiveTree, names: ExportNames) -> dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__} must say how it is exported")

    # -- the plan's picture of a site (`engine.structure`) -----------------------------------
    def picture(self, key: str, fields: dict[str, Any]) -> str:
        """Its line in the picture of a site's structure, without indent or default mark;
        `fields` as `read_item` reads them, or as `picture_fields` gives an entry's."""
        raise NotImplementedError(f"{type(self).__name__} must say how it is drawn")

    def picture_fields(self, entry: Any, ctx: PlanContext) -> dict[str, Any]:
        """What its line shows of a manifest entry."""
        return {f.name: getattr(entry, f.name, None) for f in self.fields}

    def picture_placed(
        self, entry: Any, keys: list[str], site: LiveResource | None, ctx: PlanContext
    ) -> list[tuple[str, str | None]]:
        """Its lines in the root of a site `entry` when the layout does not order them (not
        the leading kind, nor held by it), each with the key of the root item it follows (None:
        first); `keys`: the root's items drawn. Written, they follow the last (the API
        appends); else the live ones follow the nearest root item before them that stays."""
        written: list[Any] | None = getattr(entry, self.section, None)
        if written is not None:
            last = keys[-1] if keys else None
            return [
                (self.picture(self.desired_key(e), self.picture_fields(e, ctx)), last)
                for e in written
                if e.state != "absent"
            ]
        structure = (site.raw.get("_structure") or {}) if site else {}
        by_pointer = {k.pointer_type: k for k in nested_kinds(self.kinds, "site")}
        before: list[str] = []
        placed: list[tuple[str, str | None]] = []
        for item in structure.get("structure") or []:
            kind = by_pointer.get(item.get("object"))
            if kind is not self:
                before.append(str(item.get(kind.key_field if kind else "title")))
                continue
            read = self.read_item(item, "", ctx.live)
            after = next((t for t in reversed(before) if t in keys), None)
            placed.append((self.picture(read.key, read.fields), after))
        return placed

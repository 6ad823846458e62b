"""What every kind nested under a site (sections, site spaces, groups, links) shares: planned
one parent at a time through the one list planner (`kinds.lists`), with hooks for what its
kind does differently; applied by requests under the site's path. The site's driver
(`sites.driver`) walks the catalogue and calls these hooks; it names no kind."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from string import Formatter
from typing import Any, ClassVar, final

from docsync.core.context import PlanContext, ref
from docsync.core.model import Action, address
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.changes import carried, field_changes, same_id
from docsync.kinds.kind import ExportNames, Kinds, Path
from docsync.kinds.lists import Place, Steps
from docsync.kinds.nested.applied import AppliedChild
from docsync.kinds.nested.payloads import ChildChange, DefaultVia
from docsync.kinds.nested.state import Extra, LiveTree, Parent, Planned, SiteState, under


def quoted(text: str) -> str:
    """A title as the picture of a site's structure shows it."""
    return json.dumps(text, ensure_ascii=False)


def read_flag(raw: dict[str, Any]) -> bool:
    """A level's default flag as read (absent: not the default)."""
    return bool(raw.get("default"))


def flags_and_texts(item: LiveResource, *flags: str) -> dict[str, Any]:
    """What export writes of an item's `flags` (those set: false is production's default) and
    of its localized texts (those with a language: production answers `{}` for none)."""
    found: dict[str, Any] = {flag: True for flag in flags if item.fields.get(flag)}
    for name in ("localizedTitle", "localizedDescription"):
        if item.fields.get(name):
            found[name] = dict(item.fields[name])
    return found


def nested_kinds(kinds: Kinds, parent: str) -> tuple[NestedKind, ...]:
    """The kinds listed under `parent`'s entries, each after those of them it refers to (a
    group's sections; a link's group), so that what it names is planned, and known under the
    name the plan gives it (renamed with `was:`), first."""

    def build(kinds: Kinds) -> tuple[NestedKind, ...]:
        found = [k for k in kinds.children(parent) if isinstance(k, NestedKind)]
        names = {k.name: k for k in found}

        def depth(kind: NestedKind) -> int:
            named = {f.ref for f in kind.fields if f.ref in names and f.ref != kind.name}
            return 1 + max((depth(names[n]) for n in named if n is not None), default=-1)

        return tuple(sorted(found, key=depth))

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
    """A kind whose lists sit under a parent's entry (a site's sections, a section's site
    spaces): an exact list whose items are created, updated and deleted one by one, in the
    manifest's order (`Declaration.chained`), where its `Structure` places them. The site's
    driver asks the hooks below; what every list shares is final."""

    HOOKS: ClassVar[tuple[str, ...]] = (
        "fetch",
        "to_live",
        "to_desired",
        "plan",
        "execute",
        "check_list",
        "requests",
        "export",
    )
    #: how the picture of a site's structure draws one item: the first piece always, each
    #: other one when the fields it names are set (`{key}` the item's key, quoted; the others
    #: its fields as `to_live` reads them)
    line: ClassVar[tuple[str, ...]] = ("{key}",)
    #: the attribute of an entry naming the root item it follows in the picture (a link's
    #: `after`); None: a written one goes after the last (the API appends)
    placed_after: ClassVar[str | None] = None

    # -- what is written and what is there ---------------------------------------------------
    @final
    def written_list(self, parent: Parent) -> list[Any] | None:
        """The parent entry's list of this kind (None: not written, not managed)."""
        entries: list[Any] | None = getattr(parent.desired.entry, self.section, None)
        return entries

    @final
    def entry_key(self, entry: Any) -> str:
        """An entry's key: its key field, else its `matched_by` field (a site space written
        without `path` is known by its space), else its id."""
        by = self.declaration.matched_by
        found = getattr(entry, self.key_field) or (getattr(entry, by) if by else None)
        return str(found or entry.id)

    @final
    def written_fields(self, entry: Any) -> dict[str, Any]:
        """The fields an entry writes, as written (`default: false` left out: a level's default
        moves only by naming the new one)."""
        fields = {
            f.name: getattr(entry, f.name) for f in self.fields if f.name in entry.model_fields_set
        }
        if fields.get("default") is False:
            del fields["default"]
        return fields

    def to_desired(self, parent: Parent, tree: SiteState) -> list[DesiredResource] | None:
        """Which resources does a parent's entry write of this kind?

        Asked by: the site's driver, for each parent planned (the site, a section). Returns:
        the desired resources (None: the list is not written, so not managed); references in
        their fields resolved to addresses. Default: the entries of the parent's list of this
        kind, their fields as written."""
        return self.children_of(parent, tree, lambda entry, path: self.written_fields(entry))

    @final
    def children_of(
        self,
        parent: Parent,
        tree: SiteState,
        fields: Callable[[Any, Path], dict[str, Any]],
    ) -> list[DesiredResource] | None:
        """The parent entry's list of this kind as desired resources, with the `fields` each
        entry makes (given the entry and its path)."""
        entries = self.written_list(parent)
        if entries is None:
            return None
        base: Path = (*parent.desired.path, self.section)
        out = []
        for index, entry in enumerate(entries):
            key = self.entry_key(entry)
            out.append(
                DesiredResource(
                    kind=self.name,
                    key=key,
                    address=address(self.name, key, parent.address),
                    name=key,
                    fields=fields(entry, (*base, index)),
                    path=(*base, index),
                    pinned_id=entry.id,
                    absent=entry.state == "absent",
                    protect=entry.protect,
                    parent=parent.address,
                    entry=entry,
                )
            )
        return out

    def fetch(self, parent: Parent, tree: SiteState) -> list[LiveResource]:
        """What does the API hold of this kind under a parent, as the plan compares it?

        Asked by: the site's driver, for each list it plans. Returns: the live items. Default:
        its items of the structure read under that parent."""
        container = parent.container
        return [] if container is None else tree.live_tree.of(self.name, container)

    def to_live(self, item: dict[str, Any], parent: str, live: LiveState) -> LiveResource:
        """Which live resource is one item of the site's structure read?

        Asked by: the structure reader and the plan's picture. Returns: the resource, under
        `parent`'s address. Default: keyed by its key field, each field read as declared (the
        siblings a holder holds are the reader's)."""
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
    @final
    def carries(self, parent: Parent) -> ChildChange:
        """What its creates and updates under `parent` carry beside their fields: where its
        level's default is set (a kind that has one, `Structure.default_field`: on the site at
        the root, else on the parent, which a site space under a section names too)."""
        if not self.structure.default_field:
            return ChildChange()
        if parent.kind == "site":
            return ChildChange(default_via=DefaultVia("site"))
        own = ref(parent.address)
        return ChildChange(section=own, default_via=DefaultVia(parent.kind, own))

    @final
    def steps(self) -> Steps:
        return Steps(self.plan_create, self.plan_update, self.plan_delete)

    @final
    def plan_create(self, desired: DesiredResource, at: Place) -> Action | None:
        parent, tree = under(at)
        changes = field_changes(self.fields, desired, None, tree.ctx)
        action = Action("create", self.name, desired.address, changes, tree.ctx.where(desired.path))
        fields = carried(self.fields, changes, desired, None)
        action.payload = replace(self.carries(parent), fields=fields)
        return tree.add(action, parent)

    @final
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
        fields = carried(self.fields, changes, desired, live)
        action.payload = replace(self.carries(parent), fields=fields)
        return tree.add(action, parent)

    @final
    def plan_delete(
        self, live: LiveResource, desired: DesiredResource | None, at: Place
    ) -> Action | None:
        parent, tree = under(at)
        where = tree.ctx.where(desired.path if desired else tree.site.path)
        action = Action("delete", live.kind, live.address, [], where, live_id=live.id)
        return tree.add(action, parent)

    @final
    def create_body(self, fields: dict[str, Any]) -> dict[str, Any]:
        """The written fields its create request takes, under their names on the wire (the
        rest follows in the PATCH after it, `finish_create`)."""
        return {f.wire_name: fields[f.name] for f in self.fields if f.create and f.name in fields}

    # -- what follows --------------------------------------------------------------------------
    def plan(self, planned: Planned | None, tree: SiteState) -> None:
        """What follows one list of this kind once planned, and the site once every list is?

        Asked by: the site's driver, after each list (`planned`), before the lists nested in
        its items, and once per site when every list is planned, written or not (`planned`
        None). Returns: nothing; adds to the list's actions (its level's order, its requests'
        details), orders that span several kinds or that the live state alone gives, or
        records problems. Default: nothing."""

    # -- export ------------------------------------------------------------------------------
    def export(
        self, tree: LiveTree, container: str, names: ExportNames, extra: Extra
    ) -> list[dict[str, Any]]:
        """How does a manifest write this kind's items of one level back?

        Asked by: export, for the site and each item holding this kind. Returns: entries in
        the live order, each with the lists nested in it. Default: its own fields read."""
        return self.export_items(tree, container, names, extra, self._fields_read)

    def _fields_read(self, item: LiveResource) -> dict[str, Any]:
        entry: dict[str, Any] = {self.key_field: item.key}
        for f in self.fields:
            value = item.fields.get(f.name)
            if f.name != self.key_field and value is not None and value is not False:
                entry[f.name] = value
        return entry

    @final
    def export_items(
        self,
        tree: LiveTree,
        container: str,
        names: ExportNames,
        extra: Extra,
        entry: Callable[[LiveResource], dict[str, Any]],
        order: list[LiveResource] | None = None,
    ) -> list[dict[str, Any]]:
        """The items of `container` (in `order`, default the live one), each as `entry` writes
        it, with the lists nested in it and what the site adds (`extra`)."""
        entries = []
        for item in tree.of(self.name, container) if order is None else order:
            written = entry(item)
            for inner in nested_kinds(self.kinds, self.name):
                written[inner.section] = inner.export(tree, item.id, names, extra)
            entries.append(written | extra(item))
        return entries

    # -- the plan's picture of a site --------------------------------------------------------
    @final
    def picture(self, key: str, fields: dict[str, Any]) -> str:
        """One item's line in the picture of a site's structure, without indent or default
        mark, from the fields `to_live` reads or `picture_fields` gives (`line`)."""
        shown = defaultdict(lambda: None, fields, key=quoted(key))
        first, *more = self.line
        pieces = [piece for piece in more if all(shown[n] for n in _named(piece))]
        return "".join(p.format_map(shown) for p in (first, *pieces))

    @final
    def picture_fields(self, entry: Any, ctx: PlanContext) -> dict[str, Any]:
        """An entry's fields as `to_live` reads them: its key (else its `matched_by` field: a
        site space written without `path` by its space), a reference by the address it names
        (of the manifest, else live: by id, else by title)."""
        found = {f.name: getattr(entry, f.name, None) for f in self.fields}
        by = self.declaration.matched_by
        if by and not found.get(self.key_field):
            found[self.key_field] = getattr(entry, by, None)
        for f in self.fields:
            value = found[f.name]
            if f.ref and (isinstance(value, str) or f.name == by):
                found[f.name] = _drawn_ref(ctx, str(f.ref), str(value or entry.id))
        return found

    @final
    def picture_placed(
        self, entry: Any, keys: list[str], site: LiveResource | None, ctx: PlanContext
    ) -> list[tuple[str, str | None]]:
        """Its lines in a site's root the layout does not order (a kind neither leading the
        layout nor held by its leader), each with the key of the root item it follows (None:
        first); `keys`: the root's items drawn. Written: those at the root (an entry naming
        another kind under the site, a link's group, stands in it, not drawn), after the item
        `placed_after` names, else after the last (the API appends); else the live ones, after
        the nearest root item before them that stays."""
        written: list[Any] | None = getattr(entry, self.section, None)
        if written is not None:
            last = keys[-1] if keys else None
            under = {k.name for k in every_nested_kind(self.kinds)}
            inside = [f.name for f in self.fields if f.ref in under and f.ref != self.name]
            return [
                (
                    self.picture(self.entry_key(e), self.picture_fields(e, ctx)),
                    getattr(e, self.placed_after) if self.placed_after else last,
                )
                for e in written
                if e.state != "absent" and all(getattr(e, n, None) is None for n in inside)
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
            read = self.to_live(item, "", ctx.live)
            after = next((t for t in reversed(before) if t in keys), None)
            placed.append((self.picture(read.key, read.fields), after))
        return placed


def _named(piece: str) -> list[str]:
    """The fields a piece of a line names (`{path}`)."""
    return [name for _, name, _, _ in Formatter().parse(piece) if name]


def _drawn_ref(ctx: PlanContext, kind: str, text: str) -> str:
    """What a reference an entry writes names, as the picture draws it: the manifest's
    resource, else the live one by id, else by title, else the text as written."""
    hits = ctx.desired.named.get((kind, text), ())
    by_id = ctx.live.by_id.get((kind, text))
    named = ctx.live.named.get((kind, text), [])
    if hits:
        return sorted(hits)[0]
    if by_id is not None:
        return by_id.address
    return named[0].address if named else f"{kind} {text!r}"

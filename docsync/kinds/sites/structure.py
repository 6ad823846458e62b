"""A site's structure as docsync sees it: the live tree of one structure read and the tree
written back as manifest entries by export. Both walk the kinds the catalogue nests under a
site, matched to the structure's items by their `object` (a kind's `pointer_type`): each kind
reads and exports its own items (`to_live`, `export`), and items that hold siblings (a
group's sections) are read through the holding field its declaration marks `ref_sibling`."""

from __future__ import annotations

from typing import Any

from docsync.core.state import LiveResource, LiveState
from docsync.kinds.kind import ExportNames, Kinds
from docsync.kinds.nested.kind import NestedKind, every_nested_kind, nested_kinds
from docsync.kinds.nested.state import Extra, LiveTree


def read_live_tree(
    site: LiveResource, live: LiveState, kinds: Kinds
) -> tuple[LiveTree, list[LiveResource]]:
    """Every child of a site, from its one structure read."""
    tree = LiveTree()
    structure = site.raw.get("_structure") or {}
    layout = "siteSpaces" if structure.get("type") == "siteSpaces" else "sections"
    leader = next(k for k in nested_kinds(kinds, "site") if k.leads and k.layout == layout)
    for item in structure.get("structure") or []:
        if layout == "sections":
            tree.root_order.append(str(item["id"]))
        own = _by_pointer(kinds).get(item.get("object"), leader)
        _read(item, own, site.address, "", tree, live)
    return tree, tree.items()


def _read(
    item: dict[str, Any],
    kind: NestedKind,
    parent: str,
    container: str,
    tree: LiveTree,
    live: LiveState,
) -> LiveResource:
    """One item of the structure, the siblings it holds, then the items nested in it."""
    resource = kind.to_live(item, parent, live)
    for holding in (f for f in kind.fields if f.ref_sibling and f.ref):
        held = _kind(kind.kinds, holding.ref)
        members = []
        inside = []  # what stands in it, in order: its members and other items (a group's links)
        for m in item.get("children") or item.get(holding.name) or []:
            pointer = m.get("object", held.pointer_type)
            own = held if pointer == held.pointer_type else _by_pointer(kind.kinds).get(pointer)
            if own is None:
                continue
            read = _read(m, own, parent, container, tree, live)
            inside.append(read.id)
            if own is held:
                members.append(read)
        resource.fields[holding.name] = [m.address for m in members]
        tree.holds[resource.id] = inside
    tree.add(kind.name, container, resource)
    for inner in nested_kinds(kind.kinds, kind.name):
        for sub in item.get(inner.section) or []:
            _read(sub, inner, resource.address, resource.id, tree, live)
    return resource


def _by_pointer(kinds: Kinds) -> dict[str, NestedKind]:
    return {k.pointer_type: k for k in every_nested_kind(kinds)}


def _kind(kinds: Kinds, name: str | None) -> NestedKind:
    found = next((k for k in every_nested_kind(kinds) if k.name == name), None)
    assert found is not None, f"{name} is not a kind nested under a site"
    return found


def export_tree(
    tree: LiveTree, names: ExportNames, kinds: Kinds, extra: Extra = lambda _: {}
) -> dict[str, Any]:
    """A site's structure as manifest entries, in the live order: the lists of the layout its
    leading kind's items show (sections, or root site spaces), nothing when it has neither."""
    level = nested_kinds(kinds, "site")
    leader = next((k for k in level if k.leads and tree.of(k.name)), None)
    if leader is None:
        return {}
    out: dict[str, Any] = {}
    for kind in level:
        if kind.layout in (None, leader.layout):
            entries = kind.export(tree, "", names, extra)
            if entries:
                out[kind.section] = entries
    return out

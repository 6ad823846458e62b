"""A site's structure as docsync sees it: the live tree of one structure read and the tree
written back as manifest entries by export. Both walk the kinds the catalogue nests under a
site, matched to the structure's items by their `object` (a kind's `pointer_type`): each kind
reads and exports its own items (`read_item`, `export_level`), and items that hold siblings (a
group's sections) are read through the holding field its declaration marks `ref_sibling`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from docsync.api.answers import ANY, TEXT, Either, Items, Named, Obj, Opt, Shape, Tagged
from docsync.core.state import LiveResource, LiveState
from docsync.kinds.base import ExportNames
from docsync.kinds.nested import NestedKind, every_nested_kind, nested_kinds

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


def read_live_tree(site: LiveResource, live: LiveState) -> tuple[LiveTree, list[LiveResource]]:
    """Every child of a site, from its one structure read."""
    tree = LiveTree()
    structure = site.raw.get("_structure") or {}
    layout = "siteSpaces" if structure.get("type") == "siteSpaces" else "sections"
    leader = next(k for k in nested_kinds("site") if k.leads and k.layout == layout)
    for item in structure.get("structure") or []:
        if layout == "sections":
            tree.root_order.append(str(item["id"]))
        _read(item, _by_pointer().get(item.get("object"), leader), site.address, "", tree, live)
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
    resource = kind.read_item(item, parent, live)
    for holding in (f for f in kind.fields if f.ref_sibling and f.ref):
        held = _kind(holding.ref)
        members = []
        inside = []  # what stands in it, in order: its members and other items (a group's links)
        for m in item.get("children") or item.get(holding.name) or []:
            pointer = m.get("object", held.pointer_type)
            own = held if pointer == held.pointer_type else _by_pointer().get(pointer)
            if own is None:
                continue
            read = _read(m, own, parent, container, tree, live)
            inside.append(read.id)
            if own is held:
                members.append(read)
        resource.fields[holding.name] = [m.address for m in members]
        tree.holds[resource.id] = inside
    tree.add(kind.name, container, resource)
    for inner in nested_kinds(kind.name):
        for sub in item.get(inner.section) or []:
            _read(sub, inner, resource.address, resource.id, tree, live)
    return resource


@cache
def structure_shape() -> Shape:
    """What the reader relies on in a structure read: each item as its kind declares it (by
    its `object`), with the items nested in it and those it holds."""
    shapes = _item_shapes()
    leaders = tuple(Named(shapes, k.pointer_type) for k in nested_kinds("site") if k.leads)
    root = Tagged("object", shapes, other=Either(leaders))
    return Obj({"type": Opt(TEXT), "structure": Opt(Items(root))})


def item_shape(pointer: str) -> Shape:
    """What is relied on in one item of a site's structure: as it is read, and as the answer to
    the create that made it (a section's carries its first site space)."""
    return Named(_item_shapes(), pointer)


@cache
def _item_shapes() -> dict[str, Shape]:
    shapes: dict[str, Shape] = {}
    for kind in every_nested_kind():
        fields = dict(kind.answer.fields) if isinstance(kind.answer, Obj) else {}
        for inner in nested_kinds(kind.name):
            fields[inner.section] = Opt(Items(Named(shapes, inner.pointer_type)))
        for holding in (f for f in kind.fields if f.ref_sibling and f.ref):
            held = _kind(holding.ref).pointer_type
            member = Tagged("object", shapes, other=ANY, default=held)
            fields[holding.name] = fields["children"] = Opt(Items(member))
        shapes[kind.pointer_type] = Obj(fields)
    return shapes


def _by_pointer() -> dict[str, NestedKind]:
    return {k.pointer_type: k for k in every_nested_kind()}


def _kind(name: str | None) -> NestedKind:
    found = next((k for k in every_nested_kind() if k.name == name), None)
    assert found is not None, f"{name} is not a kind nested under a site"
    return found


def export_tree(tree: LiveTree, names: ExportNames, extra: Extra = lambda _: {}) -> dict[str, Any]:
    """A site's structure as manifest entries, in the live order: the lists of the layout its
    leading kind's items show (sections, or root site spaces), nothing when it has neither."""
    kinds = nested_kinds("site")
    leader = next((k for k in kinds if k.leads and tree.of(k.name)), None)
    if leader is None:
        return {}
    out: dict[str, Any] = {}
    for kind in kinds:
        if kind.layout in (None, leader.layout):
            entries = kind.export_level(tree, "", names, extra)
            if entries:
                out[kind.section] = entries
    return out

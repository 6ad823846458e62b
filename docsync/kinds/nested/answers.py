"""What docsync relies on in a site's structure as the API answers it: each item as its kind
declares it (`answer`), by its `object` (its kind's `pointer_type`), with the items nested in it
and those it holds. The kinds come from the catalogue each kind holds (`Kind.kinds`), so the
modules that send and read structure requests use these shapes without importing the kinds."""

from __future__ import annotations

from typing import Any

from docsync.api.answers import ANY, TEXT, Either, Items, Named, Obj, Opt, Shape, Tagged
from docsync.kinds.kind import Kinds


def structure_kinds(kinds: Kinds, parent: str) -> list[Any]:
    """The kinds listed under `parent`'s entries in a site's structure."""
    return [k for k in kinds.children(parent) if hasattr(k, "pointer_type")]


def every_structure_kind(kinds: Kinds) -> tuple[Any, ...]:
    """The kinds under a site, each followed by the kinds nested in it, each once."""

    def build(kinds: Kinds) -> tuple[Any, ...]:
        found: list[Any] = []

        def walk(level: list[Any]) -> None:
            for kind in level:
                if kind not in found:
                    found.append(kind)
                    walk(structure_kinds(kinds, kind.name))

        walk(structure_kinds(kinds, "site"))
        return tuple(found)

    return kinds.derived("structure kinds", build)


def structure_shape(kinds: Kinds) -> Shape:
    """What the reader relies on in a structure read: each item as its kind declares it (by
    its `object`), with the items nested in it and those it holds."""

    def build(kinds: Kinds) -> Shape:
        shapes = _item_shapes(kinds)
        site = structure_kinds(kinds, "site")
        leaders = tuple(Named(shapes, k.pointer_type) for k in site if k.leads)
        root = Tagged("object", shapes, other=Either(leaders))
        return Obj({"type": Opt(TEXT), "structure": Opt(Items(root))})

    return kinds.derived("structure shape", build)


def item_shape(kinds: Kinds, pointer: str) -> Shape:
    """What is relied on in one item of a site's structure: as it is read, and as the answer to
    the create that made it (a section's carries its first site space)."""
    return Named(_item_shapes(kinds), pointer)


def _item_shapes(kinds: Kinds) -> dict[str, Shape]:
    def build(kinds: Kinds) -> dict[str, Shape]:
        shapes: dict[str, Shape] = {}
        every = every_structure_kind(kinds)
        pointers = {k.name: k.pointer_type for k in every}
        for kind in every:
            fields = dict(kind.answer.fields) if isinstance(kind.answer, Obj) else {}
            for inner in structure_kinds(kinds, kind.name):
                fields[inner.section] = Opt(Items(Named(shapes, inner.pointer_type)))
            for holding in (f for f in kind.fields if f.ref_sibling and f.ref):
                member = Tagged("object", shapes, other=ANY, default=pointers[holding.ref])
                fields[holding.name] = fields["children"] = Opt(Items(member))
            shapes[kind.pointer_type] = Obj(fields)
        return shapes

    return kinds.derived("structure item shapes", build)

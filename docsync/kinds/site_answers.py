"""What docsync relies on in a site's structure as the API answers it: each item as its kind
declares it (`answer`), by its `object`, with the items nested in it and those it holds. The
kinds are found through the catalogue, so the modules that send and read structure requests
(`nested_apply`, `site_reading`) use these shapes without importing the kinds."""

from __future__ import annotations

from functools import cache
from typing import Any

from docsync.api.answers import ANY, TEXT, Either, Items, Named, Obj, Opt, Shape, Tagged


def _children(parent: str) -> list[Any]:
    """The kinds listed under `parent`'s entries in a site's structure."""
    from docsync.kinds.catalogue import CATALOGUE, kind_named  # built from this package

    found = [kind_named(d.name) for d in CATALOGUE.children(parent)]
    return [k for k in found if hasattr(k, "pointer_type")]


@cache
def _every() -> tuple[Any, ...]:
    found: list[Any] = []

    def walk(kinds: list[Any]) -> None:
        for kind in kinds:
            if kind not in found:
                found.append(kind)
                walk(_children(kind.name))

    walk(_children("site"))
    return tuple(found)


@cache
def structure_shape() -> Shape:
    """What the reader relies on in a structure read: each item as its kind declares it (by
    its `object`), with the items nested in it and those it holds."""
    shapes = _item_shapes()
    leaders = tuple(Named(shapes, k.pointer_type) for k in _children("site") if k.leads)
    root = Tagged("object", shapes, other=Either(leaders))
    return Obj({"type": Opt(TEXT), "structure": Opt(Items(root))})


def item_shape(pointer: str) -> Shape:
    """What is relied on in one item of a site's structure: as it is read, and as the answer to
    the create that made it (a section's carries its first site space)."""
    return Named(_item_shapes(), pointer)


@cache
def _item_shapes() -> dict[str, Shape]:
    shapes: dict[str, Shape] = {}
    pointers = {k.name: k.pointer_type for k in _every()}
    for kind in _every():
        fields = dict(kind.answer.fields) if isinstance(kind.answer, Obj) else {}
        for inner in _children(kind.name):
            fields[inner.section] = Opt(Items(Named(shapes, inner.pointer_type)))
        for holding in (f for f in kind.fields if f.ref_sibling and f.ref):
            member = Tagged("object", shapes, other=ANY, default=pointers[holding.ref])
            fields[holding.name] = fields["children"] = Opt(Items(member))
        shapes[kind.pointer_type] = Obj(fields)
    return shapes

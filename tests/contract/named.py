"""The fields of a request body that production's schema does not name.

Production's request schemas are open (tests/contract/conflicts.py, UNKNOWN_FIELDS): a field
they do not name is valid there, and dropped. docsync must not send one, whatever the emulator
does with it, so the request check walks each body beside its schema and reports every key no
schema at its place names: a name any option of a choice (oneOf, anyOf) or any part of an allOf
declares is named, a key of a map (`additionalProperties` a schema, `patternProperties`) or of
a free object (no properties declared) is named, and what is under a named key is walked on.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Schema = dict[str, Any]
_CHOICES = ("allOf", "oneOf", "anyOf")


class Names:
    """Production's schemas, walked beside the values they describe."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.schemas: dict[str, Any] = spec["components"]["schemas"]

    def resolve(self, node: Any) -> Any:
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            node = self.schemas[node["$ref"].rsplit("/", 1)[1]]
        return node

    def leaves(self, node: Any, seen: frozenset[int] = frozenset()) -> Iterator[Schema]:
        """The schema and every part of its compositions, resolved."""
        node = self.resolve(node)
        if not isinstance(node, dict) or id(node) in seen:
            return
        yield node
        for key in _CHOICES:
            for part in node.get(key) or ():
                yield from self.leaves(part, seen | {id(node)})

    def unnamed(self, schemas: list[Any], value: Any, path: str = "") -> Iterator[str]:
        """The paths (`a.b`, `items.0.c`) of the keys in `value` none of `schemas` names."""
        leaves = [leaf for schema in schemas for leaf in self.leaves(schema)]
        if isinstance(value, list):
            items = [leaf["items"] for leaf in leaves if isinstance(leaf.get("items"), dict)]
            for index, item in enumerate(value):
                yield from self.unnamed(items, item, f"{path}{index}.")
        if not isinstance(value, dict) or not leaves:
            return
        declared: dict[str, list[Any]] = {}
        for leaf in leaves:
            for name, sub in (leaf.get("properties") or {}).items():
                declared.setdefault(name, []).append(sub)
        maps = [leaf.get("additionalProperties") for leaf in leaves]
        free = any(m is True or isinstance(m, dict) for m in maps) or any(
            "patternProperties" in leaf for leaf in leaves
        )
        if not declared and not any(m is False for m in maps):
            free = True  # an object of any keys (no properties declared at all)
        for key, sub_value in value.items():
            if key in declared:
                yield from self.unnamed(declared[key], sub_value, f"{path}{key}.")
            elif free:
                subs = [m for m in maps if isinstance(m, dict)]
                yield from self.unnamed(subs, sub_value, f"{path}{key}.")
            else:
                yield f"{path}{key}"

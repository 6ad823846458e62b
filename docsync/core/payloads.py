"""What an action carries from the planner to its kind's `execute`: one dataclass per shape of
action (the base here, a flat kind's `Fields`; a kind's own shapes in its module), so that a
field read at apply time is a field the planner wrote, checked by the type checker. References
to resources that may not exist yet are `{"$ref": address}` placeholders (`core.context.ref`),
resolved to ids at apply time."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from typing import Any

#: a `{"$ref": address}` placeholder (or None)
Ref = Any


def _refs(value: Any) -> Iterator[str]:
    if isinstance(value, Payload):
        for item in fields(value):
            yield from _refs(getattr(value, item.name))
    elif isinstance(value, dict):
        if set(value) == {"$ref"}:
            yield value["$ref"]
        else:
            for item in value.values():
                yield from _refs(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _refs(item)


@dataclass
class Payload:
    """The base of every payload: a delete needs nothing but the action's `live_id`."""

    def refs(self) -> Iterator[str]:
        """Every address this payload refers to through `$ref` placeholders."""
        yield from _refs(self)


@dataclass
class Fields(Payload):
    """A create, update, replace or restore of a flat resource: its natural key (to find it
    again after a create of unknown outcome) and the written fields, by manifest name."""

    key: str = ""
    fields: dict[str, Any] = field(default_factory=dict)

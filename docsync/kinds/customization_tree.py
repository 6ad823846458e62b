"""A customization as a tree of fields: a value by its path (`styling.primaryColor.light`) and
the live object with written values merged in; what a manifest manages of it is
`customization_base.managed`. The site's customization and its site spaces' overrides are both
compared and written through these."""

from __future__ import annotations

from typing import Any

from docsync.api.answers import Obj
from docsync.core.state import LiveResource

Leaf = tuple[str, ...]
#: a customization (a site's, a site space's effective one) as the API answers it: an object;
#: only the fields a manifest writes are compared
ANSWER = Obj({})
#: answered by the API, refused in a PUT's body
READ_ONLY = ("updatedAt",)


def writable(found: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in found.items() if k not in READ_ONLY}


def live_customization(site: LiveResource | None) -> dict[str, Any] | None:
    found = site.raw.get("_customization") if site is not None else None
    return found if isinstance(found, dict) else None


def value_at(tree: dict[str, Any], path: Leaf) -> Any:
    """The value at `path`, or None when some part of it is not there."""
    node: Any = tree
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def merged(live: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """The live customization with the written fields (dotted paths) merged in; a written null
    removes the field; what was read only is left out."""
    out: dict[str, Any] = writable(live)
    for dotted, value in fields.items():
        *parents, last = dotted.split(".")
        node = out
        for part in parents:
            child = node.get(part)
            node[part] = child = dict(child) if isinstance(child, dict) else {}
            node = child
        if value is None:
            node.pop(last, None)
        else:
            node[last] = value
    return out

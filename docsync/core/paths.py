"""Paths into a manifest document (`("teams", 2, "members", 0)`) and how a reader writes them;
the value at a path into a tree of mappings (an API's answer, a customization)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Path = tuple[str | int, ...]


def format_path(path: Path) -> str:
    """Render a path the way a reader would write it: ``teams[2].members[0]``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


def value_at(tree: Any, path: Sequence[str]) -> Any:
    """The value at `path` in nested mappings, or None when some part of it is not there."""
    node: Any = tree
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node

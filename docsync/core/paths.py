"""Paths into a manifest document (`("teams", 2, "members", 0)`) and how a reader writes them."""

from __future__ import annotations

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

"""The rich example (examples/rich): its stages, in the order they are applied, and what each
writes, by the names `Kind.writes` gives (`team`, `share_link`). Used by scripts/soak and by
the test that every kind of the catalogue is written by some stage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docsync.kinds import CATALOGUE, KINDS
from docsync.manifest import load_manifests

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rich"
#: the example's stages, applied in this order (each writes what the ones before it wrote)
STAGES = ("organization", "sites", "access", "presentation")


def every_written() -> list[str]:
    """Every kind and part of the catalogue, as `Kind.writes` names them."""
    return [f"{k.name}.{w.part}" if w.part else k.name for k in KINDS for w in k.writes]


def written_by(stage: str) -> set[str]:
    """What a stage's manifest writes: kinds (`team`, a site's `share_link`)."""
    loaded = load_manifests([EXAMPLE], variables={"stage": stage})
    data = loaded.manifest.model_dump(exclude_unset=True)
    found: set[str] = set()
    for kind in KINDS:
        if kind.declaration.mapped or kind.declaration.part:  # a field of its parents' entries
            parents = [p for name in kind.declaration.parents for p in CATALOGUE.entry_paths(name)]
            entries = [e for p in parents for e in _at(data, (*p, kind.section)) if e]
        else:
            entries = [e for path in CATALOGUE.entry_paths(kind.name) for e in _at(data, path)]
        for writes in kind.writes:
            if not writes.part and entries:
                found.add(kind.name)
            elif any(isinstance(e, dict) and e.get(writes.part) is not None for e in entries):
                found.add(f"{kind.name}.{writes.part}")
    return found


def _at(data: Any, path: tuple[str | int, ...]) -> list[Any]:
    """The values at `path` (`*` for every item of a list)."""
    if not path:
        return [data]
    head, rest = path[0], path[1:]
    if head == "*":
        return [v for item in data for v in _at(item, rest)] if isinstance(data, list) else []
    if isinstance(data, dict) and data.get(head) is not None:
        return _at(data[head], rest)
    return []

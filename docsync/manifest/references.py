"""Offline reference checks: every reference names a manifest entry or looks like an id.

A reference that looks like an id (``^[A-Za-z0-9_-]+$``) and names no entry is left for ``plan``
to verify live. A site space's ``space`` may also name a live space by title, so naming none is
never an error offline; naming only what the manifest deletes is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from docsync.core.checking import did_you_mean, is_absent, renamed_away, text
from docsync.kinds.catalogue import CATALOGUE
from docsync.kinds.declaration import Declaration
from docsync.manifest.context import CheckContext, walk
from docsync.manifest.problems import Path

_ID = re.compile(r"^[A-Za-z0-9_-]+$")


def looks_like_id(value: str) -> bool:
    """True for text that could be a live resource id, which only ``plan`` can verify."""
    return bool(_ID.match(value))


def check_references(ctx: CheckContext) -> None:
    """Report references that cannot resolve, and cycles among parents of one kind. Every
    reference field of every declared kind is checked (docsync.kinds.catalogue)."""
    for declared in CATALOGUE:
        for f in declared.fields:
            if f.ref is None:
                continue
            target = CATALOGUE.named(f.ref)
            everywhere = None if f.ref_sibling else _keys(ctx, target, ctx.data, ())
            siblings: dict[Path, _Names] = {}
            for pattern in _own_paths(declared):
                for entry_path, entry in walk(ctx.data, pattern):
                    if not isinstance(entry, dict) or is_absent(entry):
                        continue  # an absent entry only names what to delete
                    if everywhere is None:
                        parent = entry_path[:-2]
                        if parent not in siblings:
                            siblings[parent] = _keys(ctx, target, _node(ctx, parent), parent)
                        targets = siblings[parent]
                        scope = f"of this {CATALOGUE.named(declared.parents[0]).noun}"
                    else:
                        targets = everywhere
                        scope = "in this manifest"
                    for where, value in _values(entry, entry_path, f.name, f.ref_at):
                        _resolve(ctx, where, value, targets, target, scope, live=f.ref_live)
        if any(f.ref == declared.name for f in declared.fields):
            _cycles(ctx, declared)


def _own_paths(declared: Declaration) -> list[Path]:
    if declared.singleton:
        return [(declared.section,)]
    return CATALOGUE.entry_paths(declared.name)


def _node(ctx: CheckContext, path: Path) -> Any:
    return next((node for _, node in walk(ctx.data, path)), None)


def _values(entry: dict[str, Any], path: Path, name: str, at: Path) -> list[tuple[Path, Any]]:
    """The written reference values of a field (each item of a list of references)."""
    value: Any = entry.get(name)
    where: Path = (*path, name)
    for part in at:
        if not isinstance(value, dict):
            return []
        value, where = value.get(part), (*where, part)
    if isinstance(value, list):
        return [((*where, index), item) for index, item in enumerate(value)]
    return [(where, value)]


@dataclass
class _Names:
    """The entries of a kind by natural key (one keyed within a container also by
    `container/key`, a space's `Developers/Guides`), and the names its entries had (`was:`)."""

    keys: dict[str, list[Path]] = field(default_factory=dict)
    was: dict[str, Path] = field(default_factory=dict)


def _keys(ctx: CheckContext, target: Declaration, data: Any, base: Path) -> _Names:
    """The entries of a kind by natural key, under `data` (the document, or a parent entry)."""
    found = _Names()
    patterns = [(target.section, "*")] if target.nested else CATALOGUE.entry_paths(target.name)
    for pattern in patterns:
        for path, entry in walk(data, pattern, base):
            name = text(entry, target.key) if isinstance(entry, dict) else None
            if name is not None:
                found.keys.setdefault(name, []).append(path)
                scope = text(entry, target.scope) if target.scope else None
                if scope is not None:
                    found.keys.setdefault(f"{scope}/{name}", []).append(path)
                was = text(entry, "was")
                if was is not None and was != name:
                    found.was.setdefault(was, path)
    return found


def _resolve(
    ctx: CheckContext,
    path: Path,
    value: Any,
    names: _Names,
    target: Declaration,
    scope: str,
    *,
    live: bool = False,
) -> None:
    """`live`: the reference may name a live resource the manifest does not list (a site
    space's `space`), so only naming what the manifest deletes, and nothing it keeps, is an
    error offline."""
    if not isinstance(value, str) or not value:
        return
    matches = names.keys.get(value, [])
    shown = ctx.show(path, value)
    kind = target.noun
    renamer = names.was.get(value)
    if not matches and renamer is not None:
        # whatever it looks like (an id, a live title): the plan renames what it names
        item = (renamer, _entry(ctx, renamer) or {})
        ctx.report(path, renamed_away(ctx, shown, kind, item, target.key))
        return
    if live:
        deleted = [m for m in matches if is_absent(_entry(ctx, m) or {})]
        if matches and len(deleted) == len(matches):
            message = f"{shown} names a {kind} that this manifest deletes (state: absent)"
            ctx.report(path, f"{message} at {ctx.where(deleted[0])}")
        return
    if len(matches) > 1 and target.scope:
        # Keys unique only within a container: the same title may stand for several.
        places = ", ".join(str(ctx.where(match)) for match in matches)
        ctx.report(path, f"{shown} names {len(matches)} {target.plural} ({places}); use an id")
        return
    if matches:
        entry = _entry(ctx, matches[0])
        if entry is not None and is_absent(entry):
            message = f"{shown} names a {kind} that this manifest deletes (state: absent)"
            ctx.report(path, f"{message} at {ctx.where(matches[0])}")
        return
    if looks_like_id(value):
        return
    ctx.report(
        path,
        f"{shown} names no {kind} {scope} and is not an id{_hint(ctx, path, value, names)}",
    )


def _hint(ctx: CheckContext, path: Path, value: str, names: _Names) -> str:
    """The name closest to the one written. Nothing for a sensitive value: a hint would tell
    of it."""
    if ctx.is_sensitive(path):
        return ""
    return did_you_mean(value, list(names.keys))


def _entry(ctx: CheckContext, path: Path) -> dict[str, Any] | None:
    node: Any = ctx.data
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node if isinstance(node, dict) else None


def _cycles(ctx: CheckContext, declared: Declaration) -> None:
    """Parents are followed by key; a chain that returns to its start is a cycle."""
    own = next(f for f in declared.fields if f.ref == declared.name)
    items = list(walk(ctx.data, (declared.section, "*")))
    by_key: dict[str, list[int]] = {}
    for index, (_, entry) in enumerate(items):
        key = text(entry, declared.key) if isinstance(entry, dict) else None
        if key is not None:
            by_key.setdefault(key, []).append(index)
    parent_of: dict[int, int] = {}
    for index, (_, entry) in enumerate(items):
        parent = text(entry, own.name) if isinstance(entry, dict) else None
        if parent is not None and len(by_key.get(parent, [])) == 1:
            parent_of[index] = by_key[parent][0]
    reported: set[int] = set()
    for start in range(len(items)):
        chain = [start]
        node = start
        while node in parent_of:
            node = parent_of[node]
            if node in chain:
                cycle = chain[chain.index(node) :]
                if not reported.intersection(cycle):
                    reported.update(cycle)
                    _report_cycle(ctx, declared, own.name, items, cycle)
                break
            chain.append(node)


def _report_cycle(
    ctx: CheckContext,
    declared: Declaration,
    field: str,
    items: list[tuple[Path, Any]],
    cycle: list[int],
) -> None:
    first = min(cycle)
    rotated = cycle[cycle.index(first) :] + cycle[: cycle.index(first)]
    key = declared.key
    names = [ctx.show((*items[i][0], key), items[i][1].get(key)) for i in rotated]
    loop = " -> ".join([*names, names[0]])
    path = (*items[first][0], field)
    ctx.report(path, f"{declared.noun} {field}s form a cycle: {loop}")

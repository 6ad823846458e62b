"""Offline reference checks: every reference names a manifest entry or looks like an id.

A reference that looks like an id (``^[A-Za-z0-9_-]+$``) and names no entry is left for ``plan``
to verify live. A site space's ``space`` may also name a live space by title, so it is never an
error offline.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from docsync.manifest.context import CheckContext, entries, is_absent, text
from docsync.manifest.problems import Path

_ID = re.compile(r"^[A-Za-z0-9_-]+$")


def looks_like_id(value: str) -> bool:
    """True for text that could be a live resource id, which only ``plan`` can verify."""
    return bool(_ID.match(value))


def did_you_mean(name: str, candidates: list[str]) -> str:
    """A ``; did you mean 'x'?`` suffix, or nothing when no candidate is close."""
    lowered = {candidate.lower(): candidate for candidate in candidates}
    if name.lower() in lowered:
        return f"; did you mean '{lowered[name.lower()]}'?"
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def check_references(ctx: CheckContext) -> None:
    """Report references that cannot resolve, and cycles among collection parents."""
    teams = _titles(ctx, "teams", "title")
    sites = _titles(ctx, "sites", "title")
    collections = _titles(ctx, "collections", "title")
    for path, entry in entries(ctx.data, "saml", ()):
        _resolve(ctx, (*path, "defaultTeam"), entry.get("defaultTeam"), teams, "team")
    settings = ctx.data.get("settings")
    if isinstance(settings, dict) and isinstance(settings.get("defaultContent"), dict):
        site_path: Path = ("settings", "defaultContent", "site")
        _resolve(ctx, site_path, settings["defaultContent"].get("site"), sites, "site")
    for path, entry in entries(ctx.data, "spaces", ()):
        _resolve(ctx, (*path, "collection"), entry.get("collection"), collections, "collection")
    for path, entry in entries(ctx.data, "collections", ()):
        _resolve(ctx, (*path, "parent"), entry.get("parent"), collections, "collection")
    for site_path, site in entries(ctx.data, "sites", ()):
        sections = {
            name: [path]
            for path, section in entries(site, "sections", site_path)
            if (name := text(section, "title")) is not None
        }
        for group_path, group in entries(site, "sectionGroups", site_path):
            names = group.get("sections")
            if isinstance(names, list):
                for index, name in enumerate(names):
                    where = (*group_path, "sections", index)
                    _resolve(ctx, where, name, sections, "section", "of this site")
    _collection_cycles(ctx)


def _titles(ctx: CheckContext, section: str, field: str) -> dict[str, list[Path]]:
    found: dict[str, list[Path]] = {}
    for path, entry in entries(ctx.data, section, ()):
        name = text(entry, field)
        if name is not None:
            found.setdefault(name, []).append(path)
    return found


def _resolve(
    ctx: CheckContext,
    path: Path,
    value: Any,
    targets: dict[str, list[Path]],
    kind: str,
    scope: str = "in this manifest",
) -> None:
    if not isinstance(value, str) or not value:
        return
    matches = targets.get(value, [])
    shown = ctx.show(path, value)
    if len(matches) > 1 and kind == "collection":
        places = ", ".join(str(ctx.where(match)) for match in matches)
        ctx.report(path, f"{shown} names {len(matches)} collections ({places}); use an id")
        return
    if matches:
        entry = _entry(ctx, matches[0])
        if entry is not None and is_absent(entry):
            message = f"{shown} names a {kind} that this manifest deletes (state: absent)"
            ctx.report(path, f"{message} at {ctx.where(matches[0])}")
        return
    if looks_like_id(value):
        return
    hint = "" if ctx.is_sensitive(path) else did_you_mean(value, list(targets))
    ctx.report(path, f"{shown} names no {kind} {scope} and is not an id{hint}")


def _entry(ctx: CheckContext, path: Path) -> dict[str, Any] | None:
    node: Any = ctx.data
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node if isinstance(node, dict) else None


def _collection_cycles(ctx: CheckContext) -> None:
    """Parents are followed by title; a chain that returns to its start is a cycle."""
    items = list(entries(ctx.data, "collections", ()))
    by_title: dict[str, list[int]] = {}
    for index, (_, entry) in enumerate(items):
        title = text(entry, "title")
        if title is not None:
            by_title.setdefault(title, []).append(index)
    parent_of: dict[int, int] = {}
    for index, (_, entry) in enumerate(items):
        parent = text(entry, "parent")
        if parent is not None and len(by_title.get(parent, [])) == 1:
            parent_of[index] = by_title[parent][0]
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
                    _report_cycle(ctx, items, cycle)
                break
            chain.append(node)


def _report_cycle(
    ctx: CheckContext, items: list[tuple[Path, dict[str, Any]]], cycle: list[int]
) -> None:
    first = min(cycle)
    rotated = cycle[cycle.index(first) :] + cycle[: cycle.index(first)]
    names = [ctx.show((*items[i][0], "title"), items[i][1].get("title")) for i in rotated]
    loop = " -> ".join([*names, names[0]])
    path = (*items[first][0], "parent")
    ctx.report(path, f"collection parents form a cycle: {loop}")

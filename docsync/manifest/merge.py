"""Merging the files of one organization into one document, positions included.

List sections (and ``policies``) concatenate in file order, ``settings`` merges field by
field, ``prune`` is a union and ``organization`` must agree. Paths in the result are paths of
the merged document.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from docsync.manifest.files import FileDoc
from docsync.manifest.models import SECTIONS, SINGLETONS
from docsync.manifest.problems import Location, Path, Problem
from docsync.manifest.yamlpos import SourceMap

Remap = Callable[[Path], Path | None]


@dataclass
class Merged:
    """The merged document with the position of every value and its sensitive paths."""

    data: dict[str, Any] = field(default_factory=dict)
    #: made on the first look (`SourceMap.later`): each file's positions, moved to its paths in
    #: the merged document
    source: SourceMap = field(default_factory=SourceMap)
    sensitive: set[Path] = field(default_factory=set)
    failed: set[Path] = field(default_factory=set)
    problems: list[Problem] = field(default_factory=list)
    #: the file that wrote each top-level key and each field of a singleton first
    first: dict[Path, FileDoc] = field(default_factory=dict)


def merge(docs: list[FileDoc]) -> Merged:
    """Merge in the order given; report keys defined twice with both places."""
    out = Merged()
    moves: list[tuple[str, SourceMap, Remap]] = []
    for doc in docs:
        remaps: dict[str, Remap] = {}
        for key, value in doc.data.items():
            remap = _merge_key(out, doc, key, value)
            if remap is not None:
                remaps[key] = remap

        def move(path: Path, remaps: dict[str, Remap] = remaps) -> Path | None:
            if not path:
                return path
            remap = remaps.get(str(path[0]))
            return remap(path) if remap is not None else None

        moves.append((doc.name, doc.source, move))
        out.sensitive.update(moved for path in doc.sensitive if (moved := move(path)) is not None)
        out.failed.update(moved for path in doc.failed if (moved := move(path)) is not None)
        for problem in doc.problems:
            moved = move(problem.path)
            out.problems.append(Problem(problem.location, moved or problem.path, problem.message))
    out.source = SourceMap.later(partial(_positions, moves))
    return out


def _positions(moves: list[tuple[str, SourceMap, Remap]]) -> SourceMap:
    """The merged document's positions: each file's, at its paths in the merged document (the
    first file to write a path keeps it)."""
    values: dict[Path, Location] = {}
    keys: dict[Path, Location] = {}
    for name, positions, move in moves:
        values.setdefault((), Location(name, 1, 1))
        for path, location in positions.values.items():
            _put(values, move(path), location)
        for path, location in positions.keys.items():
            _put(keys, move(path), location)
    return SourceMap(values, keys)


def _put(mapping: dict[Path, Location], path: Path | None, location: Location) -> None:
    if path is not None:
        mapping.setdefault(path, location)


def _place(doc: FileDoc, path: Path) -> Location:
    return doc.source.keys.get(path) or doc.source.values.get(path) or Location(doc.name, 1, 1)


def _first_at(out: Merged, path: Path) -> Location | None:
    """Where the file that wrote `path` first wrote its key."""
    doc = out.first.get(path)
    return None if doc is None else doc.source.keys.get(path)


def _merge_key(out: Merged, doc: FileDoc, key: str, value: Any) -> Remap | None:
    if key in SECTIONS or key == "policies":
        return _merge_list(out, doc, key, value)
    if key == "prune":
        return _merge_prune(out, doc, value)
    if key in SINGLETONS:
        return _merge_singleton(out, doc, key, value)
    if key in out.data:
        if key == "safety":
            first = _first_at(out, (key,))
            message = f"'safety' is set in two files (first at {first}); set it once"
            out.problems.append(Problem(_place(doc, (key,)), (key,), message))
        if key == "organization" and out.data[key] != value:
            first = _first_at(out, (key,))
            message = (
                f"this file names another organization than {first}; "
                "all files of one run must describe the same organization"
            )
            out.problems.append(Problem(_place(doc, (key,)), (key,), message))
        return None
    out.data[key] = value
    out.first[(key,)] = doc
    return lambda path: path


def _merge_list(out: Merged, doc: FileDoc, key: str, value: Any) -> Remap | None:
    if value is None:
        value = []
    if not isinstance(value, list):
        message = f"'{key}' must be a list of entries (each line starting with '-')"
        out.problems.append(Problem(_place(doc, (key,)), (key,), message))
        return None
    merged = out.data.setdefault(key, [])
    offset = len(merged)
    merged.extend(value)
    if not offset:  # the first file of the section: its paths are the merged document's
        return lambda path: path
    return lambda path: path if len(path) < 2 else (path[0], int(path[1]) + offset, *path[2:])


def _merge_prune(out: Merged, doc: FileDoc, value: Any) -> Remap | None:
    """A union: of kinds when every file lists kinds, else of patterns per kind (a kind listed
    by name alone then owns everything, `*`)."""
    if value is None:
        value = []
    if not isinstance(value, list | dict):
        message = (
            "'prune' must be a list of section names, like [teams, saml], or a mapping of "
            'section names to name patterns, like {teams: "eng-*"}'
        )
        out.problems.append(Problem(_place(doc, ("prune",)), ("prune",), message))
        return None
    merged: Any = out.data.setdefault("prune", [])
    if isinstance(value, list) and isinstance(merged, list):
        moved: dict[int, int] = {}
        for index, item in enumerate(value):
            if isinstance(item, str) and item in merged:
                moved[index] = merged.index(item)
            else:
                moved[index] = len(merged)
                merged.append(item)
        return lambda path: path if len(path) < 2 else (path[0], moved[int(path[1])], *path[2:])
    if isinstance(merged, list):
        merged = out.data["prune"] = {item: ["*"] for item in merged if isinstance(item, str)}
    if isinstance(value, list):
        named = {index: item for index, item in enumerate(value) if isinstance(item, str)}
        for item in named.values():
            _add_patterns(merged, item, "*")
        return lambda path: (
            path if len(path) < 2 else (path[0], named.get(int(path[1]), "?"), *path[2:])
        )
    for section, patterns in value.items():
        _add_patterns(merged, section, patterns)
    return lambda path: path


def _add_patterns(merged: dict[Any, Any], section: Any, patterns: Any) -> None:
    """Patterns of a kind, unioned; a malformed value is kept as written for the model to
    report where it is."""
    have = merged.setdefault(section, [])
    if not isinstance(have, list):
        return
    items = [patterns] if isinstance(patterns, str) else patterns
    if not isinstance(items, list):
        merged[section] = patterns
        return
    have.extend(p for p in items if p not in have)


def _merge_singleton(out: Merged, doc: FileDoc, key: str, value: Any) -> Remap | None:
    """The one entry of a singleton kind (the organization's settings): merged field by field,
    a field written in two files an error naming both."""
    if value is None:
        return lambda path: path if len(path) < 2 else None
    if not isinstance(value, dict):
        message = f"'{key}' must be a mapping of its fields, not a {type(value).__name__}"
        out.problems.append(Problem(_place(doc, (key,)), (key,), message))
        return None
    merged: dict[str, Any] = out.data.setdefault(key, {})
    accepted: set[str] = set()
    for name, item in value.items():
        path: Path = (key, name)
        if name in merged:
            first = _first_at(out, path)
            message = f"{key}.{name} is set twice; first at {first}"
            out.problems.append(Problem(_place(doc, path), path, message))
            continue
        merged[name] = item
        out.first[path] = doc
        accepted.add(name)
    return lambda path: path if len(path) < 2 or path[1] in accepted else None

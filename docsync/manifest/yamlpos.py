"""Safe YAML loading that keeps every value's file:line:column and refuses duplicate keys."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import partial
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.nodes import Node
from yaml.resolver import Resolver

from docsync.core.collector import gc_paused
from docsync.manifest.problems import Location, Problem
from docsync.manifest.yaml_errors import explain
from docsync.manifest.yamlbuild import (
    MAX_DEPTH,
    MAX_REPEATS,
    Builder,
    SourceMap,
    mark_location,
)
from docsync.manifest.yamlstream import NeedsPositions, streamed


def _c_parser() -> Any:
    """libyaml's parser, when PyYAML was built with it; None for the pure one alone."""
    try:
        return importlib.import_module("yaml._yaml").CParser
    except (ImportError, AttributeError):  # pragma: no cover - depends on the PyYAML build
        return None


CParser = _c_parser()


@dataclass
class Parsed:
    """A parsed document: plain Python data, its source map and the problems found."""

    data: Any
    source: SourceMap
    problems: list[Problem]


def location_at(file: str, text: str, offset: int) -> Location:
    """The 1-based line and column of a character offset in ``text``."""
    before = text[: max(0, min(offset, len(text)))]
    line = before.count("\n") + 1
    column = offset - (before.rfind("\n") + 1) + 1
    return Location(file, line, column)


class _FastLoader(Composer, CParser or object, SafeConstructor, Resolver):  # type: ignore[misc]
    """libyaml's C parser under PyYAML's own composer: the events (and their marks) come from
    C, the nodes are built in Python as the pure loader builds them, so positions, anchors and
    the nesting bound (a RecursionError, never a C stack overflow) are the same."""

    def __init__(self, text: str) -> None:
        CParser.__init__(self, text)  # the pure loader is used when CParser is None
        Composer.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)


def _fast_node(text: str) -> tuple[Node | None, Any] | None:
    """The document's node through libyaml; None when libyaml is missing or the text has any
    problem (the pure loader then reports it, with its own words and positions)."""
    if CParser is None:
        return None
    loader = _FastLoader(text)
    try:
        return loader.get_single_node(), loader
    except (yaml.YAMLError, RecursionError, ValueError):
        return None
    finally:
        loader.dispose()


def read_streamed(text: str, file: str, *, positions: bool = True) -> Parsed | None:
    """The document built from libyaml's events (`yamlstream`); None when libyaml is missing or
    the document needs the node tree (`read_tree`). Without `positions` its source map is
    empty, and NeedsPositions is raised at the first problem."""
    if CParser is None:
        return None
    loader = _FastLoader(text)
    try:
        built = streamed(loader, file, positions=positions)
    finally:
        loader.dispose()
    if built is None:
        return None
    data, builder = built
    return Parsed(data, builder.source, builder.problems)


def _positions(text: str, file: str) -> SourceMap:
    """The positions of a document the event path read without them: read again, with them."""
    return (read_streamed(text, file) or read_tree(text, file)).source


def parse_yaml(text: str, file: str, *, positions: bool = True) -> Parsed:
    """Parse one YAML document; never raises for bad input, reports problems instead."""
    with gc_paused():
        return _parse_yaml(text, file, positions)


def _parse_yaml(text: str, file: str, positions: bool) -> Parsed:
    """Without `positions` the event path reads the document without them first (a document
    without a problem needs none until something asks where a value is: then it is read
    again, with them); with them, at once (a plan asks where each entry is)."""
    if positions:
        return read_streamed(text, file) or read_tree(text, file)
    try:
        lean = read_streamed(text, file, positions=False)
    except NeedsPositions:
        lean = None
    else:
        if lean is not None:
            lean.source = SourceMap.later(partial(_positions, text, file))
            return lean
    return read_streamed(text, file) or read_tree(text, file)


def read_tree(text: str, file: str) -> Parsed:
    """The document read through PyYAML's node tree: whatever the document holds."""
    fast = _fast_node(text)
    if fast is not None:
        node, loader = fast
        if node is None:
            return Parsed(None, SourceMap(), [])
        builder = Builder(file, loader)
        data = builder.build(node, (), 0)
        return Parsed(data, builder.source, builder.problems)
    start = Location(file, 1, 1)
    try:
        loader = yaml.SafeLoader(text)
    except yaml.reader.ReaderError as error:
        where = location_at(file, text, error.position)
        return Parsed(
            None, SourceMap(), [Problem(where, (), f"not valid YAML text: {_reader(error)}")]
        )
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = mark_location(file, mark) if mark is not None else start
        return Parsed(None, SourceMap(), [Problem(where, (), f"not valid YAML: {explain(error)}")])
    except yaml.reader.ReaderError as error:
        where = location_at(file, text, error.position)
        return Parsed(
            None, SourceMap(), [Problem(where, (), f"not valid YAML text: {_reader(error)}")]
        )
    except RecursionError:
        message = f"the document is nested too deeply (more than {MAX_DEPTH} levels are refused)"
        return Parsed(None, SourceMap(), [Problem(start, (), message)])
    finally:
        loader.dispose()
    if node is None:
        return Parsed(None, SourceMap(), [])
    builder = Builder(file, loader)
    data = builder.build(node, (), 0)
    return Parsed(data, builder.source, builder.problems)


def _reader(error: yaml.reader.ReaderError) -> str:
    char = error.character
    code = char if isinstance(char, int) else ord(char[:1] or "\0")
    return f"character U+{code:04X} is not allowed in YAML ({error.reason})"


__all__ = [
    "MAX_DEPTH",
    "MAX_REPEATS",
    "Parsed",
    "SourceMap",
    "gc_paused",
    "location_at",
    "parse_yaml",
    "read_streamed",
    "read_tree",
]

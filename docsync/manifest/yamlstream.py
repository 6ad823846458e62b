"""A manifest built straight from libyaml's events, without a node tree in between.

PyYAML's composer builds a node for every value, with two marks each, before anything is
built from them: for a manifest of 100,000 entries that tree is most of the memory `validate`
takes (300 MB for a 6 MB glossary) and half its time. Here each event becomes data and a
position as it comes, and is dropped.

This path takes the documents that need nothing of the tree: no anchors or aliases, no merge
keys (`<<`), no tags on lists or mappings, at most MAX_DEPTH levels. On anything else (and on
any YAML error) it answers None, and the document is read again through the node tree
(`yamlpos`). Both read what both take the same: the same data, positions and problems
(`tests/manifest/test_yaml_stream.py`: a document for each branch, and any data dumped in every
style).
"""

from __future__ import annotations

import sys
from typing import Any

import yaml
from yaml.events import (
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import ScalarNode

from docsync.manifest.problems import Location, Path, Problem
from docsync.manifest.yamlbuild import MAX_DEPTH, Builder

_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"


class NeedsTree(Exception):
    """The document uses what only the node tree reads (an anchor, a merge key...)."""


class NeedsPositions(Exception):
    """A problem, read without positions: its message names where, so read again with them."""


class StreamBuilder(Builder):
    """Builds the data of one document from the events of `loader` (a libyaml parser with
    PyYAML's resolver and safe constructor), recording positions as `Builder` does, or none
    (`positions=False`: until a problem is found, which `NeedsPositions` stops at)."""

    def __init__(self, file: str, loader: Any, *, positions: bool = True) -> None:
        super().__init__(file, loader)
        self.next_event = loader.get_event
        self.resolve = loader.resolve
        self.positions = positions

    def problem(self, node: Any, path: Path, message: str) -> None:
        self.found(self.at(node), path, message)

    def found(self, where: Location, path: Path, message: str) -> None:
        if not self.positions:
            raise NeedsPositions
        self.problems.append(Problem(where, path, message))

    def at(self, event: Any) -> Location:
        mark = event.start_mark
        return Location(self.file, mark.line + 1, mark.column + 1)

    def document(self) -> tuple[bool, Any]:
        """(whether there is a document, its data)."""
        self.next_event()  # the stream's start
        event = self.next_event()
        if isinstance(event, StreamEndEvent):
            return False, None
        data = self.value(self.next_event(), (), 0)
        self.next_event()  # the document's end
        if not isinstance(self.next_event(), StreamEndEvent):
            raise NeedsTree  # another document: the tree's reading says so, located
        return True, data

    def value(self, event: Any, path: Path, depth: int) -> Any:
        if depth > MAX_DEPTH or event.anchor is not None:
            raise NeedsTree
        if self.positions:
            self.source.values.setdefault(path, self.at(event))
        kind = type(event)
        if kind is ScalarEvent:
            tag = self.tag_of(event)
            if tag == _STR_TAG:
                return event.value
            return self.scalar(self.node(event, tag), path)
        tag = event.tag
        if kind is SequenceStartEvent:
            if tag is not None and tag != "!" and tag != _SEQ_TAG:
                raise NeedsTree
            items: list[Any] = []
            event = self.next_event()
            while type(event) is not SequenceEndEvent:
                items.append(self.value(event, (*path, len(items)), depth + 1))
                event = self.next_event()
            return items
        if kind is MappingStartEvent:
            if tag is not None and tag != "!" and tag != _MAP_TAG:
                raise NeedsTree
            return self.mapping_of(path, depth)
        raise NeedsTree  # an alias

    def mapping_of(self, path: Path, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        event = self.next_event()
        while type(event) is not MappingEndEvent:
            key = self.key_of(event, path)
            value_event = self.next_event()
            if key is None:
                self.skip(value_event)
            elif key in result:
                child = (*path, key)
                first = self.source.keys.get(child)
                where = f" (first at {first})" if first is not None else ""
                message = f"the key '{key}' is written twice in this mapping{where}"
                self.found(self.at(event), child, message)
                self.skip(value_event)
            else:
                child = (*path, key)
                if self.positions:
                    self.source.keys[child] = self.at(event)
                result[key] = self.value(value_event, child, depth + 1)
            event = self.next_event()
        return result

    def key_of(self, event: Any, path: Path) -> str | None:
        if event.anchor is not None:
            raise NeedsTree
        if type(event) is not ScalarEvent:
            if type(event) not in (SequenceStartEvent, MappingStartEvent):
                raise NeedsTree  # an alias
            message = "a mapping key must be plain text, not a list or mapping"
            self.found(self.at(event), path, message)
            self.skip_inside()
            return None
        tag = self.tag_of(event)
        if tag == _STR_TAG:
            return sys.intern(event.value)  # one string for the thousands of entries' `title`
        if tag == _MERGE_TAG:
            raise NeedsTree
        return self.key(self.node(event, tag), path)

    def tag_of(self, event: Any) -> str:
        tag = event.tag
        if tag is None or tag == "!":
            return str(self.resolve(ScalarNode, event.value, event.implicit))
        return str(tag)

    def node(self, event: Any, tag: str) -> ScalarNode:
        return ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)

    def skip(self, event: Any) -> None:
        """Reads past a value nothing is built of (a key written twice, or refused)."""
        if event.anchor is not None:
            raise NeedsTree
        if type(event) in (SequenceStartEvent, MappingStartEvent):
            self.skip_inside()
        elif type(event) is not ScalarEvent:
            raise NeedsTree

    def skip_inside(self) -> None:
        open_ = 1
        while open_:
            event = self.next_event()
            kind = type(event)
            if getattr(event, "anchor", None) is not None:
                raise NeedsTree
            if kind in (SequenceStartEvent, MappingStartEvent):
                open_ += 1
            elif kind in (SequenceEndEvent, MappingEndEvent):
                open_ -= 1
            elif kind is not ScalarEvent:
                raise NeedsTree


def streamed(loader: Any, file: str, *, positions: bool) -> tuple[Any, StreamBuilder] | None:
    """(data, builder) of the one document `loader` parses, or None when the node tree must
    read it (see the module's docstring). Without `positions`, NeedsPositions is raised at
    the first problem. `loader` is disposed of by the caller."""
    builder = StreamBuilder(file, loader, positions=positions)
    try:
        found, data = builder.document()
    except (NeedsTree, yaml.YAMLError, ValueError):
        return None
    return (data if found else None), builder


__all__ = ["NeedsPositions", "StreamBuilder", "streamed"]

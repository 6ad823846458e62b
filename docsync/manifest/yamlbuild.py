"""A composed YAML node tree turned into plain data, each value's position recorded, and what
YAML would allow but a manifest must not: a key written twice, tags, binary values, aliases
repeated past a budget ("billion laughs"), cycles, too deep a nesting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from docsync.manifest.problems import Location, Path, Problem

MAX_DEPTH = 64
#: values an alias or a merge key ('<<') may repeat in one document: what stops a "billion
#: laughs". Values written out count nothing: there cannot be more of them than characters in
#: the file (whose size is bounded), so a big real manifest is never refused for its size.
MAX_REPEATS = 200_000
_MAP_TAG = "tag:yaml.org,2002:map"
_STR_TAG = "tag:yaml.org,2002:str"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_MERGE_TAG = "tag:yaml.org,2002:merge"


class SourceMap:
    """Where each value (and each mapping key) of a document was written.

    Made at once, or `later` by a function that is called on the first look: the positions of
    a big manifest take more memory than its data (a path and a location per value), and a
    manifest without a problem is validated without a look at them."""

    def __init__(
        self,
        values: dict[Path, Location] | None = None,
        keys: dict[Path, Location] | None = None,
    ) -> None:
        self._values = {} if values is None else values
        self._keys = {} if keys is None else keys
        self._make: Callable[[], SourceMap] | None = None

    @classmethod
    def later(cls, make: Callable[[], SourceMap]) -> SourceMap:
        lazy = cls()
        lazy._make = make
        return lazy

    def _made(self) -> None:
        make, self._make = self._make, None
        if make is not None:
            made = make()
            self._values, self._keys = made.values, made.keys

    @property
    def values(self) -> dict[Path, Location]:
        self._made()
        return self._values

    @property
    def keys(self) -> dict[Path, Location]:
        self._made()
        return self._keys

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SourceMap):
            return NotImplemented
        return self.values == other.values and self.keys == other.keys

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        state = "not read yet" if self._make is not None else f"{len(self._values)} values"
        return f"SourceMap({state})"


def mark_location(file: str, mark: Any) -> Location:
    return Location(file, int(mark.line) + 1, int(mark.column) + 1)


class Builder:
    """Turns a composed node tree into plain data, recording positions and refusing surprises."""

    def __init__(self, file: str, loader: SafeConstructor) -> None:
        self.file = file
        self.loader = loader
        self.source = SourceMap()
        self.problems: list[Problem] = []
        self.repeated = 0
        self.too_big = False
        self.too_deep = False
        self.open: set[int] = set()
        #: ids of the lists and mappings built once: building one again is an alias's repeat
        self.built: set[int] = set()
        self.repeating = 0  # > 0 while building (within) a repeat

    def where(self, node: Node) -> Location:
        return mark_location(self.file, node.start_mark)

    def problem(self, node: Node, path: Path, message: str) -> None:
        self.problems.append(Problem(self.where(node), path, message))

    def spend(self, node: Node, path: Path) -> bool:
        """Counts one repeated value against MAX_REPEATS: aliases of aliases (a "billion
        laughs") stop at the budget instead of exhausting time and memory."""
        self.repeated += 1
        if self.repeated <= MAX_REPEATS:
            return True
        if not self.too_big:
            self.too_big = True
            message = f"aliases and merge keys ('<<') repeat more than {MAX_REPEATS} values"
            self.problem(node, path, message)
        return False

    def build(self, node: Node, path: Path, depth: int) -> Any:
        if isinstance(node, ScalarNode) or id(node) not in self.built:
            if self.repeating and not self.spend(node, path):
                return None
            return self.build_once(node, path, depth)
        if not self.spend(node, path):
            return None
        self.repeating += 1
        try:
            return self.build_once(node, path, depth)
        finally:
            self.repeating -= 1

    def build_once(self, node: Node, path: Path, depth: int) -> Any:
        """Builds `node` (again, for an alias: the data is a copy, its positions the anchor's)."""
        self.source.values.setdefault(path, self.where(node))
        if depth > MAX_DEPTH:
            if not self.too_deep:
                self.too_deep = True
                self.problem(node, path, f"nested more than {MAX_DEPTH} levels deep")
            return None
        if isinstance(node, ScalarNode):
            return self.scalar(node, path)
        if id(node) in self.open:
            self.problem(node, path, "an alias refers to a value that contains it (a cycle)")
            return None
        self.open.add(id(node))
        self.built.add(id(node))
        try:
            return self.collection(node, path, depth)
        finally:
            self.open.discard(id(node))

    def collection(self, node: Node, path: Path, depth: int) -> Any:
        if isinstance(node, SequenceNode):
            if node.tag != _SEQ_TAG:
                self.problem(node, path, f"the YAML tag {node.tag} is not supported here")
                return None
            return [self.build(item, (*path, i), depth + 1) for i, item in enumerate(node.value)]
        if isinstance(node, MappingNode):
            if node.tag != _MAP_TAG:
                self.problem(node, path, f"the YAML tag {node.tag} is not supported here")
                return None
            return self.mapping(node, path, depth)
        self.problem(node, path, "unsupported YAML node")
        return None

    def scalar(self, node: ScalarNode, path: Path) -> Any:
        if node.tag == _STR_TAG:
            return node.value  # what the constructor answers for text, without its cache
        try:
            value = self.loader.construct_object(node, deep=True)
        except Exception as error:  # a tag on a value it cannot read (`!!timestamp soon`)
            reason = getattr(error, "problem", None) or str(error) or type(error).__name__
            if not isinstance(error, yaml.YAMLError | ValueError | OverflowError):
                reason = f"it is not a valid {node.tag.rsplit(':', 1)[-1]}"
            self.problem(node, path, f"cannot read this value: {reason}")
            return None
        if isinstance(value, bytes):
            self.problem(node, path, "binary values (!!binary) are not supported; write text")
            return None
        return value

    def key(self, node: Node, path: Path) -> str | None:
        if not isinstance(node, ScalarNode):
            self.problem(node, path, "a mapping key must be plain text, not a list or mapping")
            return None
        value = self.scalar(node, path)
        if isinstance(value, str):
            return value
        hint = f"write it as text: '{node.value}'"
        self.problem(node, path, f"a mapping key must be text; {hint}")
        return None

    def mapping(self, node: MappingNode, path: Path, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        merges: list[Node] = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                merges.append(value_node)
                continue
            key = self.key(key_node, path)
            if key is None:
                continue
            child = (*path, key)
            if key in result or child in self.source.keys:
                first = self.source.keys.get(child)
                where = f" (first at {first})" if first is not None else ""
                message = f"the key '{key}' is written twice in this mapping{where}"
                self.problems.append(Problem(self.where(key_node), child, message))
                continue
            self.source.keys[child] = self.where(key_node)
            result[key] = self.build(value_node, child, depth + 1)
        merged: set[int] = set()
        for merge in merges:
            self.merge(merge, result, path, depth, merged)
        return result

    def merge(
        self, node: Node, into: dict[str, Any], path: Path, depth: int, merged: set[int]
    ) -> None:
        """YAML merge keys (``<<: *defaults``): explicit keys, then earlier sources, win.
        Every key looked at counts against the document's budget; a mapping merges once."""
        if depth > MAX_DEPTH or id(node) in self.open:
            self.problem(node, path, "merge keys ('<<') nest too deeply or form a cycle")
            return
        sources = node.value if isinstance(node, SequenceNode) else [node]
        for source in sources:
            if not isinstance(source, MappingNode):
                self.problem(source, path, "'<<' must name a mapping or a list of mappings")
                continue
            if id(source) in merged:
                continue  # merging the same mapping again adds nothing (a merge-key bomb)
            merged.add(id(source))
            for key_node, value_node in source.value:
                if not self.spend(key_node, path):  # every key merged is a repeat
                    return
                if key_node.tag == _MERGE_TAG:
                    self.merge(value_node, into, path, depth + 1, merged)
                    continue
                key = self.key(key_node, path)
                if key is None or key in into:
                    continue
                child = (*path, key)
                self.source.keys.setdefault(child, self.where(key_node))
                into[key] = self.build(value_node, child, depth + 1)

"""What the offline checks share: the merged raw document, its positions and a problem list."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from docsync.manifest.problems import Location, Path, Problem
from docsync.manifest.yamlpos import SourceMap


def nearest(mapping: dict[Path, Location], path: Path) -> Location | None:
    """The location of ``path``, or of its nearest ancestor that has one."""
    for end in range(len(path), -1, -1):
        found = mapping.get(path[:end])
        if found is not None:
            return found
    return None


@dataclass
class CheckContext:
    """The merged document plus what checks need to report located, masked problems."""

    data: dict[str, Any]
    source: SourceMap
    is_sensitive: Callable[[Path], bool]
    problems: list[Problem] = field(default_factory=list)

    def where(self, path: Path, *, key: bool = False) -> Location | None:
        if key and path in self.source.keys:
            return self.source.keys[path]
        return nearest(self.source.values, path)

    def report(
        self, path: Path, message: str, *, key: bool = False, choices: tuple[str, ...] = ()
    ) -> None:
        self.problems.append(Problem(self.where(path, key=key), path, message, choices))

    def show(self, path: Path, value: Any) -> str:
        """A value quoted for a message, or ``(sensitive)`` when it must not be printed."""
        return "(sensitive)" if self.is_sensitive(path) else repr(value)


def walk(data: Any, pattern: Path, base: Path = ()) -> Iterator[tuple[Path, Any]]:
    """The nodes at a path pattern (`*` for any list index), with their paths."""
    if not pattern:
        yield base, data
        return
    head, rest = pattern[0], pattern[1:]
    if head == "*":
        if isinstance(data, list):
            for index, item in enumerate(data):
                yield from walk(item, rest, (*base, index))
    elif isinstance(head, int):
        if isinstance(data, list) and 0 <= head < len(data):
            yield from walk(data[head], rest, (*base, head))
    elif isinstance(data, dict) and head in data:
        yield from walk(data[head], rest, (*base, head))

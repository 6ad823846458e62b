"""What the offline checks share: the merged raw document, its positions and a problem list."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from docsync.manifest.problems import Location, Path, Problem
from docsync.manifest.yamlpos import SourceMap

KEY_FIELDS: dict[str, str] = {
    "members": "email",
    "teams": "title",
    "saml": "label",
    "collections": "title",
    "spaces": "title",
    "sites": "title",
    "openapi": "slug",
    "translations": "title",
    "sections": "title",
    "siteSpaces": "path",
    "sectionGroups": "title",
}
"""The natural key of each kind of entry (by the list it sits in)."""

SCOPE_FIELDS: dict[str, str] = {"collections": "parent", "spaces": "collection"}
"""Keys that are unique only within a parent, named by this field."""

KIND_NAMES: dict[str, str] = {
    "members": "member",
    "teams": "team",
    "saml": "SAML provider",
    "collections": "collection",
    "spaces": "space",
    "sites": "site",
    "openapi": "OpenAPI spec",
    "translations": "translation",
    "sections": "section",
    "siteSpaces": "site space",
    "sectionGroups": "section group",
}


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

    def report(self, path: Path, message: str, *, key: bool = False) -> None:
        self.problems.append(Problem(self.where(path, key=key), path, message))

    def show(self, path: Path, value: Any) -> str:
        """A value quoted for a message, or ``(sensitive)`` when it must not be printed."""
        return "(sensitive)" if self.is_sensitive(path) else repr(value)


def entries(container: Any, name: str, base: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    """The mapping entries of the list ``container[name]``, with their paths; skips junk."""
    if not isinstance(container, dict):
        return
    items = container.get(name)
    if not isinstance(items, list):
        return
    for index, item in enumerate(items):
        if isinstance(item, dict):
            yield (*base, name, index), item


def text(entry: dict[str, Any], name: str) -> str | None:
    """A field's value when it is a non-empty string, else None."""
    value = entry.get(name)
    return value if isinstance(value, str) and value else None


def is_absent(entry: dict[str, Any]) -> bool:
    return entry.get("state") == "absent"

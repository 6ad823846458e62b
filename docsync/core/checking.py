"""What a kind's offline checks see (`docsync validate`, before any model): the merged raw
document and a way to report located problems. The manifest package fulfils it (its
`CheckContext`); the kinds, below it, know only this protocol."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import Any, Protocol

from docsync.core.paths import Path

#: one entry of a list as written: its path in the document and its raw mapping
Item = tuple[Path, dict[str, Any]]


class CheckView(Protocol):
    """The merged document (`data`) and where its values were written."""

    @property
    def data(self) -> dict[str, Any]: ...

    def report(self, path: Path, message: str, *, key: bool = False) -> None:
        """A problem at `path` (at its key, not its value, with `key`)."""

    def where(self, path: Path, *, key: bool = False) -> object | None:
        """`file:line:column` of `path` (its `str`), or None."""

    def show(self, path: Path, value: Any) -> str:
        """`value` quoted for a message, or `(sensitive)`."""


def raw_entries(container: Any, name: str, base: Path) -> Iterator[Item]:
    """The mapping entries of the list `container[name]`, with their paths; skips junk (the
    models report it)."""
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


def did_you_mean(name: str, candidates: list[str]) -> str:
    """A `; did you mean 'x'?` suffix, or nothing when no candidate is close."""
    lowered = {candidate.lower(): candidate for candidate in candidates}
    if name.lower() in lowered:
        return f"; did you mean '{lowered[name.lower()]}'?"
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def renamed_away(view: CheckView, shown: str, noun: str, renamer: Item, key: str) -> str:
    """Why a reference to the name an entry renames away from (`was:`) is refused, as `plan`
    refuses it (`renamer`: that entry, keyed by `key`), with the new name to write."""
    path, entry = renamer
    new = view.show((*path, key), entry.get(key))
    return (
        f"{shown} is the old name of the {noun} at {view.where(path)}, which renames it "
        f"(`was:`): after the apply it names nothing; write {new}"
    )

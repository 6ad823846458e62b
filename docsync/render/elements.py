"""The changed elements of a map, list or JSON value, each at its path
(`members["ada@acme.example"]`, `properties.isBeta.description`): what a reviewer reads instead
of two whole values. Pure data; the text, Markdown and JSON renderings all use it."""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from docsync.core.model import FieldChange


class _Absent:
    """No value on that side: the element is added or removed (unlike a `null` value)."""

    _instance: _Absent | None = None

    def __new__(cls) -> _Absent:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()

Op = Literal["add", "remove", "change"]

#: Fields that name a list's objects, tried in this order: the first one that every object on
#: both sides has, with a scalar value unique on its side, matches objects across the change.
NATURAL_KEYS = ("id", "title", "name", "label", "slug", "key", "source", "path", "email", "user")

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Element:
    """One changed element: `before` or `after` is ABSENT when it is added or removed."""

    path: str
    before: Any
    after: Any

    @property
    def op(self) -> Op:
        if self.before is ABSENT:
            return "add"
        if self.after is ABSENT:
            return "remove"
        return "change"


def element_changes(change: FieldChange, verb: str) -> list[Element] | None:
    """The changed elements of an update of a map or list; None when the change is shown whole:
    a create, a delete, a scalar, a value that appears or goes as a whole, a sensitive value."""
    if change.sensitive or verb == "delete":
        return None
    if verb in ("create", "restore", "replace") and change.before is None:
        return None
    before, after = change.before, change.after
    if not (_same_shape(before, after) and isinstance(before, (dict, list))):
        return None
    return diff_elements(before, after, change.field) or None


def diff_elements(before: Any, after: Any, path: str = "") -> list[Element]:
    """Only what differs, depth first: map keys in sorted order, list objects matched by a
    natural key when they have one (else by position), list scalars as added and removed."""
    if before == after and _hashable(before) == _hashable(after):  # True == 1, but not here
        return []
    if isinstance(before, dict) and isinstance(after, dict):
        return _diff_maps(before, after, path)
    if isinstance(before, list) and isinstance(after, list):
        key = _natural_key(before, after)
        if key is not None:
            return _diff_keyed(before, after, path, key)
        return _diff_sequences(before, after, path)
    return [Element(path, before, after)]


def key_path(path: str, key: str) -> str:
    """`path.key` for a plain name, else `path["key"]` (JSON-quoted: no key can break out)."""
    if _IDENTIFIER.fullmatch(key) and path:
        return f"{path}.{key}"
    if _IDENTIFIER.fullmatch(key):
        return key
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"


def _same_shape(before: Any, after: Any) -> bool:
    return isinstance(before, dict) == isinstance(after, dict) and isinstance(
        before, list
    ) == isinstance(after, list)


def _diff_maps(before: dict[str, Any], after: dict[str, Any], path: str) -> list[Element]:
    out: list[Element] = []
    for key in sorted(set(before) | set(after), key=str):
        inner = key_path(path, str(key))
        out += diff_elements(before.get(key, ABSENT), after.get(key, ABSENT), inner)
    return out


def _natural_key(before: list[Any], after: list[Any]) -> str | None:
    items = before + after
    if not items or not all(isinstance(item, dict) for item in items):
        return None
    for key in NATURAL_KEYS:
        if all(_scalar(item.get(key)) for item in items) and all(
            len({json.dumps(item[key]) for item in side}) == len(side) for side in (before, after)
        ):
            return key
    return None


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def _diff_keyed(before: list[Any], after: list[Any], path: str, key: str) -> list[Element]:
    def at(item: dict[str, Any]) -> str:
        return f"{path}[{key}={json.dumps(item[key], ensure_ascii=False)}]"

    was = {json.dumps(item[key]): item for item in before}
    now = {json.dumps(item[key]): item for item in after}
    out: list[Element] = []
    for name, item in was.items():
        out += diff_elements(item, now.get(name, ABSENT), at(item))
    out += [Element(at(item), ABSENT, item) for name, item in now.items() if name not in was]
    return out


def _diff_sequences(before: list[Any], after: list[Any], path: str) -> list[Element]:
    """Runs that stay are skipped; in a run that changes, objects are compared position by
    position and scalars are removed and added."""
    matcher = difflib.SequenceMatcher(
        None, [_hashable(v) for v in before], [_hashable(v) for v in after], autojunk=False
    )
    out: list[Element] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        paired = 0
        if tag == "replace":
            while (
                paired < min(i2 - i1, j2 - j1)
                and isinstance(before[i1 + paired], (dict, list))
                and _same_shape(before[i1 + paired], after[j1 + paired])
            ):
                index = j1 + paired
                out += diff_elements(before[i1 + paired], after[index], f"{path}[{index}]")
                paired += 1
        out += [Element(f"{path}[{i}]", before[i], ABSENT) for i in range(i1 + paired, i2)]
        out += [Element(f"{path}[{j}]", ABSENT, after[j]) for j in range(j1 + paired, j2)]
    return out


def _hashable(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)

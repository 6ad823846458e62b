"""What a server's answer must hold before docsync uses it: the fields a caller relies on,
declared as a shape (`Obj({"id": ID, "title": TEXT, "role": Opt(TEXT)})`), checked where the
answer is read. A wrong answer is one line naming the request and the field, never a KeyError
deep in a kind or an id of NaN in a plan.

Production's answers differ from its own document (fields it lacks, required ones missing):
a shape names only what its reader uses, so a field nobody uses is never a reason to stop. A
list's item that is not as its reader relies on is kept aside, marked (`ODD`: why, and which
field), when the reader asks (`check_items(keep_odd=True)`): that one resource is left out of the
plan, not the whole list.

Ids are non-empty strings, numbers finite (the decoder already refuses NaN and Infinity),
types those of production's response schemas; a field wrapped in `Opt` may be missing or null.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from docsync.api.errors import OddAnswer


class Check:
    """One value's expectation; `problems` yields (path below the value, what is wrong)."""

    expected = "anything"

    def problems(self, value: Any) -> list[tuple[str, str]]:
        return [] if self.fits(value) else [("", f"must be {self.expected}, got {shown(value)}")]

    def fits(self, value: Any) -> bool:
        return True


class _Text(Check):
    expected = "text"

    def fits(self, value: Any) -> bool:
        return isinstance(value, str)


class _Id(Check):
    expected = "an id (non-empty text)"

    def fits(self, value: Any) -> bool:
        return isinstance(value, str) and value.strip() != ""


class _Number(Check):
    expected = "a finite number"

    def fits(self, value: Any) -> bool:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        return math.isfinite(value)


class _Flag(Check):
    expected = "true or false"

    def fits(self, value: Any) -> bool:
        return isinstance(value, bool)


ANY = Check()
TEXT = _Text()
ID = _Id()
NUMBER = _Number()
FLAG = _Flag()


@dataclass(frozen=True)
class Opt(Check):
    """May be missing or null; else as `check` says."""

    check: Check

    def problems(self, value: Any) -> list[tuple[str, str]]:
        return [] if value is None else self.check.problems(value)


@dataclass(frozen=True)
class Items(Check):
    """A list whose every item is as `check` says."""

    check: Check

    def problems(self, value: Any) -> list[tuple[str, str]]:
        if not isinstance(value, list):
            return [("", f"must be a list, got {shown(value)}")]
        for index, item in enumerate(value):
            found = self.check.problems(item)
            if found:
                where, what = found[0]
                return [(f"[{index}]{_dot(where)}", what)]
        return []


@dataclass(frozen=True)
class Obj(Check):
    """An object with these fields (each required unless `Opt`); others are not looked at."""

    fields: Mapping[str, Check] = field(default_factory=dict)

    def problems(self, value: Any) -> list[tuple[str, str]]:
        if not isinstance(value, dict):
            return [("", f"must be an object, got {shown(value)}")]
        for name, check in self.fields.items():
            if name not in value and not isinstance(check, Opt):
                return [(name, f"is missing (expected {check.expected})")]
            found = check.problems(value.get(name))
            if found:
                where, what = found[0]
                return [(f"{name}{_dot(where)}", what)]
        return []

    def extended(self, **more: Check) -> Obj:
        """This shape with more fields (a kind's own on top of what every kind relies on)."""
        return Obj({**self.fields, **more})


@dataclass(frozen=True)
class Either(Check):
    """As one of `checks` says (the first one's complaint when none fits)."""

    checks: tuple[Check, ...]

    @property
    def expected(self) -> str:  # type: ignore[override]
        return " or ".join(c.expected for c in self.checks)

    def problems(self, value: Any) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        for check in self.checks:
            found = check.problems(value)
            if not found:
                return []
        return self.checks[0].problems(value) if found else []


@dataclass(frozen=True)
class Tagged(Check):
    """An object whose shape depends on one of its fields (a structure's items by `object`):
    `default` is the tag of one without the field; a tag not listed is checked as `other`."""

    tag: str
    shapes: Mapping[str, Check]
    other: Check = field(default_factory=Obj)
    default: str | None = None

    def problems(self, value: Any) -> list[tuple[str, str]]:
        if not isinstance(value, dict):
            return [("", f"must be an object, got {shown(value)}")]
        return self.shapes.get(str(value.get(self.tag, self.default)), self.other).problems(value)


@dataclass(frozen=True)
class Named(Check):
    """The shape `shapes[name]` at the time of the check: for shapes that hold each other (a
    structure's groups hold its sections, which hold site spaces)."""

    shapes: Mapping[str, Check]
    name: str

    def problems(self, value: Any) -> list[tuple[str, str]]:
        return self.shapes[self.name].problems(value)


@dataclass(frozen=True)
class Lazy(Check):
    """A shape built when first used: one made of kinds the catalogue finds later."""

    build: Callable[[], Check]

    def problems(self, value: Any) -> list[tuple[str, str]]:
        return self.build().problems(value)


Shape = Check

WRONG_SHAPE = "the answer is not as the Management API describes it: docsync uses none of it"
#: where a list item that is not as its reader relies on keeps why (`{"why", "field"}`)
ODD = "_odd"


def _dot(where: str) -> str:
    return "" if not where else (where if where.startswith("[") else f".{where}")


def shown(value: Any) -> str:
    """A value as a message shows it: `null`, `a list`, `"text"`, `12`."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, str):
        return repr(value[:40] + "...") if len(value) > 40 else repr(value)
    return repr(value)


def _described(found: list[tuple[str, str]], what: str) -> str:
    where, message = found[0]
    field_name = f"`{where}` " if where else ""
    return f"{what}{field_name}{message}" if what else f"the answer's {field_name}{message}"


def check_answer(method: str, path: str, answer: Any, shape: Shape, *, what: str = "") -> None:
    """OddAnswer naming the request and the field when `answer` is not as `shape` says."""
    found = shape.problems(answer)
    if found:
        raise OddAnswer(method, path, 200, _described(found, what), hint=WRONG_SHAPE)


def check_items(
    method: str,
    path: str,
    items: Sequence[Any],
    shape: Shape | None,
    *,
    first: int = 0,
    keep_odd: bool = False,
) -> None:
    """Every list item is an object, as `shape` says when one is given. With `keep_odd`, an
    object that is not as `shape` says is kept, marked with why (`ODD`), for its reader to
    leave that one resource out; else, as an item that is no object, it fails the list."""
    for index, item in enumerate(items):
        at = first + index
        if not isinstance(item, dict):
            message = f"expected every list item to be an object; item {at} is {shown(item)}"
            raise OddAnswer(method, path, 200, message)
        if shape is None:
            continue
        found = shape.problems(item)
        if not found:
            continue
        why = _described(found, f"item {at} of the list: ")
        if not keep_odd:
            raise OddAnswer(method, path, 200, why, hint=WRONG_SHAPE)
        field_name = found[0][0].split(".", 1)[0].split("[", 1)[0]
        item[ODD] = {"why": f"{method} {path}: {why}", "field": field_name}


class Listed(list[dict[str, Any]]):
    """A list's items as its reader relies on them, and aside (`odd`) those that are not,
    each marked with why (`ODD`): code that walks the items never meets an odd one, and the
    reader that makes live resources makes the odd ones too (kept out of the plan, named)."""

    def __init__(self, items: Sequence[dict[str, Any]] = (), odd: Sequence[Any] = ()) -> None:
        super().__init__(items)
        self.odd: list[dict[str, Any]] = list(odd)


def set_aside(items: Sequence[dict[str, Any]]) -> Listed:
    """Items checked with `keep_odd`, the odd ones set aside."""
    return Listed([i for i in items if ODD not in i], [i for i in items if ODD in i])


def odd_items(items: Any) -> list[dict[str, Any]]:
    """The items a list's reader set aside (none for a plain list)."""
    return list(getattr(items, "odd", ()))


def odd(item: Any) -> str | None:
    """Why a list item is not as its reader relies on (None: it is)."""
    found = item.get(ODD) if isinstance(item, dict) else None
    return str(found["why"]) if isinstance(found, dict) else None


def odd_field(item: Any) -> str | None:
    """The top-level field of a list item that is not as its reader relies on."""
    found = item.get(ODD) if isinstance(item, dict) else None
    return str(found["field"]) if isinstance(found, dict) else None

"""Declared shapes of nested request bodies, checked in one call with messages that name the
path ("header.links[0].to.kind: must be one of ...").

`Fields` (validate.py) suits a handler that reads a body field by field; a deep structure that
the emulator keeps (a site's customization) is declared once here instead, as production's
schemas declare it, so that everything kept is also something production would answer. `check`
answers the value as kept: an object holds the fields its shape names, the others dropped, as
production ignores them (its objects are open); an object production closes is `closed`, and
refuses one (400).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from docsync.emulator.errors import ApiError, bad_request
from docsync.emulator.validate import (
    TRANSLATION_LANGUAGES,
    URL_PATTERN,
    check_string,
    json_type,
    shown,
)


class Shape:
    """One declared JSON value; `check` raises a 400 naming `where` and what was expected."""

    def check(self, value: Any, where: str) -> Any:
        """`value` as kept; a 400 naming `where` when it is not of this shape."""
        raise NotImplementedError


@dataclass(frozen=True)
class Str(Shape):
    min_len: int | None = None
    max_len: int | None = None
    pattern: str | None = None

    def check(self, value: Any, where: str) -> Any:
        return check_string(where, value, self.min_len, self.max_len, self.pattern)


def url(max_len: int = 2048) -> Str:
    """Production's `URL` (format uri, at most 2048 characters), http(s) as the emulator takes."""
    return Str(max_len=max_len, pattern=URL_PATTERN)


@dataclass(frozen=True)
class Enum(Shape):
    values: Sequence[str]

    def check(self, value: Any, where: str) -> Any:
        if value not in self.values or not isinstance(value, str):
            got = repr(value)[:80] if isinstance(value, str) else json_type(value)
            raise bad_request(
                f"{where}: must be one of {', '.join(repr(v) for v in self.values)}; got {got}"
            )
        return value


@dataclass(frozen=True)
class Bool(Shape):
    def check(self, value: Any, where: str) -> Any:
        if not isinstance(value, bool):
            raise bad_request(f"{where}: must be true or false; got {json_type(value)}")
        return value


@dataclass(frozen=True)
class Num(Shape):
    """Any JSON number (production's `type: number`), not a boolean."""

    def check(self, value: Any, where: str) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise bad_request(f"{where}: must be a number; got {json_type(value)}")
        return value


@dataclass(frozen=True)
class Int(Shape):
    minimum: int
    maximum: int

    def check(self, value: Any, where: str) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
            raise bad_request(f"{where}: must be an integer; got {json_type(value)}")
        if not self.minimum <= value <= self.maximum:
            raise bad_request(
                f"{where}: must be from {self.minimum} to {self.maximum}; got {value}"
            )
        return value


@dataclass(frozen=True)
class Plain(Shape):
    """Production's `PlainObject`: an object of strings, booleans, numbers, arrays of those and
    plain objects (an integration's free-form properties)."""

    def check(self, value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            raise bad_request(f"{where}: must be an object; got {json_type(value)}")
        self._elements(value, where)
        return value

    def _elements(self, value: dict[str, Any], where: str) -> None:
        for name, item in value.items():
            items = item if isinstance(item, list) else [item]
            for index, element in enumerate(items):
                at = f"{where}.{name}" + (f"[{index}]" if isinstance(item, list) else "")
                if isinstance(element, dict):
                    self._elements(element, at)
                elif element is None or isinstance(element, list):
                    raise bad_request(
                        f"{at}: must be a string, boolean, number or object; "
                        f"got {json_type(element)}"
                    )


@dataclass(frozen=True)
class Nullable(Shape):
    """`shape` or null (production's `oneOf [shape, {type: null}]`)."""

    shape: Shape

    def check(self, value: Any, where: str) -> Any:
        return None if value is None else self.shape.check(value, where)


@dataclass(frozen=True)
class Arr(Shape):
    items: Shape
    min_items: int = 0
    max_items: int | None = None

    def check(self, value: Any, where: str) -> Any:
        if not isinstance(value, list):
            raise bad_request(f"{where}: must be an array; got {json_type(value)}")
        if len(value) < self.min_items:
            raise bad_request(f"{where}: must have at least {self.min_items} items; got 0")
        if self.max_items is not None and len(value) > self.max_items:
            raise bad_request(
                f"{where}: must have at most {self.max_items} items; got {len(value)}"
            )
        return [self.items.check(item, f"{where}[{index}]") for index, item in enumerate(value)]


@dataclass(frozen=True)
class Obj(Shape):
    """An object of declared fields, `required` among them; another field is dropped, or
    refused when production closes the object (`closed`)."""

    fields: Mapping[str, Shape]
    required: Sequence[str] = ()
    closed: bool = False

    def check(self, value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            raise bad_request(f"{where}: must be an object; got {json_type(value)}")
        prefix = f"{where}." if where else ""
        unknown = sorted(set(value) - set(self.fields))
        if unknown and self.closed:
            accepted = ", ".join(sorted(self.fields)) or "none"
            raise bad_request(f"{prefix}{unknown[0]}: unknown field (accepted: {accepted})")
        kept = {
            name: self.fields[name].check(item, f"{prefix}{name}")
            for name, item in value.items()
            if name in self.fields
        }
        for name in self.required:
            if name not in value:
                raise bad_request(f"{prefix}{name}: is required")
        return kept


@dataclass(frozen=True)
class Dict(Shape):
    """An object whose values are each `values`, its keys any, or among `keys` (production's
    `propertyNames`)."""

    values: Shape
    keys: Sequence[str] | None = None

    def check(self, value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            raise bad_request(f"{where}: must be an object; got {json_type(value)}")
        for name in value:
            if self.keys is not None and name not in self.keys:
                raise bad_request(
                    f"{where}: keys must be one of {', '.join(self.keys)}; got {shown(name)}"
                )
        return {name: self.values.check(item, f"{where}.{name}") for name, item in value.items()}


@dataclass(frozen=True)
class Localized(Shape):
    """Production's `LocalizedString<max>`: language code -> text."""

    max_len: int | None = None

    def check(self, value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            raise bad_request(f"{where}: must be an object; got {json_type(value)}")
        for language, text in value.items():
            if language not in TRANSLATION_LANGUAGES:
                raise bad_request(
                    f"{where}: keys must be language codes "
                    f"({', '.join(TRANSLATION_LANGUAGES)}), got {language!r}"
                )
            check_string(f"{where}.{language}", text, None, self.max_len, None)
        return value


@dataclass(frozen=True)
class OneOf(Shape):
    """Exactly one of `options` (production's `oneOf`); `what` names them in the refusal."""

    options: Sequence[Shape]
    what: str
    #: the field whose value tells the options apart, for a message that names it
    tag: str | None = field(default=None)
    #: production's `anyOf`: one option or more
    any: bool = False

    def check(self, value: Any, where: str) -> Any:
        """The value as the option it matches keeps it (anyOf: every matching option's fields)."""
        problems: list[str] = []
        kept: list[Any] = []
        for option in self.options:
            try:
                kept.append(option.check(value, where))
            except ApiError as error:
                problems.append(error.message)
        if len(kept) == 1:
            return kept[0]
        if kept and self.any:
            return _joined(kept)
        if kept:
            raise bad_request(
                f"{where or 'body'}: must be {self.what}, only one of them; got several"
            )
        nearest = min(problems, key=lambda p: _closeness(p, self.tag))
        raise bad_request(f"{where or 'body'}: must be {self.what} ({nearest})")


def _joined(kept: list[Any]) -> Any:
    """What several options of an anyOf keep: the fields of each, for objects."""
    if all(isinstance(value, dict) for value in kept):
        return {name: item for value in kept for name, item in value.items()}
    return kept[0]


def _closeness(problem: str, tag: str | None) -> int:
    """Order the options' refusals: one about the tag itself (the wrong kind) comes last."""
    about_tag = tag is not None and (f".{tag}: " in problem or problem.startswith(f"{tag}: "))
    return 1 if about_tag else 0

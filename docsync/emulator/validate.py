"""Request body validation with messages that name the field ("title: must be at most 64 ...").

Usage in a handler::

    body = Fields(ctx.body(), allowed=("title", "members"))   # other fields are dropped
    title = body.string("title", required=True, min_len=1, max_len=64)
    members = body.strings("members")

A field a body's schema does not name is ignored, as production ignores it (its schemas are open:
tests/contract/conflicts.py, UNKNOWN_FIELDS): `Fields` holds the named ones alone. Where
production closes an object (`additionalProperties: false`), `closed=True` refuses another (400).
Every getter returns None when the field is absent (and not required); use `body.has(name)` to
tell "absent" from "null".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from docsync.emulator.errors import bad_request
from docsync.emulator.patterns import ecma

ROLES = ("admin", "create", "review", "edit", "comment", "read")
URL_PATTERN = r"^https?://[^\s/$.?#][^\s]*$"
#: production's TranslationLanguage: the keys of localized strings (`localizedTitle`)
TRANSLATION_LANGUAGES = (
    *("en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko", "ar"),
    *("hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id"),
    *("ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl"),
)


class Fields:
    """Typed access to a JSON object's fields; every problem is a 400 naming the field."""

    def __init__(
        self,
        data: dict[str, Any],
        allowed: Iterable[str],
        prefix: str = "",
        *,
        closed: bool = False,
    ) -> None:
        named = set(allowed)
        self.data = {name: value for name, value in data.items() if name in named}
        self.prefix = prefix
        unknown = sorted(set(data) - named)
        if unknown and closed:
            accepted = ", ".join(sorted(named))
            raise bad_request(f"{prefix}{unknown[0]}: unknown field (accepted: {accepted})")

    def has(self, name: str) -> bool:
        """Whether the field is present (even when null)."""
        return name in self.data

    def value(self, name: str, *, required: bool = False, nullable: bool = False) -> Any:
        """A field of any JSON type, as written (the caller checks it)."""
        return self._get(name, required, nullable)

    def _get(self, name: str, required: bool, nullable: bool) -> Any:
        if name not in self.data:
            if required:
                raise bad_request(f"{self.prefix}{name}: is required")
            return None
        value = self.data[name]
        if value is None and not nullable:
            raise bad_request(f"{self.prefix}{name}: must not be null")
        return value

    def string(
        self,
        name: str,
        *,
        required: bool = False,
        nullable: bool = False,
        min_len: int | None = None,
        max_len: int | None = None,
        pattern: str | None = None,
    ) -> str | None:
        """A string field with optional length bounds and a regex pattern."""
        value = self._get(name, required, nullable)
        if value is None:
            return None
        return check_string(f"{self.prefix}{name}", value, min_len, max_len, pattern)

    def boolean(self, name: str, *, required: bool = False, nullable: bool = False) -> bool | None:
        """A boolean field (JSON true/false only)."""
        value = self._get(name, required, nullable)
        if value is not None and not isinstance(value, bool):
            raise bad_request(f"{self.prefix}{name}: must be true or false; got {json_type(value)}")
        return value  # type: ignore[no-any-return]

    def enum(
        self, name: str, values: Sequence[str], *, required: bool = False, nullable: bool = False
    ) -> str | None:
        """A string restricted to `values`."""
        value = self._get(name, required, nullable)
        if value is not None and value not in values:
            raise bad_request(
                f"{self.prefix}{name}: must be one of {', '.join(repr(v) for v in values)}"
                + (" or null" if nullable else "")
                + f"; got {shown(value) if isinstance(value, str) else json_type(value)}"
            )
        return value  # type: ignore[no-any-return]

    def strings(
        self,
        name: str,
        *,
        required: bool = False,
        nullable: bool = False,
        max_items: int = 1000,
        max_len: int | None = None,
    ) -> list[str] | None:
        """A list of strings."""
        value = self._get(name, required, nullable)
        if value is None:
            return None
        if not isinstance(value, list):
            raise bad_request(
                f"{self.prefix}{name}: must be a list of strings; got {json_type(value)}"
            )
        if len(value) > max_items:
            raise bad_request(
                f"{self.prefix}{name}: must have at most {max_items} items; got {len(value)}"
            )
        return [
            check_string(f"{self.prefix}{name}[{i}]", item, None, max_len, None)
            for i, item in enumerate(value)
        ]

    def obj(
        self, name: str, *, required: bool = False, nullable: bool = False
    ) -> dict[str, Any] | None:
        """A nested JSON object; check its fields with `Fields(value, ..., prefix=name + ".")`."""
        value = self._get(name, required, nullable)
        if value is not None and not isinstance(value, dict):
            raise bad_request(f"{self.prefix}{name}: must be an object; got {json_type(value)}")
        return value  # type: ignore[no-any-return]


def check_string(
    name: str, value: Any, min_len: int | None, max_len: int | None, pattern: str | None
) -> str:
    """Check one string value; 400 naming `name` on the first violated constraint."""
    if not isinstance(value, str):
        raise bad_request(f"{name}: must be a string; got {json_type(value)}")
    if min_len is not None and len(value) < min_len:
        raise bad_request(f"{name}: must be at least {min_len} characters; got {len(value)}")
    if max_len is not None and len(value) > max_len:
        raise bad_request(f"{name}: must be at most {max_len} characters; got {len(value)}")
    if pattern is not None and not ecma(pattern).search(value):
        raise bad_request(f"{name}: must match the pattern {pattern}; got {shown(value)}")
    return value


def json_type(value: Any) -> str:
    """What a wrong value is, in JSON's words ("a number"), for "got ..." in messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, list):
        return "an array"
    return "an object" if isinstance(value, dict) else "a string"


def shown(value: str, limit: int = 80) -> str:
    """The written value for an error message, cut to `limit` characters."""
    return repr(value if len(value) <= limit else value[:limit] + "...")

"""What every manifest entry model shares: strictness, `id`/`state`/`protect`, and the API's
value types and limits. Each kind's own entry model sits in its kind's module (`docsync.kinds`).

Field names are the API's camelCase names (../shared/INTERFACE.md §2). Optional fields default to
``None`` and later stages read ``model_fields_set`` to tell "not written" (unmanaged) from an
explicit ``null`` (remove). Limits come from ../shared/reference/docs-platform-api.md §2 and §8;
where it is silent, from the production contract digest §4.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from docsync.core.nullability import NullChecked

Role = Literal["admin", "create", "review", "edit", "comment", "read"]
DefaultLevel = Literal["admin", "create", "review", "edit", "comment", "read", "inherit"]
State = Literal["present", "absent"]
#: production's TranslationLanguage: a translation's language, the keys of a localized text
Language = Literal[
    "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko",
    "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th",
    "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl",
]  # fmt: skip

#: roles from the most access to the least, a guest (None) last: a move down lowers access
RANKS: tuple[Role | None, ...] = ("admin", "create", "review", "edit", "comment", "read", None)


def lower(before: str | None, after: str | None) -> bool:
    """Whether moving from role `before` to `after` (None: a guest) takes access away."""
    return RANKS.index(after) > RANKS.index(before)  # type: ignore[arg-type]


def role_shown(role: str | None) -> str:
    """A role as a plan's notes and access tables show it: a null one is `guest`."""
    return "guest" if role is None else role


#: regex -> what it asks for, said for people (`docsync validate` shows this, not the regex)
PATTERN_MESSAGES: dict[str, str] = {}


def was_names(entry: Any) -> set[str]:
    """The titles of the live resource an entry renames (`was:`): the name written and, for a
    resource keyed by its path (`Developers/Guides`), its last step. Reads of what a resource
    holds (members, grants, a site's structure and parts) look for it under these too, or the
    plan would compare the entry with nothing and make again what the resource holds."""
    was = getattr(entry, "was", None)
    return {was, was.rsplit("/", 1)[-1]} if isinstance(was, str) else set()


def explained(pattern: str, message: str) -> str:
    """A field pattern together with the sentence a validation error shows for it."""
    PATTERN_MESSAGES[pattern] = message
    return pattern


URI_PATTERN = explained(
    r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$",
    "must be an absolute URL, like 'https://acme.example/openapi.yaml'",
)

Uri = Annotated[
    str, Field(max_length=2048, pattern=URI_PATTERN, json_schema_extra={"format": "uri"})
]
Icon = Annotated[str, Field(min_length=1, max_length=50)]
Condition = Annotated[str, Field(min_length=1, max_length=1024)]
#: an expression of production's (a merge rule's condition, an MCP server's)
Expression = Annotated[str, Field(max_length=1024)]
Ref = Annotated[str, Field(min_length=1)]
#: production's LocalizedString128 and LocalizedString256 as a manifest writes them: a text by
#: language, overriding the default language's (`Field.keyed`: a language written null removes
#: its override)
LocalizedText128 = dict[Language, Annotated[str, Field(max_length=128)] | None]
LocalizedText256 = dict[Language, Annotated[str, Field(max_length=256)] | None]


class Model(BaseModel):
    """Strict about unknown fields; absent and explicit null stay distinguishable. The docstring
    under a field is its description in the JSON Schema (`docsync.manifest.described`)."""

    model_config = ConfigDict(extra="forbid", frozen=False, defer_build=True)


class Entry(NullChecked, Model):
    id: str | None = Field(default=None, min_length=1)
    """Pins the entry to a live resource; the natural key may then change (a rename)."""
    state: State = "present"
    """``absent`` asks for deletion."""
    protect: bool = False
    """Forbids deleting or replacing the live resource."""

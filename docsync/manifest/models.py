"""Pydantic models of a manifest: one per section and entry, with the API's own limits.

Field names are the API's camelCase names (../shared/INTERFACE.md §2). Optional fields default to
``None`` and later stages read ``model_fields_set`` to tell "not written" (unmanaged) from an
explicit ``null`` (remove). Limits come from ../shared/reference/docs-platform-api.md §2 and §8;
where it is silent, from the production contract digest §4.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    GetJsonSchemaHandler,
    Tag,
    field_validator,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from docsync.core.catalogue import CATALOGUE
from docsync.manifest.nullability import NULL, NullChecked

Role = Literal["admin", "create", "review", "edit", "comment", "read"]
DefaultLevel = Literal["admin", "create", "review", "edit", "comment", "read", "inherit"]
TeamRole = Literal["owner", "member"]
Visibility = Literal["public", "unlisted", "share-link", "visitor-auth"]
SiteType = Literal["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"]
State = Literal["present", "absent"]
#: production's TranslationLanguage
TranslationLanguage = Literal[
    "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko",
    "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th",
    "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl",
]  # fmt: skip
SECTIONS: tuple[str, ...] = tuple(d.section for d in CATALOGUE.lists)
"""The list sections of a manifest, in the catalogue's order (derived from the declarations)."""

if TYPE_CHECKING:
    SectionName = str
else:
    SectionName = Literal[SECTIONS]

URI_PATTERN = r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$"
PROXY_PATTERN = r"^([A-Za-z0-9_-]+[.])*[A-Za-z0-9_-]+[.][a-zA-Z]{2,}(/[A-Za-z0-9_-]+)+$"
SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
HOSTNAME_PATTERN = r"^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$"
ORG_TITLE_PATTERN = r"^\S.*\S$"

Uri = Annotated[
    str, Field(max_length=2048, pattern=URI_PATTERN, json_schema_extra={"format": "uri"})
]
Icon = Annotated[str, Field(min_length=1, max_length=50)]
Condition = Annotated[str, Field(min_length=1, max_length=1024)]
Ref = Annotated[str, Field(min_length=1)]

SENSITIVE_FIELDS: Mapping[str, frozenset[str]] = {
    d.section: frozenset(f.name for f in d.fields if f.sensitive)
    for d in CATALOGUE.lists
    if any(f.sensitive for f in d.fields)
}
"""Top-level entry fields whose values are never printed, per manifest section (nested ones:
`CATALOGUE.sensitive_paths()`)."""


class Model(BaseModel):
    """Strict about unknown fields; absent and explicit null stay distinguishable."""

    model_config = ConfigDict(extra="forbid", frozen=False, use_attribute_docstrings=True)


class Entry(NullChecked, Model):
    id: str | None = Field(default=None, min_length=1)
    """Pins the entry to a live resource; the natural key may then change (a rename)."""
    state: State = "present"
    """``absent`` asks for deletion."""
    protect: bool = False
    """Forbids deleting or replacing the live resource."""


class DefaultContent(Model):
    """The content shown at the organization's root: a site, by title or id."""

    site: Ref


class OrgSettings(NullChecked, Model):
    """Organization settings (PATCH /v1/orgs/{id}); only the fields written are managed."""

    title: str | None = Field(default=None, min_length=2, max_length=255, pattern=ORG_TITLE_PATTERN)
    emailDomains: list[Annotated[str, Field(min_length=1)]] | None = None
    hostname: str | None = Field(default=None, min_length=3, max_length=32)
    defaultRole: Annotated[Role | None, NULL] = None
    """Role of new members; null: guest."""
    defaultContent: Annotated[DefaultContent | None, NULL] = None
    logo: Annotated[Uri | None, NULL] = None
    sso: bool | None = None
    ai: bool | None = None
    inviteLinks: bool | None = None


class MemberEntry(Entry):
    """The role of an existing member, keyed by email (or user id in ``id``)."""

    email: str | None = Field(default=None, min_length=1, max_length=320)
    role: Annotated[Role | None, NULL] = None
    """null: guest."""


class TeamMemberRef(Model):
    """A team member: a plain string is a user (email or id) with role ``member``."""

    user: str = Field(min_length=1)
    role: TeamRole = "member"

    @model_validator(mode="before")
    @classmethod
    def _from_string(cls, data: Any) -> Any:
        return {"user": data} if isinstance(data, str) else data

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        schema = handler.resolve_ref_schema(handler(core_schema))
        return {"anyOf": [{"type": "string", "minLength": 1}, schema]}


class TeamEntry(Entry):
    """A team, keyed by title; ``members``, when written, is the exact membership."""

    title: str | None = Field(default=None, min_length=1, max_length=64)
    members: list[TeamMemberRef] | None = None


class SamlEntry(Entry):
    """A SAML single sign-on provider, keyed by label."""

    label: str | None = Field(default=None, min_length=1, max_length=30)
    ssoURL: Uri | None = None
    entityID: str | None = Field(default=None, max_length=1024)
    certificate: str | None = Field(default=None, max_length=10000)
    """Sensitive: never printed."""
    defaultTeam: Ref | None = None
    """A team by title (or id)."""
    defaultRole: Annotated[Role | None, NULL] = None


class CollectionEntry(Entry):
    """A collection, keyed by title within its parent collection."""

    title: str | None = Field(default=None, min_length=1, max_length=50)
    description: str | None = Field(default=None, max_length=100)
    defaultLevel: Annotated[DefaultLevel | None, NULL] = None
    parent: Annotated[Ref | None, NULL] = None
    """The parent collection by title (or id); null: top level."""


class SpaceEntry(Entry):
    """A space, keyed by title within its collection; deleted only by ``state: absent``."""

    title: str | None = Field(default=None, min_length=1, max_length=50)
    emoji: Annotated[str | None, NULL] = Field(default=None, min_length=1, max_length=50)
    collection: Annotated[Ref | None, NULL] = None
    """The collection by title (or id); null: top level."""
    editMode: Literal["live", "locked"] | None = None
    defaultLevel: Annotated[DefaultLevel | None, NULL] = None


class SiteSpaceEntry(Entry):
    """A space published on a site, keyed by path within its section (or site)."""

    space: Ref | None = None
    """A space by title (of the manifest or live) or id."""
    path: str | None = Field(default=None, min_length=1, max_length=100)
    condition: Annotated[Condition | None, NULL] = None
    default: bool | None = None


class SectionEntry(Entry):
    """A site section, keyed by title within its site."""

    title: str | None = Field(default=None, min_length=2, max_length=128)
    path: str | None = Field(default=None, min_length=1, max_length=100)
    icon: Annotated[Icon | None, NULL] = None
    description: Annotated[str | None, NULL] = Field(default=None, max_length=256)
    condition: Annotated[Condition | None, NULL] = None
    default: bool | None = None
    siteSpaces: list[SiteSpaceEntry] | None = None


class SectionGroupEntry(Entry):
    """A group of sections of the same site, keyed by title."""

    title: str | None = Field(default=None, min_length=1, max_length=100)
    icon: Annotated[Icon | None, NULL] = None
    sections: list[Ref] | None = None
    """Titles (or ids) of sections of the same site."""


class AdaptiveContent(Model):
    enabled: bool


class SiteEntry(Entry):
    """A docs site, keyed by title."""

    title: str | None = Field(default=None, min_length=2, max_length=128)
    type: SiteType | None = None
    """Used when the site is created only."""
    visibility: Visibility | None = None
    published: bool | None = None
    basename: str | None = Field(default=None, min_length=1, max_length=100)
    proxy: Annotated[str | None, NULL] = Field(default=None, max_length=512, pattern=PROXY_PATTERN)
    """A scheme-less origin with a path, e.g. ``acme.example/docs``; null removes it."""
    agentsContext: Literal["excluded", "included"] | None = None
    adaptiveContent: AdaptiveContent | None = None
    adaptiveSchema: dict[str, Any] | None = None
    """The visitor claims' JSON Schema (draft-07) of PUT .../adaptive-schema."""
    sections: list[SectionEntry] | None = None
    siteSpaces: list[SiteSpaceEntry] | None = None
    """Site spaces of a site without sections."""
    sectionGroups: list[SectionGroupEntry] | None = None


class OpenApiSource(Model):
    """Where the specification comes from: exactly one of ``url`` and ``text``."""

    url: Uri | None = None
    text: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _exactly_one(self) -> OpenApiSource:
        if (self.url is None) == (self.text is None):
            raise ValueError("give exactly one of 'url' and 'text'")
        return self


class OpenApiEntry(Entry):
    """An OpenAPI specification, keyed by slug."""

    slug: str | None = Field(default=None, min_length=1, max_length=100, pattern=SLUG_PATTERN)
    source: OpenApiSource | None = None


class TranslationEntry(Entry):
    """A translation in one of two shapes: the API description's settings ``{title}``, keyed
    by title; or production's translation of a space into a language ``{space, language,
    sourceLanguage}``, keyed by space and language (INTERFACE.md §2.1)."""

    title: str | None = Field(default=None, min_length=1, max_length=128)
    """The description's translation settings (not served by production)."""
    space: Ref | None = None
    """The source space by title (or id): production's translations."""
    language: TranslationLanguage | None = None
    """The target language."""
    sourceLanguage: TranslationLanguage | None = None
    """The source space's language; default: the space's own, else ``en``."""

    @field_validator("language", "sourceLanguage", mode="before")
    @classmethod
    def _not_a_yaml_boolean(cls, value: Any) -> Any:
        if isinstance(value, bool):
            raise ValueError(
                f"YAML reads an unquoted {'yes/on' if value else 'no/off'} as a boolean: quote "
                'the language code (language: "no")'
            )
        return value

    @model_validator(mode="after")
    def _one_shape(self) -> TranslationEntry:
        production = {"space", "language", "sourceLanguage"} & self.model_fields_set
        if self.title is not None and production:
            raise ValueError(
                "give either 'title' (translation settings) or 'space' and 'language' "
                "(a translation), not both"
            )
        if production and not ({"space", "language"} <= self.model_fields_set):
            missing = "language" if "space" in self.model_fields_set else "space"
            raise ValueError(f"'{missing}' is required: a translation names a space and a language")
        if self.sourceLanguage is not None and self.sourceLanguage == self.language:
            raise ValueError(f"'language' {self.language!r} is the source language itself")
        return self


#: Tags of the two shapes of `prune`; stripped from error locations (manifest/validation.py).
PRUNE_TAGS = ("prune-list", "prune-map")
PruneSpec = Annotated[
    Annotated[list[SectionName], Tag("prune-list")]
    | Annotated[dict[SectionName, str | list[str]], Tag("prune-map")],
    Discriminator(lambda value: "prune-map" if isinstance(value, dict) else "prune-list"),
]
"""`prune:`: a list of kinds, or per kind the globs of the names this manifest owns."""


class SafetyLimits(Model):
    """Thresholds of the safety rails for one kind, or for all (docs/gitops.md)."""

    max_delete_share: float | None = Field(default=None, ge=0, le=1)
    """Refuse a plan deleting or replacing more than this share of the kind's live resources."""
    max_update_share: float | None = Field(default=None, ge=0, le=1)
    """Refuse a plan updating more than this share of the kind's live resources."""
    min_existing: int | None = Field(default=None, ge=0)
    """The shares apply only when at least this many live resources of the kind exist."""


class Safety(SafetyLimits):
    """`safety:`: thresholds for every kind, and `kinds:` for one kind each."""

    kinds: dict[SectionName, SafetyLimits] = Field(default_factory=dict)


class Manifest(Model):
    """The desired state of one organization: the merge of all its manifest files."""

    organization: str = Field(min_length=1)
    """The organization's id, or the title of one the token can see."""
    settings: OrgSettings | None = None
    prune: PruneSpec = Field(default_factory=list)
    """Kinds whose live resources that no entry matches are deleted: a list of kinds, or per
    kind the globs of the names this manifest owns (`{teams: "eng-*"}`)."""
    safety: Safety | None = None
    """The safety rails' thresholds (default: deletes 30% of at least 10, updates unlimited)."""
    members: list[MemberEntry] = Field(default_factory=list)
    teams: list[TeamEntry] = Field(default_factory=list)
    saml: list[SamlEntry] = Field(default_factory=list)
    collections: list[CollectionEntry] = Field(default_factory=list)
    spaces: list[SpaceEntry] = Field(default_factory=list)
    sites: list[SiteEntry] = Field(default_factory=list)
    openapi: list[OpenApiEntry] = Field(default_factory=list)
    translations: list[TranslationEntry] = Field(default_factory=list)

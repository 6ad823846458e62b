"""The manifest's top-level model, assembled from the kinds' declarations.

Each kind's entry model sits in its kind's module (`docsync.kinds.<kind>`); this module adds the
manifest's own parts (`organization`, `prune`, `safety`, `policies`) and one field per top-level
kind, so a new kind needs no edit here. Field names are the API's camelCase names
(../shared/INTERFACE.md §2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, create_model

from docsync.core.entries import Model
from docsync.kinds.catalogue import CATALOGUE, entry_model
from docsync.manifest.policies import PolicyRule

SECTIONS: tuple[str, ...] = tuple(d.section for d in CATALOGUE.lists)
"""The list sections of a manifest, in the catalogue's order (derived from the declarations)."""

if TYPE_CHECKING:
    SectionName = str
else:
    SectionName = Literal[SECTIONS]

SINGLETONS: frozenset[str] = frozenset(d.section for d in CATALOGUE.top if d.singleton)
"""The sections holding one entry, not a list (the organization's settings): merged field by
field."""

SENSITIVE_FIELDS: Mapping[str, frozenset[str]] = {
    d.section: frozenset(f.name for f in d.fields if f.sensitive)
    for d in CATALOGUE.lists
    if any(f.sensitive for f in d.fields)
}
"""Top-level entry fields whose values are never printed, per manifest section (nested ones:
`CATALOGUE.sensitive_paths()`)."""


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


class _ManifestBase(Model):
    """The desired state of one organization: the merge of all its manifest files."""

    organization: str = Field(min_length=1)
    """The organization's id, or the title of one the token can see."""
    prune: PruneSpec = Field(default_factory=list)
    """Kinds whose live resources that no entry matches are deleted: a list of kinds, or per
    kind the globs of the names this manifest owns (`{teams: "eng-*"}`)."""
    safety: Safety | None = None
    """The safety rails' thresholds (default: deletes 30% of at least 10, updates unlimited)."""
    policies: list[PolicyRule] = Field(default_factory=list)
    """Rules checked on every action of every plan: `deny` refuses the plan, `warn` puts the
    action under "Needs a careful look" (docs/policies.md)."""


def _kind_fields() -> dict[str, Any]:
    """One field per top-level kind: a list of its entries, or the one entry of a singleton."""
    fields: dict[str, Any] = {}
    for declared in CATALOGUE.top:
        model = entry_model(declared.name)
        if declared.singleton:
            fields[declared.section] = (model | None, None)
        else:
            fields[declared.section] = (list[model], Field(default_factory=list))  # type: ignore[valid-type]
    return fields


if TYPE_CHECKING:

    class Manifest(_ManifestBase):
        """Kinds' sections are added at run time (`_kind_fields`)."""

        def __getattr__(self, name: str) -> Any: ...

else:
    Manifest = create_model(
        "Manifest",
        __base__=_ManifestBase,
        __module__=__name__,
        __doc__=_ManifestBase.__doc__,
        **_kind_fields(),
    )

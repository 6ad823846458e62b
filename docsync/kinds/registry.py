"""The ordered registry of kinds; a name registered twice is a programming error."""

from __future__ import annotations

from docsync.core.catalogue import CATALOGUE
from docsync.kinds.base import Kind
from docsync.kinds.collections import CollectionKind
from docsync.kinds.members import MemberKind
from docsync.kinds.openapi import OpenApiKind
from docsync.kinds.saml import SamlKind
from docsync.kinds.settings import SettingsKind
from docsync.kinds.site_children import SectionGroupKind, SectionKind, SiteSpaceKind
from docsync.kinds.sites import SiteKind
from docsync.kinds.spaces import SpaceKind
from docsync.kinds.teams import TeamKind
from docsync.kinds.translations import TranslationKind


def _register(*kinds: Kind) -> tuple[Kind, ...]:
    """One kind per declaration of the catalogue, in its order (a name twice is refused)."""
    seen: set[str] = set()
    for kind in kinds:
        if kind.name in seen:
            raise RuntimeError(f"kind {kind.name!r} is registered twice")
        if CATALOGUE.by_name.get(kind.name) is not kind.declaration:
            raise RuntimeError(f"kind {kind.name!r} is not the catalogue's declaration")
        seen.add(kind.name)
    if [k.name for k in kinds] != [d.name for d in CATALOGUE]:
        raise RuntimeError("the registered kinds are not the catalogue's, in its order")
    return kinds


#: Declaration order is dependency order: referenced kinds first, the organization settings last
#: (its defaultContent names a site).
KINDS: tuple[Kind, ...] = _register(
    MemberKind(),
    TeamKind(),
    SamlKind(),
    CollectionKind(),
    SpaceKind(),
    OpenApiKind(),
    TranslationKind(),
    SiteKind(),
    SectionKind(),
    SiteSpaceKind(),
    SectionGroupKind(),
    SettingsKind(),
)


def kind_named(name: str) -> Kind:
    for kind in KINDS:
        if kind.name == name:
            return kind
    raise KeyError(name)

"""What the actions on a site and its children carry from the planner to the requests: the
site it is on (a `$ref` placeholder until the site exists), a child's create or update, the
site's one reorder, where a level's default is set, paths handed round, a group's sections."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from docsync.core.payloads import Payload, Ref
from docsync.kinds.nested.parts import OnSite


@dataclass
class Level(Payload):
    """One level of a site's order: the container (None: the root), the items in the
    manifest's order, and each item's kind."""

    container: str | None
    desired: list[str]
    kinds: dict[str, str]


@dataclass
class Reorder(OnSite):
    levels: list[Level] = field(default_factory=list)


@dataclass
class DefaultVia(Payload):
    """Where a level's default flag is set: on the site, or on the section (by its ref)."""

    kind: str
    id: Ref = None


@dataclass
class PathStep(Payload):
    """One step of paths handed round within a level (through a temporary path)."""

    id: str | None
    path: str


@dataclass
class GroupMembership(Payload):
    """Sections a group gains and loses (as `$ref` placeholders), each by a PATCH of the
    section's `siteSectionGroupId`; one moving to another group is only in that group's `add`."""

    add: list[Ref] = field(default_factory=list)
    remove: list[Ref] = field(default_factory=list)


@dataclass
class ChildChange(OnSite):
    """A create or update of a section, site space or section group."""

    fields: dict[str, Any] = field(default_factory=dict)
    default_via: DefaultVia | None = None
    #: a site space's section (a `$ref`); None for a site space at the site's root
    section: Ref = None
    #: a section's create makes its first site space: the space, that site space's address,
    #: and its home page (`pageId`, which the section's create takes for it)
    first_space: Ref = None
    first_site_space: str | None = None
    first_page: str | None = None
    #: a site space made by its section's create: its own create only sets what that could not
    made_by_section: bool = False
    paths: list[PathStep] = field(default_factory=list)
    membership: GroupMembership | None = None


def child(action: Any) -> ChildChange:
    """The payload of an action on a site's child (anything else is a bug of the planner)."""
    if not isinstance(action.payload, ChildChange):
        raise TypeError(f"{action.key}: expected a ChildChange payload, got {action.payload!r}")
    return action.payload

"""What an action carries from the planner to its kind's `execute`: one dataclass per shape of
action, so that a field read at apply time is a field the planner wrote, checked by the type
checker. References to resources that may not exist yet are `{"$ref": address}` placeholders
(`core.context.ref`), resolved to ids at apply time."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from typing import Any

#: a `{"$ref": address}` placeholder (or None)
Ref = Any


def _refs(value: Any) -> Iterator[str]:
    if isinstance(value, Payload):
        for item in fields(value):
            yield from _refs(getattr(value, item.name))
    elif isinstance(value, dict):
        if set(value) == {"$ref"}:
            yield value["$ref"]
        else:
            for item in value.values():
                yield from _refs(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _refs(item)


@dataclass
class Payload:
    """The base of every payload: a delete needs nothing but the action's `live_id`."""

    def refs(self) -> Iterator[str]:
        """Every address this payload refers to through `$ref` placeholders."""
        yield from _refs(self)


@dataclass
class Fields(Payload):
    """A create, update, replace or restore of a flat resource: its natural key (to find it
    again after a create of unknown outcome) and the written fields, by manifest name."""

    key: str = ""
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass
class Membership(Payload):
    """What one batch request does to a team's members, by user id: who joins, who leaves,
    whose role is set (a new member's other than `member`, a member's that changes); `after`:
    who the team has once it is done (the safety rails judge access by it)."""

    add: list[str] = field(default_factory=list)
    remove: list[str] = field(default_factory=list)
    roles: dict[str, str] = field(default_factory=dict)
    after: list[str] = field(default_factory=list)


@dataclass
class TeamFields(Fields):
    """A team's fields; its membership, when managed, is reached by one more request."""

    members: Membership | None = None


@dataclass
class OnSite(Payload):
    """An action on a site as a whole (publish, unpublish), or on one of its children."""

    site: Ref = None


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
    #: a section's create makes its first site space: the space, and that site space's address
    first_space: Ref = None
    first_site_space: str | None = None
    #: a site space made by its section's create: its own create only sets what that could not
    made_by_section: bool = False
    paths: list[PathStep] = field(default_factory=list)
    membership: GroupMembership | None = None


def child(action: Any) -> ChildChange:
    """The payload of an action on a site's child (anything else is a bug of the planner)."""
    if not isinstance(action.payload, ChildChange):
        raise TypeError(f"{action.key}: expected a ChildChange payload, got {action.payload!r}")
    return action.payload

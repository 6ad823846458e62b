"""The plan as plain data: actions with addresses, field changes, locations and dependencies."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from docsync.core.payloads import Payload

Verb = Literal[
    "create", "update", "delete", "replace", "restore", "reorder", "publish", "unpublish"
]

#: The order in which verbs are counted and listed in summaries.
VERBS: tuple[Verb, ...] = (
    "create",
    "update",
    "replace",
    "restore",
    "reorder",
    "publish",
    "unpublish",
    "delete",
)

#: Marks a field that has no value on one side (absent live, or not written).
ABSENT: Any = None


def address(kind: str, key: str, parent: str | None = None) -> str:
    """`team["Platform"]`, or `site["Docs"].section["Guides"]` under a parent address."""
    own = f'{kind}["{_quoted(key)}"]'
    return f"{parent}.{own}" if parent else own


def grant_address(resource: str, principal: str, name: str) -> str:
    """`collection["Engineering"].grant[team "Writers"]`, `...grant[member "ada@acme.example"]`:
    a grant is addressed by its principal, whose type the address says (a team and a member
    may share a name)."""
    return f'{resource}.grant[{principal} "{_quoted(name)}"]'


#: a grant's address: its resource, the principal's type and name
_GRANT = re.compile(r'^(?P<resource>.+)\.grant\[(?P<principal>\w+) "(?P<name>(?:[^"\\]|\\.)*)"\]$')


def grant_of(grant: str) -> tuple[str, str, str] | None:
    """The resource, principal type and name of a grant's address (None: not a grant's), so
    that a saved plan's access table is drawn from addresses alone."""
    found = _GRANT.match(grant)
    if found is None:
        return None
    return found["resource"], found["principal"], re.sub(r"\\(.)", r"\1", found["name"])


def role_shown(role: str | None) -> str:
    """A grant's role as a plan's notes and access tables show it: a null one is `guest` (a
    site's guest override)."""
    return "guest" if role is None else role


def _quoted(key: str) -> str:
    return key.replace("\\", "\\\\").replace('"', '\\"')


@dataclass
class FieldChange:
    """A field's move from `before` (live) to `after` (desired); sensitive ones never shown."""

    field: str
    before: Any
    after: Any
    sensitive: bool = False
    #: values are addresses of other resources (shown as such, not as strings)
    reference: bool = False


def leaf_change(
    field: str, path: tuple[str, ...], before: Any, after: Any, sensitive: bool
) -> FieldChange:
    """One changed leaf of a nested value (`customization.announcement.message`): shown nested
    under its field, so the plan reads it at its path; a secret leaf is named by its dotted path
    instead, since a sensitive value is shown whole, as a marker, and would hide where it is."""
    if sensitive:
        return FieldChange(".".join((field, *path)), before, after, sensitive=True)
    for part in reversed(path):
        before, after = {part: before}, {part: after}
    return FieldChange(field, before, after)


@dataclass
class Action:
    """One step of a plan. `payload` holds what the kind needs to carry it out (a dataclass per
    shape of action, `core.payloads`); references to resources created in the same apply are
    `{"$ref": address}` placeholders."""

    verb: Verb
    kind: str
    address: str
    changes: list[FieldChange] = field(default_factory=list)
    location: str | None = None
    live_id: str | None = None
    depends_on: list[str] = field(default_factory=list)
    payload: Payload = field(default_factory=Payload)
    notes: list[str] = field(default_factory=list)
    #: readers lose access (a narrower visibility, an unpublish): flagged in every rendering
    audience_change: bool = False

    @property
    def key(self) -> str:
        """Unique within a plan: one verb per address, except a reorder beside an update."""
        return f"{self.verb} {self.address}"


@dataclass(frozen=True)
class Unmanaged:
    """A live resource that no manifest entry matches and whose kind is not pruned."""

    kind: str
    address: str
    id: str
    #: why it is left alone: `prune` does not list its kind, or no pattern of it matches
    reason: str = ""

    @property
    def id_in_address(self) -> bool:
        """One of several live resources with one key: its address already names its id."""
        return self.address.endswith(f"(id {self.id})")


@dataclass(frozen=True)
class KeptGrant:
    """A direct grant the plan leaves as it is, on a resource whose grants it changes: the
    Markdown access table shows it beside the grant actions, so a reviewer sees everyone who
    has access after the apply, not only who changes."""

    resource: str
    #: `team` or `member`, as in the grant's address
    principal: str
    name: str
    #: None: a site's guest override
    role: str | None


@dataclass
class Plan:
    organization: str
    actions: list[Action] = field(default_factory=list)
    unmanaged: list[Unmanaged] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: address -> id of every live resource the plan refers to (under its desired address too)
    ids: dict[str, str] = field(default_factory=dict)
    #: (address, field) pairs whose values are secret: never shown, saved or logged
    sensitive: set[tuple[str, str]] = field(default_factory=set)
    #: `--target` addresses when the plan is partial (docsync.engine.target)
    targets: list[str] = field(default_factory=list)
    #: per site whose structure changes, its tree before and after as lines
    #: (`{"site", "before", "after"}`, docsync.engine.structure): the Markdown plan draws them
    #: drawings of what the actions amount to (a site's navigation before and after), made by
    #: the renderers from `made_from` (`docsync.render.pictures`); a saved plan carries them
    structures: list[dict[str, Any]] = field(default_factory=list)
    #: the planning context the plan was made from (desired and live states), while it is in
    #: memory; never saved
    made_from: Any = field(default=None, repr=False, compare=False)
    #: the grants kept as they are on each resource whose grants change (of the principal
    #: types managed there)
    kept_grants: list[KeptGrant] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.actions

    def counts(self) -> Counter[str]:
        return verb_counts(self.actions)

    def summary(self) -> str:
        """`2 to create, 1 to update, 1 to reorder, 0 to delete`: see summary_counts."""
        return ", ".join(f"{count} to {verb}" for verb, count in summary_counts(self.actions))


def verb_counts(actions: Iterable[Action]) -> Counter[str]:
    """How many actions of each verb: the one count every rendering shows."""
    return Counter(action.verb for action in actions)


def summary_counts(actions: Iterable[Action]) -> list[tuple[Verb, int]]:
    """The verbs a summary names, in VERBS order, each counted as what it is: create, update
    and delete always (Terraform's line), the others only when they occur."""
    counts = verb_counts(actions)
    return [
        (verb, counts[verb])
        for verb in VERBS
        if verb in ("create", "update", "delete") or counts[verb]
    ]

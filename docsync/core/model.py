"""The plan as plain data: actions with addresses, field changes, locations and dependencies."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
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
#: Verbs that remove something a reader or an editor may miss.
DESTRUCTIVE = frozenset({"delete", "replace"})


def address(kind: str, key: str, parent: str | None = None) -> str:
    """`team["Platform"]`, or `site["Docs"].section["Guides"]` under a parent address."""
    own = f'{kind}["{escape_key(key)}"]'
    return f"{parent}.{own}" if parent else own


def escape_key(key: str) -> str:
    """A key as an address quotes it: backslashes and quotes escaped."""
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
    #: what runs on or for a site changes (an integration's scripts, the tools its assistant
    #: may call, their credentials): flagged in every rendering
    security_change: bool = False
    #: starts an import into GitBook or an export to a repository (a Git Sync configuration):
    #: content is overwritten or committed; flagged in every rendering
    content_change: bool = False
    #: takes away something others rely on that its verb does not say (an update deleting a
    #: site's share links): destructive in every rendering, as a delete is
    loss: bool = False

    @property
    def destructive(self) -> bool:
        """Removes something a reader or an editor may miss: its verb says so, or a loss."""
        return self.verb in DESTRUCTIVE or self.loss

    def takes_away(self, what: str, *, readers: bool = False) -> None:
        """Records a loss that the action's changes do not show: what goes with a delete (a
        site's share links, a team's grants) or what an update takes from others (a share
        link deactivated), named in a note that every rendering and saved plan carries. The
        action then needs a careful look: destructive, and an audience change when `readers`
        lose access by it. The one way a kind flags a loss, so no renderer names a kind."""
        self.notes.append(f"{'AUDIENCE CHANGE' if readers else 'LOSS'}: {what}")
        self.loss = True
        self.audience_change = self.audience_change or readers

    @property
    def key(self) -> str:
        """Unique within a plan: one verb per address, except a reorder beside an update."""
        return f"{self.verb} {self.address}"


@dataclass(frozen=True)
class NotPlanned:
    """Something the manifest manages that the plan leaves out because the API answered it (or
    what it depends on) otherwise than docsync relies on: production's answers differ from its
    document, and one odd resource does not stop the plan."""

    #: a resource's address, a resource's part (`site["Docs"].customization`) or a section
    address: str
    #: why: the request, the field and what was answered, or what it needs that is left out
    why: str
    #: where its entry is (`file:line:column`), when it has one
    location: str | None = None

    def line(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.address}: {self.why}"


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
class Kept:
    """A part the plan leaves as it is, beside parts of the same resource that change: a kind
    shows it with them (the access table shows who keeps access, not only who changes)."""

    kind: str
    #: the resource whose parts change (`collection["Developers"]`)
    parent: str
    address: str
    #: what it keeps (a grant's role; None: a site's guest override)
    value: Any


@dataclass(frozen=True)
class Picture:
    """A drawing of what a plan does to one resource, as lines before and after (a site's
    navigation): the Markdown plan shows the two side by side, marked where they differ."""

    subject: str
    before: list[str]
    after: list[str]


@dataclass(frozen=True)
class KeptPart:
    """How a kind's kept parts travel in the JSON plan (and a saved plan): a field of the
    document, a list of `model` items, written from and read back to `Kept`s."""

    field: str
    model: type[Any]
    description: str
    dump: Callable[[Kept], Any]
    load: Callable[[Any], Kept]


@dataclass(frozen=True)
class ReviewRow:
    cells: tuple[str, ...]
    #: the action the row shows (a renderer flags its last cell by the action's risk); None
    #: for a part the plan keeps
    action: Action | None = None


@dataclass(frozen=True)
class Review:
    """A table a kind asks the Markdown plan to show beside the actions, under `heading`, one
    per `subject`: the access of a resource whose grants change, kept grants included."""

    heading: str
    subject: str
    columns: tuple[str, ...]
    rows: tuple[ReviewRow, ...]


@dataclass
class Plan:
    organization: str
    actions: list[Action] = field(default_factory=list)
    unmanaged: list[Unmanaged] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: what the manifest manages that the plan leaves out (`NotPlanned`), the rest planned
    not_planned: list[NotPlanned] = field(default_factory=list)
    #: address -> id of every live resource the plan refers to (under its desired address too)
    ids: dict[str, str] = field(default_factory=dict)
    #: (address, field) pairs whose values are secret: never shown, saved or logged
    sensitive: set[tuple[str, str]] = field(default_factory=set)
    #: `--target` addresses when the plan is partial (docsync.engine.target)
    targets: list[str] = field(default_factory=list)
    #: made with `--resend-secrets` (docsync.core.context.PlanContext.resend_secrets)
    resend_secrets: bool = False
    #: drawings of what the actions amount to (a site's navigation before and after), made by
    #: the renderers from `made_from` (`docsync.render.pictures`); a saved plan carries them
    structures: list[Picture] = field(default_factory=list)
    #: the planning context the plan was made from (desired and live states), while it is in
    #: memory; never saved
    made_from: Any = field(default=None, repr=False, compare=False)
    #: parts kept as they are beside parts of the same resource that change (the grants a
    #: resource keeps, where its grants change)
    kept: list[Kept] = field(default_factory=list)

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

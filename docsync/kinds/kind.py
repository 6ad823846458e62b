"""What a managed kind is: its declaration (`docsync.kinds.declaration`) and the hooks through which
the rest of docsync asks it, each with a default; and `Kinds`, every kind of the catalogue,
handed to each kind when the catalogue is made (a site asks it for the kinds nested in it)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar, final

from docsync.api.answers import Shape
from docsync.core.checking import CheckView, Item
from docsync.core.context import PlanContext, RunContext
from docsync.core.lockout import Lockout
from docsync.core.model import Action, KeptPart, Picture, Plan, Review
from docsync.core.payloads import Fields
from docsync.core.reconcile import Reconciliation, stale_pin
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.declaration import Catalogue, Declaration, Field
from docsync.kinds.lists import Place
from docsync.kinds.lost_answers import Writes

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.core.loaded import ManifestDoc

Path = tuple[str | int, ...]


class Kind:
    """A managed resource kind: its declaration (`docsync.kinds.declaration`, data, in the
    kind's module) and the hooks through which the rest of docsync asks it what the data cannot
    say, each with a default. What every kind has of its declaration is read from it here."""

    declaration: ClassVar[Declaration]
    #: the other answers it reads, by path (`{...}` for its parameters): a list's items or the
    #: object a GET answers, with what it relies on in them
    answers: Mapping[str, Shape] = {}
    #: the parts it keeps that the JSON plan carries (the grants a resource keeps), each a
    #: field of the plan document
    kept_parts: ClassVar[tuple[KeptPart, ...]] = ()
    #: the shape of this kind's create, update and delete payloads
    payload_type: ClassVar[type[Fields]] = Fields

    def __init__(self) -> None:
        self._kinds: Kinds | None = None

    @property
    def kinds(self) -> Kinds:
        """Every kind of the catalogue this kind is in (the kinds nested in it, its parts)."""
        if self._kinds is None:
            raise RuntimeError(f"{type(self).__name__} is in no catalogue")
        return self._kinds

    # -- what every kind has of its declaration -------------------------------------------------
    @final
    @property
    def name(self) -> str:
        return self.declaration.name

    @final
    @property
    def section(self) -> str:
        return self.declaration.section

    @final
    @property
    def fields(self) -> tuple[Field, ...]:
        return self.declaration.fields

    @final
    @property
    def needs(self) -> tuple[str, ...]:
        """Kinds whose live state must be known before this one is normalized."""
        return self.declaration.needs

    @final
    @property
    def prunable(self) -> bool:
        return self.declaration.prunable

    @final
    @property
    def key_field(self) -> str:
        return self.declaration.key

    @final
    @property
    def nested(self) -> bool:
        """Planned with its parent (a site's sections), never read or planned on its own."""
        return self.declaration.nested

    @final
    @property
    def answer(self) -> Shape:
        """What it relies on in each of its items as the API answers them."""
        return self.declaration.item_answer

    @final
    @property
    def writes(self) -> tuple[Writes, ...]:
        return self.declaration.writes

    # -- reading -------------------------------------------------------------------------------
    def wanted(self, manifest: ManifestDoc, referenced: set[str]) -> bool:
        """Whether a plan must read this kind: the manifest writes it, prunes it or refers to it."""
        return (
            bool(getattr(manifest, self.section, None))
            or self.section in manifest.prune
            or (self.name in referenced)
        )

    def reads(self, manifest: ManifestDoc) -> set[str]:
        """Kinds this one's written entries name beyond its declaration (a grant's teams and
        members): read with it, only when written."""
        return set()

    async def fetch(self, api: ApiClient, org_id: str, manifest: ManifestDoc | None) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must read its live state")

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        raise NotImplementedError(f"{type(self).__name__} must normalize its live state")

    def to_desired(self, ctx: PlanContext) -> list[DesiredResource]:
        raise NotImplementedError(f"{type(self).__name__} must read its manifest entries")

    # -- planning ------------------------------------------------------------------------------
    def plan(self, ctx: PlanContext) -> Reconciliation | None:
        raise NotImplementedError(f"{type(self).__name__} must plan")

    # One list of the kind's entries, flat or under a parent (`kinds.listing.plan_list`): the
    # hooks below make its actions, told where the list is (`at`).
    #: creates wait for the one before, so they arrive in manifest order (the API appends)
    chained: ClassVar[bool] = False

    def missing_pinned(self, desired: DesiredResource, at: Place) -> None:
        at.ctx.problem(*stale_pin(desired, self.declaration.noun, at.within))

    def fallback(
        self, desired: DesiredResource, free: Collection[LiveResource]
    ) -> LiveResource | None:
        """A live item to match an entry that no key matches (None: it is created)."""
        return None

    def plan_create(self, desired: DesiredResource, at: Place) -> Action | None:
        raise NotImplementedError(f"{type(self).__name__} plans no list")

    def plan_update(self, desired: DesiredResource, live: LiveResource, at: Place) -> Action | None:
        raise NotImplementedError(f"{type(self).__name__} plans no list")

    def plan_delete(
        self, live: LiveResource, desired: DesiredResource | None, at: Place
    ) -> Action | None:
        raise NotImplementedError(f"{type(self).__name__} plans no list")

    def requests(self, action: Action) -> int:
        """What carrying out `action` costs in requests when nothing fails (`plan -v`'s
        estimate): one write, and for a create one more when it writes a field its body cannot
        carry (a site space's `path`)."""
        if action.verb != "create":
            return 1
        fields = getattr(action.payload, "fields", None)
        if not isinstance(fields, dict):
            return 1
        late = any(f.name in fields and f.update and not f.create for f in self.fields)
        return 2 if late else 1

    def pictures(self, ctx: PlanContext, actions: Sequence[Action]) -> list[Picture]:
        """Drawings of what the plan's `actions` (all of them) amount to for this kind, for the
        reviewer (a site's navigation before and after), from the
        states the plan was made from; none by default. The renderers ask for them
        (`docsync.render.pictures`), not the planner."""
        return []

    def reviews(self, plan: Plan) -> list[Review]:
        """Tables the reviewer needs beside this kind's actions in `plan` (from the plan alone,
        so that a saved plan shows them too): none by default."""
        return []

    def warnings(self, ctx: PlanContext, actions: Sequence[Action]) -> list[str]:
        """What the plan should say before it is applied about this kind's `actions` (in plan
        order) that is no problem today but would be one later; none by default."""
        return []

    # -- applying ------------------------------------------------------------------------------
    async def execute(self, action: Action, run: RunContext) -> None:
        raise NotImplementedError(f"{type(self).__name__} must apply its actions")

    # -- offline checks ------------------------------------------------------------------------
    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        """What `validate` checks of one written list of this kind (its raw `items`, before the
        models) beyond what every list gets (a key, no key or id twice, absent entries carrying
        nothing else, one default, paths unique where declared); `parent` holds the list (the
        document, for a top-level kind). Nothing by default."""

    # -- safety rails --------------------------------------------------------------------------
    def lockout_before(self, guard: Lockout) -> None:
        """What the rails must know before any action is looked at (who the token's user is,
        every member's role): set on `guard` by the kind that reads it."""

    def lockout(self, action: Action, guard: Lockout) -> None:
        """Records in `guard.problems` how `action` could take the API token's own access away
        (docsync.engine.safety refuses such a plan unless forced)."""

    def lockout_after(self, guard: Lockout) -> None:
        """Once every action was looked at: what the plan as a whole leaves (no admin left)."""

    async def read_for_rails(self, api: ApiClient, plan: Plan, live: LiveState) -> None:
        """Reads into `live` what the safety rails need to judge `plan` and planning did not
        read (the members of a team whose grant the plan removes); nothing by default."""

    # -- exporting -----------------------------------------------------------------------------
    def export(self, live: LiveState, names: ExportNames) -> Any:
        """This kind's manifest section for the live state (None: nothing to write)."""
        return None


class ExportNames(Protocol):
    """How an export refers to other resources and to secrets it must not write."""

    def name(self, address: str) -> str: ...

    def secret(self, address: str, field: str) -> str: ...

    def left_out(self, address: str, ids: list[str]) -> None: ...


T = TypeVar("T")


class Kinds(Sequence[Kind]):
    """Every kind, one per declaration, in the catalogue's order (a kind after the kinds it
    refers to, is nested in or needs). Made from the kinds' classes; each kind is handed this
    object, so a kind finds the kinds nested in it without importing the catalogue."""

    def __init__(self, classes: Iterable[type[Kind]], order: Sequence[str] = ()) -> None:
        made = [cls() for cls in classes]
        self.declarations = Catalogue(*(kind.declaration for kind in made), order=order)
        by_name = {kind.name: kind for kind in made}
        self._items = tuple(by_name[declared.name] for declared in self.declarations)
        self._derived: dict[str, Any] = {}
        for kind in made:
            kind._kinds = self

    def __getitem__(self, index: Any) -> Any:
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Kind]:
        return iter(self._items)

    def named(self, name: str) -> Kind:
        for kind in self._items:
            if kind.name == name:
                return kind
        raise KeyError(name)

    def children(self, parent: str) -> tuple[Kind, ...]:
        """The kinds nested in `parent` that its entries write as lists of their own."""
        return tuple(self.named(d.name) for d in self.declarations.children(parent))

    def parts(self, parent: str) -> tuple[Kind, ...]:
        """The parts of `parent`: read, planned and written with it."""
        return tuple(self.named(d.name) for d in self.declarations.parts(parent))

    def derived(self, name: str, build: Callable[[Kinds], T]) -> T:
        """What a kind derives from the whole catalogue (a site's structure shapes), made once."""
        if name not in self._derived:
            self._derived[name] = build(self)
        found: T = self._derived[name]
        return found

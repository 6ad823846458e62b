"""What a managed kind is: its declaration (`docsync.kinds.declaration`, data) and the few hooks
through which the rest of docsync asks it what the data cannot say, each named for the question
it answers and each with a default; and `Kinds`, every kind of the catalogue, handed to each
kind when the catalogue is made (a site asks it for the kinds nested in it).

The hooks a kind may override are `Kind.HOOKS`; everything else a framework class offers is
`@final` (mypy refuses an override) and is called, not overridden. docs/architecture.md's table
of hooks is generated from the docstrings below (`Asked by`, `Returns`, `Default`), and
`tests/core/test_kind_protocol.py` holds every kind to it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar, final

from docsync.api.answers import Items, Obj, Shape
from docsync.core.checking import CheckView, Item
from docsync.core.context import PlanContext, RunContext
from docsync.core.lockout import Lockout
from docsync.core.model import Action, KeptPart, Picture, Plan, Review
from docsync.core.payloads import Fields
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.declaration import Catalogue, Declaration, Field
from docsync.kinds.formats import ExportFormat
from docsync.kinds.requests import Reading, Route, Writes, send

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.core.loaded import ManifestDoc
    from docsync.core.remote import Api

Path = tuple[str | int, ...]


#: the hooks every kind answers of its list and its actions (its parents' included): checks,
#: warnings, pictures, reviews, requests and lockouts, in docs/architecture.md's order
PLAN_HOOKS = ("check_list", "warnings", "pictures", "reviews", "requests", "lockout")


class Kind:
    """A managed resource kind: its declaration, and the hooks (`HOOKS`) every kind answers,
    wherever it is read and planned: on its own (`TopKind`), or with what holds it (a part, a
    site's child)."""

    declaration: ClassVar[Declaration]
    #: what the answers of its routes are checked for where its declaration cannot say it, by
    #: route name: a shape made of the catalogue it is in (a site's structure, of the kinds
    #: nested in a site)
    answers: Mapping[str, Shape] = {}
    #: the parts it keeps that the JSON plan carries (the grants a resource keeps), each a
    #: field of the plan document
    kept_parts: ClassVar[tuple[KeptPart, ...]] = ()
    #: the shape of this kind's create, update and delete payloads
    payload_type: ClassVar[type[Fields]] = Fields
    #: the files of production's own export writes from one of its resources (`--format`)
    formats: tuple[ExportFormat, ...] = ()

    #: the hooks a kind may override, in the order docs/architecture.md lists them
    HOOKS: ClassVar[tuple[str, ...]] = ("execute", *PLAN_HOOKS, "read_for_rails")

    def __init__(self) -> None:
        self._kinds: Kinds | None = None

    @final
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

    @final
    def field(self, name: str) -> Field:
        return self.declaration.field(name)

    @final
    def route(self, name: str) -> Route:
        """The request its declaration names `name` (`Routes.every`), or the request of its own
        that writes the field `name` (`Field.route`: it sets one value, so it is sent again
        once its answer was lost); a read of its list or of an item checks each item for what
        it relies on (`answer`), a read `answers` names checks what it says."""
        routes = self.declaration.routes
        assert routes is not None, f"{self.name} declares no routes"
        own = next((f.route for f in self.fields if f.name == name and f.route), None)
        if own is not None and name not in routes.every():
            return Route(*own, retry_safe=True)
        route = routes.route(name)
        if route.answer is None and name in self.answers:
            return replace(route, answer=self.answers[name])
        if route.answer is None and name == "list" and not route.paged:
            return replace(route, answer=Obj({"items": Items(self.answer)}))  # one GET, all
        if route.answer is None and name in ("list", "read"):
            return replace(route, answer=self.answer)
        return route

    @final
    async def send(
        self, api: Api, name: str, body: Any = None, *, keep_odd: bool = False, **at: Any
    ) -> Any:
        """The request its declaration names `name` (`Routes.every`), at the path `at` fills."""
        return await send(api, self.route(name), body, keep_odd=keep_odd, **at)

    @final
    def written_in(self, manifest: ManifestDoc) -> bool:
        """Whether the manifest writes this kind's section (a list written empty counts: an
        exact list written `[]` deletes every item) or prunes it."""
        return (
            bool(getattr(manifest, self.section, None))
            or self.section in manifest.prune
            or (self.declaration.exact and self.section in manifest.model_fields_set)
        )

    # -- applying ------------------------------------------------------------------------------
    async def execute(self, action: Action, run: RunContext) -> None:
        """How is one of its actions carried out?

        Asked by: the executor, once the actions it depends on are done. Returns: nothing;
        records the ids it makes in `run.ids`. Default: refuses (a kind with no actions)."""
        raise NotImplementedError(f"{type(self).__name__} has no actions to carry out")

    # -- offline checks ------------------------------------------------------------------------
    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        """What does `validate` refuse in one written list of this kind?

        Asked by: `validate` (`manifest.checks`), for each list, with its raw items and what
        holds it. Returns: nothing; reports located problems on `view`. Default: nothing beyond
        what every list gets (a key, none twice, one default, paths unique where declared)."""

    # -- review --------------------------------------------------------------------------------
    def warnings(self, ctx: PlanContext, actions: Sequence[Action]) -> list[str]:
        """What should the plan say of its actions before they are applied?

        Asked by: the planner, once the plan is made, with this kind's actions in plan order.
        Returns: warnings (no problem today, one later). Default: none."""
        return []

    def pictures(self, ctx: PlanContext, actions: Sequence[Action]) -> list[Picture]:
        """What drawing shows what the plan's actions amount to?

        Asked by: the renderers, with every action of the plan and the states it was made
        from. Returns: pictures (a site's navigation before and after). Default: none."""
        return []

    def reviews(self, plan: Plan) -> list[Review]:
        """What table does a reviewer need beside its actions?

        Asked by: the Markdown renderer, from the plan alone (a saved plan shows it too).
        Returns: tables (a resource's access matrix). Default: none."""
        return []

    def requests(self, action: Action) -> int:
        """What does carrying out an action cost in requests when nothing fails?

        Asked by: `plan -v`'s estimate and rate-limit budget. Returns: a count. Default: one
        write, and one more for a create writing a field only an update carries."""
        if action.verb != "create":
            return 1
        fields = getattr(action.payload, "fields", None)
        if not isinstance(fields, dict):
            return 1
        late = any(f.name in fields and f.update and not f.create for f in self.fields)
        return 2 if late else 1

    # -- safety rails --------------------------------------------------------------------------
    def lockout(self, actions: Sequence[Action], guard: Lockout) -> None:
        """How could its actions take the API token's own access away?

        Asked by: the safety rails, every kind in the catalogue's order with its actions (the
        members' first: who the token's user is). Returns: nothing; records what it knows and
        what it refuses on `guard`. Default: nothing."""

    async def read_for_rails(self, api: ApiClient, plan: Plan, live: LiveState) -> None:
        """What must the rails read that planning did not?

        Asked by: the planner, once the plan is made. Returns: nothing; reads into `live` (the
        members of a team whose grant the plan removes). Default: nothing."""


class TopKind(Kind):
    """A kind written at the top of a manifest, read, planned and exported on its own: the
    planner and export ask it the hooks below too."""

    HOOKS: ClassVar[tuple[str, ...]] = (
        "reads",
        "fetch",
        "to_live",
        "to_desired",
        "plan",
        "find",
        *Kind.HOOKS,
        "export",
    )

    # -- reading -------------------------------------------------------------------------------
    def reads(self, manifest: ManifestDoc) -> set[str]:
        """Which kinds must a plan read because of this kind?

        Asked by: the planner, before reading, with the manifest. Returns: kind names (the kinds
        they refer to are read as well). Default: this kind, when the manifest writes or prunes
        its section."""
        return {self.name} if self.written_in(manifest) else set()

    async def fetch(self, read: Reading) -> Any:
        """What does the API hold of this kind?

        Asked by: the planner and export, every kind read at once. Returns: what `to_live`
        turns into resources. Default: nothing."""
        return None

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        """Which live resources does what was read make?

        Asked by: the planner, in the catalogue's order (the kinds a resource refers to are in
        `live` already). Returns: its live resources, fields in manifest shape, references as
        addresses. Default: none."""
        return []

    # -- planning ------------------------------------------------------------------------------
    def to_desired(self, ctx: PlanContext) -> list[DesiredResource]:
        """Which resources do the manifest's entries want?

        Asked by: the planner, every kind before any plans (a kind refers to others' entries).
        Returns: `DesiredResource`s, only the fields written, references resolved to
        addresses. Default: none."""
        return []

    def plan(self, ctx: PlanContext) -> None:
        """Which actions make the live resources what the manifest wants?

        Asked by: the planner, every kind in the catalogue's order. Returns: nothing; adds its
        actions and located problems to `ctx`. Default: nothing."""

    # -- applying ------------------------------------------------------------------------------
    async def find(self, action: Action, run: RunContext) -> str | None:
        """Where is what a create whose answer was lost made, if it made anything?

        Asked by: `requests.create_once`, when a create's outcome is unknown. Returns: the
        id of what the create made, None when nothing was made (the create is sent again).
        Default: None."""
        return None

    # -- exporting -----------------------------------------------------------------------------
    def export(self, live: LiveState, names: ExportNames) -> Any:
        """Which manifest section writes the live state back?

        Asked by: `docsync export`. Returns: the section (None: nothing to write); `names`
        names references and turns secrets into `env()` templates. Default: None."""
        return None


class ExportNames(Protocol):
    """How an export refers to other resources and to secrets it must not write."""

    def name(self, address: str) -> str: ...

    def secret(self, address: str, field: str) -> str: ...

    def left_out(self, address: str, ids: list[str]) -> None: ...

    def left_as_is(self, address: str, why: str) -> None:
        """Something of a resource, or the resource, that no manifest writes (a sync through an
        integration, an item the API answered otherwise than docsync relies on), said beside
        the export."""


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
            if isinstance(kind, TopKind) == kind.nested:
                should = (
                    "is read and planned with what holds it, so is no"
                    if kind.nested
                    else ("is read and planned on its own, so is a")
                )
                raise RuntimeError(f"{kind.name} {should} TopKind ({type(kind).__name__})")
            kind._kinds = self

    def __getitem__(self, index: Any) -> Any:
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Kind]:
        return iter(self._items)

    @property
    def top(self) -> tuple[TopKind, ...]:
        """The kinds written at the top of a manifest, which the planner and export ask."""
        return top(self._items)

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

    def export_format(self, name: str) -> ExportFormat:
        """The format `docsync export --format NAME` names, whichever kind writes it; a name
        no kind writes is a `LookupError` naming those there are."""
        every = {f.name: f for kind in self._items for f in kind.formats}
        if name not in every:
            known = ", ".join(sorted(every)) or "none"
            raise LookupError(f"no export format {name!r}: there are {known}")
        return every[name]

    def derived(self, name: str, build: Callable[[Kinds], T]) -> T:
        """What a kind derives from the whole catalogue (a site's structure shapes), made once."""
        if name not in self._derived:
            self._derived[name] = build(self)
        found: T = self._derived[name]
        return found


def top(kinds: Iterable[Kind]) -> tuple[TopKind, ...]:
    """The kinds among `kinds` read, planned and exported on their own."""
    return tuple(kind for kind in kinds if isinstance(kind, TopKind))

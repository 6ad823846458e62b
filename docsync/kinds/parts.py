"""A part of a resource (a site's redirects and customization, a team's members, a resource's
grants, its Git Sync installation): read, planned and written with its parent, never on its
own, so the hooks of reading and planning are its parent's. A part of a site is in the framework
of what a site holds (`kinds/nested/parts.py`). One written as a keyed list is matched by the one
reconciler through the one list planner, whose steps here only record what changes
(`lists.Changes`): the part's parent turns the changes into its requests. A list whose items the
API creates, updates and deletes one by one (a site's share links, channels, MCP servers,
context connections) is written by one function (`ListPart.write_items`), each request by the
name its routes give it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, final

from docsync.core.checking import CheckView, Item
from docsync.core.concurrent import gather_all
from docsync.core.context import PlanContext
from docsync.core.model import Action, address
from docsync.core.payloads import Payload
from docsync.core.reconcile import Reconciliation
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.kind import ExportNames, Kind
from docsync.kinds.lists import Changes, Place, Steps, plan_list
from docsync.kinds.requests import Reading, Route, create_once, send

if TYPE_CHECKING:
    from docsync.core.loaded import ManifestDoc
    from docsync.core.remote import Api

#: whether a listed item is what a create of a body made: (body, item) -> bool
Made = Callable[[dict[str, Any], dict[str, Any]], bool]


@dataclass
class ItemWrites(Payload):
    """A keyed list's items to write one by one: new ones (`{"body", "then"}`: the create's
    body, and what an update sets once it is made, a field the create does not take), changes
    of live ones (`{"id", "body"}`), and the ids of live ones to delete."""

    creates: list[dict[str, Any]] = field(default_factory=list)
    updates: list[dict[str, Any]] = field(default_factory=list)
    deletes: list[str] = field(default_factory=list)


class Part(Kind):
    """A part of a resource: its parent reads, plans and exports it."""


class HeldPart(Part):
    """A part of the resources a listed kind holds (a `CrudKind`'s: the grants on collections,
    spaces and sites, the Git Sync installation of a space or a site): the holder reads it into
    its items, plans it once its entries are planned, checks it in its lists and exports it into
    its entries, in the catalogue's order, asking the hooks below with what it hands them; the
    part carries out its own actions."""

    HOOKS: ClassVar[tuple[str, ...]] = ("reads", "fetch", "plan", *Kind.HOOKS, "export")

    def reads(self, manifest: ManifestDoc, holder: Kind) -> set[str]:
        """Which kinds must a plan read because of this part of a holder's resources?

        Asked by: the holder's `reads`, with the manifest. Returns: kind names beyond those
        the holder reads for itself (the holder's own name when it must be read anyway).
        Default: none."""
        return set()

    async def fetch(self, read: Reading, items: list[dict[str, Any]], holder: Kind) -> None:
        """What does the API hold of this part for the holder's items?

        Asked by: the holder's read, once its list is read, every part of it at once.
        Returns: nothing; keeps what it read in each item it read it for. Default: nothing."""

    def plan(self, ctx: PlanContext, result: Reconciliation | None, holder: Kind) -> None:
        """Which actions make this part of each planned entry what the entry writes?

        Asked by: the holder's plan, once its entries are planned (`result`: their matches,
        None when the holder is read only for what refers to it). Returns: nothing; adds its
        actions to `ctx`. Default: nothing."""

    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        """What does `validate` refuse of this part in one written list of its holder?

        Asked by: the holder's `check_list`, with the holder's raw items and what holds them.
        Returns: nothing; reports located problems on `view`. Default: nothing."""

    def export(self, resource: LiveResource, live: LiveState, names: ExportNames) -> Any:
        """How does a manifest write this part of one resource back?

        Asked by: the holder's export, per resource. Returns: the value of the part's field
        in the resource's entry (None: nothing to write); `names` names what it refers to.
        Default: None."""
        return None


def held_parts(holder: Kind) -> tuple[HeldPart, ...]:
    """The parts `holder`'s resources hold, in the catalogue's order (the order of their
    actions and of their fields in an exported entry)."""
    return tuple(p for p in holder.kinds.parts(holder.name) if isinstance(p, HeldPart))


def held_reads(holder: Kind, manifest: ManifestDoc) -> set[str]:
    """The kinds a plan reads for the parts of `holder`'s resources (`HeldPart.reads`)."""
    return set().union(*(part.reads(manifest, holder) for part in held_parts(holder)))


def check_held(holder: Kind, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
    """What `validate` refuses of the parts in one written list of `holder`
    (`HeldPart.check_list`)."""
    for part in held_parts(holder):
        part.check_list(view, items, parent)


async def read_held(holder: Kind, read: Reading, items: list[dict[str, Any]]) -> None:
    """Into `holder`'s items, what its parts read of them (`HeldPart.fetch`), all at once."""
    await gather_all(*(part.fetch(read, items, holder) for part in held_parts(holder)))


def plan_held(holder: Kind, ctx: PlanContext, result: Reconciliation | None) -> None:
    """The parts of `holder`'s entries planned (`result`, what its plan matched), part by part
    in the catalogue's order (`HeldPart.plan`)."""
    for part in held_parts(holder):
        part.plan(ctx, result, holder)


def export_held(
    holder: Kind, resource: LiveResource, live: LiveState, names: ExportNames, entry: dict[str, Any]
) -> dict[str, Any]:
    """An exported entry of `holder` with the parts its resource holds (`HeldPart.export`),
    each under its field when it writes anything."""
    for part in held_parts(holder):
        value = part.export(resource, live, names)
        if value:
            entry[part.section] = value
    return entry


class ListPart(Part):
    """A part written as a keyed list held by its parent (a site's share links, redirects,
    channels, MCP servers and context connections, a team's members, a resource's grants):
    matched entries compared field by field (every field written) by the one reconciler,
    nothing planned on its own. A list a site holds is read from the site's item, planned as
    the site's one action (`SitePart.holder_action`) and written item by item
    (`write_items`)."""

    @final
    def entry_resources(
        self, desired: DesiredResource, shape: Callable[[Any], dict[str, Any]]
    ) -> list[DesiredResource] | None:
        """The holder entry's list (None: not written), each as the reconciler matches it:
        keyed by its key field, its fields as `shape` compares them."""
        written = desired.written(self.section)
        if written is None:
            return None
        base = (*desired.path, self.section)
        found = []
        for index, item in enumerate(written):
            key = str(getattr(item, self.key_field))
            own = address(self.name, key, desired.address)
            fields, path = shape(item), (*base, index)
            found.append(DesiredResource(self.name, key, own, key, fields, path, entry=item))
        return found

    @final
    def live_items(self, desired: DesiredResource, live: LiveResource | None) -> list[LiveResource]:
        """The live holder's items as read (`_<section>` of its item; none when not read), each
        as the reconciler matches it: keyed by its key field, under the holder's address as the
        plan knows it (`desired`'s), its fields the item as read (what of it is compared is the
        kind's to say)."""
        found = live.raw.get(f"_{self.section}") if live is not None else None
        out = []
        for item in found or []:
            key = str(item[self.key_field])
            own = address(self.name, key, desired.address)
            out.append(LiveResource(self.name, str(item["id"]), key, own, key, item))
        return out

    @final
    def same(self, desired: DesiredResource, live: LiveResource) -> bool:
        """Whether a matched entry and live item are equal (every written field)."""
        declared = {f.name: f for f in self.fields}
        return all(
            declared[name].same(live.fields.get(name), value)
            if name in declared
            else live.fields.get(name) == value
            for name, value in desired.fields.items()
        )

    @final
    def changes(
        self,
        desired: Sequence[DesiredResource],
        live: Sequence[LiveResource],
        ctx: PlanContext,
        container: str,
    ) -> Changes:
        """The list of `container` (the parent's address) reconciled: what its parent's request
        must do, nothing planned here."""
        found = Changes()

        def created(item: DesiredResource, at: Place) -> Action | None:
            found.created.append(item)
            return None

        def updated(item: DesiredResource, there: LiveResource, at: Place) -> Action | None:
            (found.kept if self.same(item, there) else found.changed).append((item, there))
            return None

        def deleted(there: LiveResource, item: DesiredResource | None, at: Place) -> Action | None:
            found.deleted.append(there)
            return None

        steps = Steps(created, updated, deleted)
        plan_list(self.declaration, steps, desired, live, Place(ctx, container=container))
        return found

    @final
    async def write_items(
        self, api: Api, writes: ItemWrites, made: Made, under: Callable[[Route], Route]
    ) -> None:
        """Deletes, then updates, then creates (a create's `then` by an update once it is made),
        one request each, by its routes' names, each placed under its holder (`under`: a site's
        part's, under the site); a create whose answer was lost is looked for among the listed
        items the apply does not know (`made`) before it is sent again. Answers are dropped
        unread: they may repeat what a create sent (a header, a token)."""

        def route(name: str) -> Route:
            return under(self.route(name))

        for item_id in writes.deletes:
            await send(api, route("delete"), id=item_id)
        for change in writes.updates:
            await send(api, route("update"), change["body"], id=change["id"])
        known = {*writes.deletes, *(str(c["id"]) for c in writes.updates)}
        for create in writes.creates:
            body = create["body"]
            found = await create_once(
                partial(send, api, route("create"), body),
                partial(_made, api, route("list"), partial(made, body), known),
            )
            made_id = str(found["id"])
            known.add(made_id)
            if create.get("then"):
                await send(api, route("update"), create["then"], id=made_id)


async def _made(
    api: Api, listed: Route, same: Callable[[dict[str, Any]], bool], known: set[str]
) -> dict[str, Any] | None:
    """The item a lost create made, if it made one: the first listed item the apply does not
    know that is what the create's body makes."""
    found: list[dict[str, Any]] = await send(api, listed)
    return next((f for f in found if str(f["id"]) not in known and same(f)), None)

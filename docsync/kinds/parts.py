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
from typing import TYPE_CHECKING, Any, final

from docsync.core.context import PlanContext
from docsync.core.model import Action, address
from docsync.core.payloads import Payload
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.kind import Kind
from docsync.kinds.lists import Changes, Place, Steps, plan_list
from docsync.kinds.requests import Route, create_once, send

if TYPE_CHECKING:
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

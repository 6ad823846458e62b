"""What a managed kind declares, and the generic planning every simple kind shares."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from docsync.api.errors import OutcomeUnknown
from docsync.core.checking import CheckView, Item
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.kind import Declaration, Field
from docsync.core.lockout import Lockout
from docsync.core.model import Action, FieldChange, KeptPart, Picture, Plan, Review, address
from docsync.core.payloads import Fields
from docsync.core.reconcile import Reconciliation, stale_pin
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.listing import Place, plan_list

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.core.loaded import ManifestDoc

Path = tuple[str | int, ...]


def field_changes(
    fields: Sequence[Field],
    desired: DesiredResource,
    live: LiveResource | None,
    ctx: PlanContext,
    equal: Callable[[Field, Any, Any], bool] = lambda f, before, after: f.same(before, after),
) -> list[FieldChange]:
    """The written fields whose desired value differs from the live one (all, for a create)."""
    out = []
    for f in fields:
        if f.name not in desired.fields:
            continue
        after = desired.fields[f.name]
        before = live.fields.get(f.name) if live else None
        sensitive = f.sensitive or ctx.sensitive((*desired.path, f.name))
        if sensitive:
            ctx.sensitive_fields.add((desired.address, f.name))
            if live is not None:
                ctx.sensitive_fields.add((live.address, f.name))
        if live is None or not equal(f, before, after):
            out.append(FieldChange(f.name, before, after, sensitive, bool(f.ref)))
    return out


def fields_of(action: Action) -> Fields:
    """The payload of a flat kind's action (anything else is a bug of the planner)."""
    if not isinstance(action.payload, Fields):
        raise TypeError(f"{action.key}: expected a Fields payload, got {action.payload!r}")
    return action.payload


def same_id(ctx: PlanContext, change: FieldChange) -> bool:
    """Whether a reference's before and after name one live resource (a rename by pinned id)."""
    before = ctx.live_id_of(change.before)
    return before is not None and before == ctx.live_id_of(change.after)


class Kind:
    """A managed resource kind: its declaration (`docsync.core.kind`, in the kind's module)
    plus the API calls and planning rules. The class attributes below are copied from the
    declaration."""

    declaration: ClassVar[Declaration]
    name: ClassVar[str]
    section: ClassVar[str]
    fields: ClassVar[tuple[Field, ...]] = ()
    #: kinds whose live state must be known before this one is normalized (references, parents)
    needs: ClassVar[tuple[str, ...]] = ()
    prunable: ClassVar[bool] = True
    key_field: ClassVar[str] = "title"
    #: the shape of this kind's create, update and delete payloads
    payload_type: ClassVar[type[Fields]] = Fields
    #: planned with its parent (a site's sections), never read or planned on its own
    nested: ClassVar[bool] = False
    #: the parts it keeps that the JSON plan carries (the grants a resource keeps), each a
    #: field of the plan document
    kept_parts: ClassVar[tuple[KeptPart, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = cls.__dict__.get("declaration")
        if declared is not None:
            cls.name = declared.name
            cls.section = declared.section
            cls.fields = declared.fields
            cls.needs = declared.needs
            cls.prunable = declared.prunable
            cls.key_field = declared.key
            cls.nested = declared.nested

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


class CrudKind(Kind):
    """A kind of independent resources listed, created, updated and deleted one by one.

    Subclasses give the key of a live item and of a manifest entry, the request bodies, and the
    calls. Everything else (matching, field diffs, prune, protect, placeholders) is here."""

    @property
    def list_path(self) -> str:
        """Live items a plan reads for this kind: one list call, every page (`{org}`)."""
        routes = self.declaration.routes
        assert routes is not None, f"{self.name} declares no routes"
        return routes.list

    # -- reading -------------------------------------------------------------------------------
    async def fetch(self, api: ApiClient, org_id: str, manifest: ManifestDoc | None) -> Any:
        return await api.list_all(self.list_path.format(org=org_id))

    def live_key(self, raw: dict[str, Any], live: LiveState) -> str:
        return str(raw[self.key_field])

    def live_refs(self, raw: dict[str, Any], fields: dict[str, Any]) -> set[str]:
        return {str(fields[f.name]) for f in self.fields if f.ref and fields.get(f.name)}

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        resources = []
        for item in raw:
            key = self.live_key(item, live)
            fields = {f.name: self.read_live(f, item, live) for f in self.fields}
            resources.append(
                LiveResource(
                    kind=self.name,
                    id=str(item["id"]),
                    key=key,
                    address=address(self.name, key),
                    name=str(item.get(self.key_field, key)),
                    fields=fields,
                    raw=item,
                    refs=self.live_refs(item, fields),
                )
            )
        return resources

    def read_live(self, f: Field, raw: dict[str, Any], live: LiveState) -> Any:
        value = f.read(raw)
        if f.ref and value is not None:
            return live.address_of(f.ref, str(value)) or f"{f.ref}#{value}"
        return value

    def entries(self, ctx: PlanContext) -> Sequence[Any]:
        return list(getattr(ctx.loaded.manifest, self.section))

    def desired_key(self, entry: Any, path: Path, ctx: PlanContext) -> str:
        return str(getattr(entry, self.key_field))

    def desired_name(self, entry: Any, key: str) -> str:
        """What the entry calls itself: its key field, or its key when that field is not set."""
        name = getattr(entry, self.key_field, None)
        return key if name is None else str(name)

    def desired_value(self, f: Field, value: Any, path: Path, ctx: PlanContext) -> Any:
        """The comparable value of a written field; references become addresses."""
        if f.ref and value is not None:
            return ctx.resolve(f.ref, str(value), (*path, f.name))
        return f.normalize(value)

    def to_desired(self, ctx: PlanContext) -> list[DesiredResource]:
        resources = []
        for index, entry in enumerate(self.entries(ctx)):
            path: Path = (self.section, index)
            key = self.desired_key(entry, path, ctx)
            written = entry.model_fields_set
            fields = {
                f.name: self.desired_value(f, getattr(entry, f.name), path, ctx)
                for f in self.fields
                if f.name in written
            }
            resources.append(
                DesiredResource(
                    kind=self.name,
                    key=key,
                    address=address(self.name, key),
                    name=self.desired_name(entry, key),
                    fields=fields,
                    path=path,
                    pinned_id=getattr(entry, "id", None),
                    absent=getattr(entry, "state", "present") == "absent",
                    protect=bool(getattr(entry, "protect", False)),
                    entry=entry,
                )
            )
        return resources

    # -- planning ------------------------------------------------------------------------------
    def plan(self, ctx: PlanContext) -> Reconciliation | None:
        if not self.wanted(ctx.loaded.manifest, set()):
            return None  # read only to resolve references: nothing of it is managed
        desired, live = ctx.desired.by_kind[self.name], ctx.live.by_kind[self.name]
        return plan_list(self, desired, live, Place(ctx))

    def changes(
        self, desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
    ) -> list[FieldChange]:
        changes = field_changes(self.fields, desired, live, ctx, self.equal)
        # A reference whose target is only renamed in this plan (pinned id) has not changed.
        return [c for c in changes if not (c.reference and live and same_id(ctx, c))]

    def equal(self, f: Field, before: Any, after: Any) -> bool:
        return f.same(before, after)

    def payload_value(self, f: Field, value: Any) -> Any:
        return ref(value) if f.ref else value

    def written(self, desired: DesiredResource) -> Fields:
        """The payload that makes the resource as written: every written field."""
        return self.payload_type(
            key=desired.key,
            fields={
                f.name: self.payload_value(f, desired.fields[f.name])
                for f in self.fields
                if f.name in desired.fields
            },
        )

    def plan_create(self, desired: DesiredResource, at: Place) -> Action | None:
        ctx = at.ctx
        changes = self.changes(desired, None, ctx)
        payload = self.written(desired)
        return ctx.add(
            Action(
                "create",
                self.name,
                desired.address,
                changes,
                ctx.where(desired.path),
                payload=payload,
            )
        )

    def plan_update(self, desired: DesiredResource, live: LiveResource, at: Place) -> Action | None:
        ctx = at.ctx
        changes = self.changes(desired, live, ctx)
        if not changes:
            return None
        payload = self.payload_type(
            key=desired.key,
            fields={c.field: self.payload_value(self.field(c.field), c.after) for c in changes},
        )
        action = Action(
            "update",
            self.name,
            desired.address,
            changes,
            ctx.where(desired.path),
            live_id=live.id,
            payload=payload,
        )
        return ctx.add(action)

    def plan_replace(
        self,
        desired: DesiredResource,
        live: LiveResource,
        ctx: PlanContext,
        *,
        protected: str,
        note: str,
    ) -> Action | None:
        """Delete and create again, for a change the API cannot make in place. `protected` is
        the problem when the entry forbids it, `note` says why in the plan."""
        if desired.protect:
            ctx.problem(desired.path, protected)
            return None
        # What differs from the live resource (the rest is recreated as it is written).
        action = Action(
            "replace",
            self.name,
            desired.address,
            self.changes(desired, live, ctx),
            ctx.where(desired.path),
            live_id=live.id,
            payload=self.written(desired),
        )
        action.notes.append(note)
        return ctx.add(action)

    def plan_delete(
        self, live: LiveResource, desired: DesiredResource | None, at: Place
    ) -> Action | None:
        ctx = at.ctx
        changes = [
            FieldChange(f.name, live.fields.get(f.name), None, f.sensitive, bool(f.ref))
            for f in self.fields
            if live.fields.get(f.name) is not None
        ]
        location = ctx.where(desired.path) if desired else None
        action = Action(
            "delete",
            self.name,
            live.address,
            changes,
            location,
            live_id=live.id,
            payload=self.payload_type(key=live.key),
        )
        return ctx.add(action)

    def export(self, live: LiveState, names: ExportNames) -> Any:
        entries = []
        for resource in live.by_kind[self.name]:
            shared = live.ambiguous.get(address(self.name, resource.key))
            if shared:
                # Entries sharing a key are one entry twice to a manifest: left out, named.
                names.left_out(address(self.name, resource.key), shared)
            else:
                entries.append(self.export_entry(resource, live, names))
        return entries or None

    def export_entry(
        self, resource: LiveResource, live: LiveState, names: ExportNames
    ) -> dict[str, Any]:
        entry: dict[str, Any] = {self.key_field: resource.name}
        for f in self.fields:
            value = resource.fields.get(f.name)
            if f.name == self.key_field or value is None:
                continue
            if f.sensitive:
                value = names.secret(resource.address, f.name)
            elif f.ref:
                value = names.name(value)
            entry[f.name] = value
        return entry

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

    # -- applying ------------------------------------------------------------------------------
    def body(self, fields: dict[str, Any], *, creating: bool) -> dict[str, Any]:
        """The request body: the written fields that travel in this request, by wire name.

        A create leaves out `null`s: nothing is there to remove, and production refuses some
        (`POST collections {"parent": null}`); but not the key's, which says what is made (an
        invite link keyed by role, `null` for a guest link).
        """
        return {
            f.wire_name: fields[f.name]
            for f in self.fields
            if f.name in fields
            and (f.create if creating else f.update)
            and not (creating and fields[f.name] is None and f.name != self.key_field)
        }

    def item_path(self, run: RunContext, live_id: str) -> str:
        routes = self.declaration.routes
        assert routes is not None, f"{self.name} declares no routes"
        return routes.item_path.format(org=run.org_id, id=live_id)

    async def create(self, key: str, fields: dict[str, Any], run: RunContext) -> str:
        """Sends the create request and returns the new id (subclasses change verb or path)."""
        path = self.list_path.format(org=run.org_id)
        created = await run.api.write("POST", path, self.body(fields, creating=True))
        return str(created["id"])

    async def after_create(self, new_id: str, fields: dict[str, Any], run: RunContext) -> None:
        """Writes, with one update, the written fields that the create request cannot carry."""
        late = {
            f.wire_name: fields[f.name]
            for f in self.fields
            if f.name in fields and f.update and not f.create and fields[f.name] is not None
        }
        if late:
            await run.api.write("PATCH", self.item_path(run, new_id), late)

    async def update(self, live_id: str, fields: dict[str, Any], run: RunContext) -> None:
        body = self.body(fields, creating=False)
        if body:
            await run.api.write("PATCH", self.item_path(run, live_id), body)

    async def delete(self, live_id: str, run: RunContext) -> None:
        await run.api.write("DELETE", self.item_path(run, live_id))

    async def find(self, key: str, fields: dict[str, Any], run: RunContext) -> str | None:
        """After a create whose outcome is unknown: the id of a live item with this key, if any."""
        items = await run.api.list_all(self.list_path.format(org=run.org_id))
        live = LiveState(organization={"id": run.org_id})
        found = [item for item in items if self.live_key(item, live) == key]
        return str(found[-1]["id"]) if found else None

    async def create_once(self, key: str, fields: dict[str, Any], run: RunContext) -> str:
        """Creates without ever making a duplicate: when the server may or may not have done the
        create (dropped connection, 5xx), re-read by natural key and adopt what is there."""
        for _attempt in range(3):
            try:
                return await self.create(key, fields, run)
            except OutcomeUnknown:
                found = await self.find(key, fields, run)
                if found is not None:
                    return found
        return await self.create(key, fields, run)

    async def execute(self, action: Action, run: RunContext) -> None:
        payload = fields_of(action)
        fields = run.resolve(payload.fields)
        key = payload.key
        if action.verb == "create":
            new_id = await self.create_once(key, fields, run)
            run.ids[action.address] = new_id
            await self.after_create(new_id, fields, run)
        elif action.verb == "update":
            assert action.live_id is not None
            await self.update(action.live_id, fields, run)
        elif action.verb == "delete":
            assert action.live_id is not None
            await self.delete(action.live_id, run)
        elif action.verb == "replace":
            assert action.live_id is not None
            await self.delete(action.live_id, run)
            new_id = await self.create_once(key, fields, run)
            run.ids[action.address] = new_id
            await self.after_create(new_id, fields, run)
        else:
            raise ValueError(f"{self.name} cannot {action.verb}")

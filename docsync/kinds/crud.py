"""A kind of independent resources listed, created, updated and deleted one by one (teams,
collections, spaces, sites, ...): what its declaration says runs here once. Its list is read by
its routes (paged or not); its entries are matched, compared field by field (`Field.same`),
pruned and protected; a change the API cannot make in place replaces (`Field.replace`); its
requests use the declared verbs and wire names; export leaves out the API's defaults and writes
secrets as `env()` templates. A flat kind overrides the hooks of `Kind` only: what it does
differently it says by calling the final helpers below with rules of its own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, final

from docsync.core.checking import CheckView, Item
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.model import Action, FieldChange, address
from docsync.core.reconcile import Reconciliation
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.changes import carried, field_changes, fields_of, merged, plain, same_id
from docsync.kinds.declaration import Field
from docsync.kinds.kind import ExportNames, Path, TopKind
from docsync.kinds.lists import Place, Steps, odd_resources, plan_list
from docsync.kinds.parts import check_held, export_held, held_reads, plan_held, read_held
from docsync.kinds.requests import Found, Reading, create_once, send_settled

if TYPE_CHECKING:
    from docsync.core.loaded import ManifestDoc

#: a live item's key (the item, the live state read so far)
LiveKey = Callable[[dict[str, Any], LiveState], str]
#: an entry's key (the entry, its path, the plan's context)
EntryKey = Callable[[Any, Path, PlanContext], str]
#: a written value as it compares (the field, the value, its path, the plan's context)
Value = Callable[[Field, Any, Path, PlanContext], Any]


class CrudKind(TopKind):
    """A kind of independent resources listed, created, updated and deleted one by one."""

    # -- what its resources hold (`parts.HeldPart`: grants, a Git Sync installation) -----------
    def reads(self, manifest: ManifestDoc) -> set[str]:
        return super().reads(manifest) | held_reads(self, manifest)

    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        check_held(self, view, items, parent)

    # -- reading -------------------------------------------------------------------------------
    async def fetch(self, read: Reading) -> Any:
        items = await self.listed(read.api, read.org_id)
        await read_held(self, read, items)
        return items

    @final
    async def listed(self, api: Any, org_id: str) -> list[dict[str, Any]]:
        """Every item of the kind's list: every page of a paged one, else one GET."""
        routes = self.declaration.routes
        if routes is not None and not routes.paged:
            found = await self.send(api, "list", org=org_id)
            items = found.get("items", []) if isinstance(found, dict) else found
            return [item for item in items or [] if isinstance(item, dict)]
        listed: list[dict[str, Any]] = await self.send(api, "list", keep_odd=True, org=org_id)
        return listed

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        return self.live_resources(raw, live)

    @final
    def live_resources(
        self, items: Sequence[dict[str, Any]], live: LiveState, *, key: LiveKey | None = None
    ) -> list[LiveResource]:
        """One live resource per item, keyed by `key` (default: its key field), fields read as
        declared, references as addresses; and one per item set aside, which nothing plans."""
        resources = []
        for item in items:
            own = key(item, live) if key else str(item[self.key_field])
            fields = {f.name: self.read_live(f, item, live) for f in self.fields}
            named = item.get(self.key_field)
            name = own if named is None else str(named)
            refs = {str(fields[f.name]) for f in self.fields if f.ref and fields.get(f.name)}
            resources.append(self.resource(item, own, name, fields, refs))
        return resources + odd_resources(self.declaration, items, live, key)

    @final
    def resource(
        self, item: dict[str, Any], key: str, name: str, fields: dict[str, Any], refs: Any = ()
    ) -> LiveResource:
        """A live item of this kind, addressed by its key."""
        own = address(self.name, key)
        return LiveResource(self.name, str(item["id"]), key, own, name, fields, item, set(refs))

    @final
    def read_live(self, f: Field, raw: dict[str, Any], live: LiveState) -> Any:
        value = f.read(raw)
        if f.ref and value is not None:
            return live.address_of(f.ref, str(value)) or f"{f.ref}#{value}"
        return value

    # -- what the manifest wants ---------------------------------------------------------------
    def to_desired(self, ctx: PlanContext) -> list[DesiredResource]:
        return self.desired_resources(ctx)

    @final
    def desired_resources(
        self, ctx: PlanContext, *, key: EntryKey | None = None, value: Value | None = None
    ) -> list[DesiredResource]:
        """One desired resource per entry of the kind's section, keyed by `key` (default: its
        key field), with the fields written, each as `value` makes it (default:
        `desired_value`)."""
        resources = []
        for index, entry in enumerate(getattr(ctx.loaded.manifest, self.section) or ()):
            path: Path = (self.section, index)
            own = key(entry, path, ctx) if key else str(getattr(entry, self.key_field))
            written = entry.model_fields_set
            made = value or self.desired_value
            fields = {
                f.name: made(f, getattr(entry, f.name), path, ctx)
                for f in self.fields
                if f.name in written
            }
            name = getattr(entry, self.key_field, None)
            resources.append(
                DesiredResource(
                    kind=self.name,
                    key=own,
                    address=address(self.name, own),
                    name=own if name is None else str(name),
                    fields=fields,
                    path=path,
                    pinned_id=getattr(entry, "id", None),
                    absent=getattr(entry, "state", "present") == "absent",
                    protect=bool(getattr(entry, "protect", False)),
                    entry=entry,
                )
            )
        return resources

    @final
    def desired_value(self, f: Field, value: Any, path: Path, ctx: PlanContext) -> Any:
        """A written value as it compares: a model as plain values, a reference as the address
        of what it names, then the field's own normalization."""
        if f.ref and value is not None:
            return ctx.resolve(f.ref, str(value), (*path, f.name))
        return f.normalize(plain(value))

    # -- planning ------------------------------------------------------------------------------
    def plan(self, ctx: PlanContext) -> None:
        plan_held(self, ctx, self.plan_entries(ctx))

    @final
    def plan_entries(self, ctx: PlanContext, steps: Steps | None = None) -> Reconciliation | None:
        """The kind's entries matched with its live resources and planned, step by step as
        `steps` says (default: `steps()`); nothing when the kind is read only to resolve the
        references of others. Returns the matches, for what the kind plans with them."""
        if not self.written_in(ctx.loaded.manifest):
            return None
        desired, live = ctx.desired.by_kind[self.name], ctx.live.by_kind[self.name]
        return plan_list(self.declaration, steps or self.steps(), desired, live, Place(ctx))

    @final
    def steps(self) -> Steps:
        """The steps of a flat kind's plan: create, update (or replace), delete."""
        return Steps(self.plan_create, self.plan_update, self.plan_delete)

    @final
    def changes(
        self, desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
    ) -> list[FieldChange]:
        """The written fields whose value differs from the live one (all, for a create); a
        reference whose target is only renamed in this plan (a pinned id, `was:`) has not."""
        changes = field_changes(self.fields, desired, live, ctx)
        return [c for c in changes if not (c.reference and live and same_id(ctx, c))]

    @final
    def written(self, desired: DesiredResource) -> Any:
        """The payload that makes the resource as written: every written field (a keyed
        mapping without the keys written null)."""

        def value(f: Field) -> Any:
            found = desired.fields[f.name]
            return ref(found) if f.ref else merged(None, found) if f.keyed else found

        return self.payload_type(
            key=desired.key,
            fields={f.name: value(f) for f in self.fields if f.name in desired.fields},
        )

    @final
    def plan_create(self, desired: DesiredResource, at: Place) -> Action | None:
        ctx = at.ctx
        missing = [(n, how) for n, how in self.declaration.required if n not in desired.fields]
        if missing:
            needs = " and ".join(f"'{name}': {how}" for name, how in missing)
            ctx.problem(desired.path, f"a new {self.declaration.noun} needs {needs}")
            return None
        changes, where = self.changes(desired, None, ctx), ctx.where(desired.path)
        action = Action("create", self.name, desired.address, changes, where)
        action.payload = self.written(desired)
        return ctx.add(action)

    @final
    def plan_update(self, desired: DesiredResource, live: LiveResource, at: Place) -> Action | None:
        """An update of the fields that changed; a replace when one of them cannot change in
        place (`Field.replace`)."""
        ctx = at.ctx
        scope = self.declaration.scope
        if scope and desired.was and scope not in desired.fields and live.fields.get(scope):
            # Renamed (`was:`) from inside a container by an entry that writes none: its key
            # stands at the top level, where it moves, or the next plan would not find it.
            desired.fields[scope] = None
        changes = self.changes(desired, live, ctx)
        if not changes:
            return None
        fixed = [c.field for c in changes if self.field(c.field).replace]
        if fixed:
            names = ", ".join(f"`{name}`" for name in fixed)
            noun = self.declaration.noun
            return self.plan_replace(
                desired,
                live,
                ctx,
                protected=f"changes {names}, which forces a replace, but is protected",
                note=f"{names} is set only when a {noun} is created: the {noun} is replaced",
            )
        fields = carried(self.fields, changes, desired, live)
        where = ctx.where(desired.path)
        action = Action("update", self.name, desired.address, changes, where, live_id=live.id)
        action.payload = self.payload_type(key=desired.key, fields=fields)
        return ctx.add(action)

    @final
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
        changes, where = self.changes(desired, live, ctx), ctx.where(desired.path)
        action = Action("replace", self.name, desired.address, changes, where, live_id=live.id)
        action.payload = self.written(desired)
        action.notes.append(note)
        return ctx.add(action)

    @final
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

    # -- applying ------------------------------------------------------------------------------
    @final
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

    async def find(self, action: Action, run: RunContext) -> str | None:
        """The kind's list read again: the item its declaration says the create made
        (`Writes.found_by`, a `Found`), else the last live item with the action's key."""
        items = await self.listed(run.api, run.org_id)
        key = fields_of(action).key
        found_by = next((w.found_by for w in self.writes if not w.part), None)
        if isinstance(found_by, Found):
            return found_by.id_in(items, run.resolve(fields_of(action).fields), key)
        live = LiveState(organization={"id": run.org_id})
        found = [r for r in self.to_live(items, live) if r.key == key]
        return found[-1].id if found else None

    @final
    async def send_create(self, action: Action, body: dict[str, Any], run: RunContext) -> str:
        """Sends the create (its declared route) and returns the new id; a create whose answer
        was lost is looked for (`find`) before it is sent again."""

        async def create() -> str:
            created = await self.send(run.api, "create", body, org=run.org_id)
            return str(created["id"])

        return await create_once(create, lambda: self.find(action, run))

    @final
    async def send_update(self, live_id: str, body: dict[str, Any], run: RunContext) -> None:
        """The declared update on the item, when there is something to send."""
        if body:
            await self.send(run.api, "update", body, org=run.org_id, id=live_id)

    @final
    async def send_late(self, new_id: str, fields: dict[str, Any], run: RunContext) -> None:
        """With one update, the written fields that the create request cannot carry."""
        late = {
            f.wire_name: fields[f.name]
            for f in self.fields
            if f.name in fields and f.update and not f.create and fields[f.name] is not None
        }
        await self.send_update(new_id, late, run)

    async def execute(self, action: Action, run: RunContext) -> None:
        fields = run.resolve(fields_of(action).fields)
        if action.verb in ("delete", "replace"):
            assert action.live_id is not None
            await self.send(run.api, "delete", org=run.org_id, id=action.live_id)
        if action.verb in ("create", "replace"):
            new_id = await self.send_create(action, self.body(fields, creating=True), run)
            run.ids[action.address] = new_id
            await self.send_late(new_id, fields, run)
            await self.send_routed(new_id, fields, run, creating=True)
        elif action.verb == "update":
            assert action.live_id is not None
            await self.send_update(action.live_id, self.body(fields, creating=False), run)
            await self.send_routed(action.live_id, fields, run)
        elif action.verb != "delete":
            raise ValueError(f"{self.name} cannot {action.verb}")

    @final
    async def send_routed(
        self, live_id: str, fields: dict[str, Any], run: RunContext, *, creating: bool = False
    ) -> None:
        """The written fields that a request of their own changes (`Field.route`: a
        collection's `parent` by `POST .../move`, a site's adaptive schema by its `PUT`), each
        with that request; after a create, those the create could not carry."""
        for f in self.fields:
            if f.route is not None and f.name in fields and not (creating and f.create):
                sent = {f.wire_name: fields[f.name]}
                read = replace(self.route("read"), answer=None)  # compared with what was sent
                await send_settled(
                    run.api, self.route(f.name), read, sent, f.read, org=run.org_id, id=live_id
                )

    # -- exporting -----------------------------------------------------------------------------
    def export(self, live: LiveState, names: ExportNames) -> Any:
        return self.export_entries(live, names)

    @final
    def export_entries(
        self,
        live: LiveState,
        names: ExportNames,
        entry: Callable[[LiveResource], dict[str, Any]] | None = None,
    ) -> list[dict[str, Any]] | None:
        """The kind's live resources as entries (as `entry` writes each, default its fields and
        parts, `export_held`); those sharing a key (one entry twice) are left out, named."""
        entries = []
        for resource in live.by_kind[self.name]:
            shared = live.ambiguous.get(address(self.name, resource.key))
            if shared:
                names.left_out(address(self.name, resource.key), shared)
            else:
                own = entry(resource) if entry else self.export_entry(resource, names)
                entries.append(own if entry else export_held(self, resource, live, names, own))
        return entries or None

    @final
    def export_entry(self, resource: LiveResource, names: ExportNames) -> dict[str, Any]:
        """An entry of the fields read: the API's defaults left out, a secret as the template
        that reads it from the environment, a reference by the name of what it names."""
        entry: dict[str, Any] = {self.key_field: resource.name}
        for f in self.fields:
            value = resource.fields.get(f.name)
            if f.name == self.key_field or value is None or value in f.api_default:
                continue
            if f.sensitive:
                value = names.secret(resource.address, f.name)
            elif f.ref:
                value = names.name(value)
            entry[f.name] = value
        return entry

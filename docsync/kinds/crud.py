"""A kind of independent resources listed, created, updated and deleted one by one (teams,
SAML providers, collections, spaces, sites, OpenAPI specs, translations, members): matching,
field diffs, prune, protect and placeholders are here once; a flat kind's module says only what
its API does differently."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.model import Action, FieldChange, address
from docsync.core.payloads import Fields
from docsync.core.reconcile import Reconciliation
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.changes import field_changes, fields_of, same_id
from docsync.kinds.declaration import Field
from docsync.kinds.kind import ExportNames, Kind, Path
from docsync.kinds.lists import Place, plan_list
from docsync.kinds.lost_answers import create_once

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.core.loaded import ManifestDoc


class CrudKind(Kind):
    """A kind of independent resources listed, created, updated and deleted one by one.

    Subclasses give the key of a live item and of a manifest entry, the request bodies, and the
    calls. Everything else (matching, field diffs, prune, protect, placeholders) is here."""

    # -- reading -------------------------------------------------------------------------------
    async def fetch(self, api: ApiClient, org_id: str, manifest: ManifestDoc | None) -> Any:
        return await api.list_all(self.list_path.format(org=org_id), items=self.answer)

    def live_refs(self, raw: dict[str, Any], fields: dict[str, Any]) -> set[str]:
        return {str(fields[f.name]) for f in self.fields if f.ref and fields.get(f.name)}

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        resources = []
        for item in raw:
            key = self.live_key(item, live)
            fields = {f.name: self.read_live(f, item, live) for f in self.fields}
            name = str(item.get(self.key_field, key))
            resources.append(self.resource(item, key, name, fields, self.live_refs(item, fields)))
        return resources

    def resource(
        self,
        item: dict[str, Any],
        key: str,
        name: str,
        fields: dict[str, Any],
        refs: set[str] | None = None,
    ) -> LiveResource:
        """A live item of this kind, addressed by its key."""
        return LiveResource(
            self.name,
            str(item["id"]),
            key,
            address(self.name, key),
            name,
            fields,
            item,
            refs or set(),
        )

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
        scope = self.declaration.scope
        if scope and desired.was and scope not in desired.fields and live.fields.get(scope):
            # Renamed (`was:`) from inside a container by an entry that writes none: its key
            # stands at the top level, where it moves, or the next plan would not find it.
            desired.fields[scope] = None
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
            if f.name == self.key_field or value is None or value in f.api_default:
                continue
            if f.sensitive:
                value = names.secret(resource.address, f.name)
            elif f.ref:
                value = names.name(value)
            entry[f.name] = value
        return entry

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

    # -- requests ------------------------------------------------------------------------------

    @property
    def list_path(self) -> str:
        """Live items a plan reads for this kind: one list call, every page (`{org}`)."""
        routes = self.declaration.routes
        assert routes is not None, f"{self.name} declares no routes"
        return routes.list

    def live_key(self, raw: dict[str, Any], live: LiveState) -> str:
        return str(raw[self.key_field])

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
        items = await run.api.list_all(self.list_path.format(org=run.org_id), items=self.answer)
        live = LiveState(organization={"id": run.org_id})
        found = [item for item in items if self.live_key(item, live) == key]
        return str(found[-1]["id"]) if found else None

    async def create_once(self, key: str, fields: dict[str, Any], run: RunContext) -> str:
        """A create whose answer was lost is found by `find`, not sent twice (`lost`)."""
        return await create_once(
            lambda: self.create(key, fields, run), lambda: self.find(key, fields, run)
        )

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

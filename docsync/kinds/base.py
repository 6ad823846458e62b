"""What a managed kind declares, and the generic planning every simple kind shares."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from docsync.api.answers import ID, TEXT, Obj, Shape
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.kind import Declaration, Field
from docsync.core.lockout import Lockout
from docsync.core.model import Action, FieldChange, Plan, address
from docsync.core.payloads import Fields
from docsync.core.reconcile import Reconciliation, stale_pin
from docsync.core.state import DesiredResource, LiveResource, LiveState

# Re-exported: the kinds that plan as a flat kind does import them from here.
from docsync.kinds.changes import field_changes as field_changes
from docsync.kinds.changes import fields_of as fields_of
from docsync.kinds.changes import same_id as same_id
from docsync.kinds.listing import plan_list
from docsync.kinds.lost import Writes, create_once

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.core.loaded import ManifestDoc

Path = tuple[str | int, ...]


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
    #: what it relies on in each of its items as the API answers them (a list's item, an item
    #: of its site's structure), checked as they are read; by default an `id` and its key
    answer: ClassVar[Shape] = Obj({"id": ID})
    #: the other answers it reads, by path (`{...}` for its parameters): a list's items or the
    #: object a GET answers, with what it relies on in them
    answers: ClassVar[Mapping[str, Shape]] = {}
    #: what it writes and how a write whose answer was lost is settled (`lost`): declared by
    #: each kind in its own module
    writes: ClassVar[tuple[Writes, ...]] = ()

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
            if "answer" not in cls.__dict__:
                cls.answer = Obj({"id": ID, declared.key: TEXT})

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

    # -- applying ------------------------------------------------------------------------------
    async def execute(self, action: Action, run: RunContext) -> None:
        raise NotImplementedError(f"{type(self).__name__} must apply its actions")

    # -- safety rails --------------------------------------------------------------------------
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

    #: live items a plan reads for this kind: one list call, every page
    list_path: ClassVar[str] = ""

    # -- reading -------------------------------------------------------------------------------
    async def fetch(self, api: ApiClient, org_id: str, manifest: ManifestDoc | None) -> Any:
        return await api.list_all(self.list_path.format(org=org_id), items=self.answer)

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
    #: a flat kind's creates are independent of each other
    chained: ClassVar[bool] = False

    def missing_pinned(self, desired: DesiredResource, ctx: PlanContext) -> None:
        ctx.problem(*stale_pin(desired, self.declaration.noun, "in the organization"))

    def fallback(
        self, desired: DesiredResource, free: Collection[LiveResource]
    ) -> LiveResource | None:
        return None

    def plan(self, ctx: PlanContext) -> Reconciliation | None:
        if not self.wanted(ctx.loaded.manifest, set()):
            return None  # read only to resolve references: nothing of it is managed
        return plan_list(self, ctx.desired.by_kind[self.name], ctx.live.by_kind[self.name], ctx)

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

    def plan_create(self, desired: DesiredResource, ctx: PlanContext) -> Action | None:
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

    def plan_update(
        self, desired: DesiredResource, live: LiveResource, ctx: PlanContext
    ) -> Action | None:
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
        self, live: LiveResource, ctx: PlanContext, desired: DesiredResource | None
    ) -> Action | None:
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
        (`POST collections {"parent": null}`).
        """
        return {
            f.wire_name: fields[f.name]
            for f in self.fields
            if f.name in fields
            and (f.create if creating else f.update)
            and not (creating and fields[f.name] is None)
        }

    def item_path(self, run: RunContext, live_id: str) -> str:
        return f"{self.list_path.format(org=run.org_id)}/{live_id}"

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

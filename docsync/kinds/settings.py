"""Organization settings: one resource, updated in place, never created or deleted."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docsync.core.catalogue import SETTINGS
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.model import Action
from docsync.core.payloads import Fields
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.base import ExportNames, Kind, field_changes, fields_of, same_id

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.manifest.models import Manifest

ADDRESS = "settings"


class SettingsKind(Kind):
    declaration = SETTINGS

    def wanted(self, manifest: Manifest, referenced: set[str]) -> bool:
        return manifest.settings is not None

    async def fetch(self, api: ApiClient, org_id: str, manifest: Manifest | None) -> Any:
        return None  # the organization object, read when it was resolved, holds the settings

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        org = live.organization
        fields = {f.name: f.read(org) for f in self.fields}
        site = fields["defaultContent"]
        fields["defaultContent"] = live.address_of("site", site) or site
        return [
            LiveResource(
                kind=self.name,
                id=str(org["id"]),
                key=ADDRESS,
                address=ADDRESS,
                name=str(org.get("title")),
                fields=fields,
                raw=org,
                refs={fields["defaultContent"]} if fields["defaultContent"] else set(),
            )
        ]

    def to_desired(self, ctx: PlanContext) -> list[DesiredResource]:
        settings = ctx.loaded.manifest.settings
        if settings is None:
            return []
        path: tuple[str | int, ...] = ("settings",)
        fields: dict[str, Any] = {}
        for f in self.fields:
            if f.name not in settings.model_fields_set:
                continue
            value = getattr(settings, f.name)
            if f.name == "defaultContent" and value is not None:
                value = ctx.resolve("site", str(value.site), (*path, f.name, "site"))
            fields[f.name] = f.normalize(value)
        return [DesiredResource(self.name, ADDRESS, ADDRESS, ADDRESS, fields, path)]

    def plan(self, ctx: PlanContext) -> None:  # one resource: nothing to match
        for desired in ctx.desired.by_kind[self.name]:
            live = ctx.live.by_address[ADDRESS]
            changes = field_changes(self.fields, desired, live, ctx)
            # A default site renamed in this plan through its pinned id is still the default.
            changes = [c for c in changes if not (c.reference and same_id(ctx, c))]
            if changes:
                body = {c.field: c.after for c in changes}
                if "defaultContent" in body and body["defaultContent"] is not None:
                    body["defaultContent"] = {"type": "site", "site": ref(body["defaultContent"])}
                ctx.add(
                    Action(
                        "update",
                        self.name,
                        ADDRESS,
                        changes,
                        ctx.where(desired.path),
                        live_id=live.id,
                        payload=Fields(ADDRESS, body),
                    )
                )

    def export(self, live: LiveState, names: ExportNames) -> Any:
        resource = live.by_address.get(ADDRESS)
        if resource is None:
            return None
        out: dict[str, Any] = {}
        for f in self.fields:
            value = resource.fields.get(f.name)
            if value is None:
                continue
            out[f.name] = {"site": names.name(value)} if f.ref else value
        return out

    async def execute(self, action: Action, run: RunContext) -> None:
        await run.api.write(
            "PATCH", f"/v1/orgs/{run.org_id}", run.resolve(fields_of(action).fields)
        )

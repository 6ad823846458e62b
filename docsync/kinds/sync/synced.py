"""The kinds whose resources may hold a Git Sync installation (sites, spaces): what it adds to
their reading (the installation each site or space says it has, `gitSync`, read by its id for
the entries that write `gitSync`, every one for export), their planning (`planning.py`, with the
resource) and their export. The Git Sync kind (`git_sync.GIT_SYNC`) carries out the actions.

A site whose installation is its own (not a space's, which its site's manages) has its structure
in the repository (`gitbook-docs.yaml`): `owns_structure` says so for the site kind, which then
leaves its sections, groups, site spaces and links alone."""

from __future__ import annotations

from typing import Any, final

from docsync.api.errors import NotFound
from docsync.core.concurrent import gather_all
from docsync.core.context import PlanContext
from docsync.core.entries import was_names
from docsync.core.reconcile import Reconciliation
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.access.grant_holders import GrantedKind
from docsync.kinds.kind import ExportNames
from docsync.kinds.requests import Reading, unless_hidden, unread
from docsync.kinds.sync.git_sync import COMMON, GIT_SYNC, TOKEN
from docsync.kinds.sync.planning import SLOT, installation, plan_installation, refuse_legacy

#: where a site or space says which installation it has (production's GitSyncState)
STATE = "gitSync"


def state(item: dict[str, Any]) -> dict[str, Any] | None:
    """What a site or space says of the installation on it, as listed (None: none, or synced
    otherwise: `legacy`)."""
    found = item.get(STATE)
    ident = found.get("installationId") if isinstance(found, dict) else None
    return found if isinstance(ident, str) and ident else None


def legacy(item: dict[str, Any]) -> dict[str, Any] | None:
    """What a site or space synced otherwise than by a Git Sync installation says of its sync
    (None: it is not). Production answers a space synced through the older GitHub or GitLab
    integration as `gitSync: {installationProvider, integration, url, updatedAt}`, without the
    `installationId` and `installationStatus` its document requires: no installation docsync
    could read, configure or remove."""
    found = item.get(STATE)
    if found is None or state(item) is not None:
        return None
    return found if isinstance(found, dict) else {}


def legacy_sync(found: dict[str, Any]) -> str:
    """Such a sync, in words: `synced with github through the github-sync integration`."""
    provider = found.get("installationProvider")
    integration = found.get("integration")
    with_what = f" with {provider}" if isinstance(provider, str) and provider else ""
    through = (
        f"the {integration} integration"
        if isinstance(integration, str) and integration
        else "an integration"
    )
    return f"synced{with_what} through {through} (legacy Git Sync, not an installation)"


def _written(entries: Any, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The items an entry that writes `gitSync` may be: its pinned id, else its title or the one
    it had (`was:`); the planner picks the one the entry is."""
    chosen: dict[str, dict[str, Any]] = {}
    for entry in entries:
        if GIT_SYNC.section not in entry.model_fields_set or entry.state == "absent":
            continue
        titles = {entry.title} | was_names(entry)
        for item in items:
            if (item["id"] == entry.id) if entry.id else (item.get("title") in titles):
                chosen[str(item["id"])] = item
    return list(chosen.values())


class SyncedKind(GrantedKind):
    """A kind whose resources may hold a Git Sync installation (sites, spaces): what it adds to
    their reading, planning and export."""

    async def fetch(self, read: Reading) -> Any:
        items = await self.listed(read.api, read.org_id)
        await gather_all(self.read_grants(read, items), self.read_installations(read, items))
        return items

    def plan(self, ctx: PlanContext) -> None:
        result = self.plan_entries(ctx)
        self.plan_grants(ctx, result)
        self.plan_installations(ctx, result)

    def export(self, live: LiveState, names: ExportNames) -> Any:
        return self.export_entries(live, names, lambda r: self.exported(r, live, names))

    @final
    async def read_installations(self, read: Reading, items: list[dict[str, Any]]) -> None:
        """Into each item whose entry writes `gitSync` (every item, for export) and that says it
        has an installation, that installation, read by its id (`item["_gitSync"]`)."""
        chosen = items if read.entries is None else _written(read.entries, items)

        async def one(item: dict[str, Any], ident: str) -> None:
            try:
                item[SLOT] = await self.kinds.named(GIT_SYNC.name).send(
                    read.api, "installation", id=ident
                )
            except NotFound:  # uninstalled since the list was read
                item[SLOT] = None

        await gather_all(
            *(
                unless_hidden(item, GIT_SYNC.section, one(item, str(found["installationId"])))
                for item in chosen
                if (found := state(item)) is not None
            )
        )

    @final
    def plan_installations(self, ctx: PlanContext, result: Reconciliation | None) -> None:
        """The installation of each entry planned (`result`) that writes `gitSync`, with its
        resource (none for one replaced: the new one has none yet)."""
        for desired, live in result.entries if result else []:
            if live is not None and unread(live.raw, GIT_SYNC.section):
                continue  # hidden from the token's role: named by the plan, not planned
            replaced = any(a.verb == "replace" for a in ctx.actions_at[desired.address])
            older = legacy(live.raw) if live is not None and not replaced else None
            if older is not None:
                for action in ctx.actions_at[desired.address]:
                    if action.verb != "delete":  # a delete names it among what goes
                        action.notes.append(f"{legacy_sync(older)}: left as it is")
                refuse_legacy(desired, older, self.declaration.noun, ctx)
                continue
            plan_installation(desired, None if replaced else live, self.declaration.noun, ctx)

    @final
    def owns_structure(self, desired: DesiredResource, live: LiveResource | None) -> bool:
        """Whether the repository holds this resource's structure: its entry installs Git Sync on
        it, or does not write `gitSync` and it has an installation of its own."""
        if desired.writes(GIT_SYNC.section):
            return desired.written(GIT_SYNC.section) is not None
        found = state(live.raw) if live is not None else None
        return found is not None and not found.get("parentInstallationId")

    @final
    def live_owns_structure(self, resource: LiveResource) -> bool:
        """Whether a live resource's structure is its repository's (export leaves it out)."""
        found = state(resource.raw)
        return found is not None and not found.get("parentInstallationId")

    @final
    def installation_held(self, live: LiveResource) -> str | None:
        """What a delete of the resource takes with it of Git Sync, said for its plan: its own
        installation, which production removes with it, or its sync through an integration
        (None: neither)."""
        older = legacy(live.raw)
        if older is not None:
            return f"its sync with its repository ({legacy_sync(older)})"
        found = state(live.raw)
        if found is None or found.get("parentInstallationId"):
            return None
        return f"its Git Sync installation ({found.get('installationProvider') or 'a provider'})"

    @final
    def with_installation(
        self, entry: dict[str, Any], resource: LiveResource, names: ExportNames
    ) -> dict[str, Any]:
        """An exported entry with the resource's own installation (not its site's, for a space
        its site's installation manages), as a manifest writes it: the access token, which
        production never answers, left out. A sync through an integration, which no manifest
        writes, is said beside the export (`ExportNames.left_as_is`)."""
        older = legacy(resource.raw)
        if older is not None:
            names.left_as_is(resource.address, f"{legacy_sync(older)}: left as it is")
        found = installation(resource)
        if found is None or found.get("parentInstallationId"):
            return entry
        config = {k: v for k, v in (found.get("providerConfiguration") or {}).items() if k != TOKEN}
        written: dict[str, Any] = {"provider": found["provider"], "providerConfiguration": config}
        written |= {name: found[name] for name in COMMON if found.get(name) is not None}
        return {**entry, GIT_SYNC.section: written}

    @final
    def exported(
        self, resource: LiveResource, live: LiveState, names: ExportNames
    ) -> dict[str, Any]:
        """An exported entry: its fields, grants and installation."""
        return self.with_installation(self.with_grants(resource, live, names), resource, names)

"""What a site or space says of its sync (`gitSync`, as listed), which the Git Sync kind (a part
they hold, `git_sync.GitSyncKind`) reads, plans and exports from: the installation it names, or
a sync through an integration (legacy); the entries that write `gitSync`; whether its
repository holds its structure; what a delete of it takes with it.

A site whose installation is its own (not a space's, which its site's manages) has its structure
in the repository (`gitbook-docs.yaml`): `owns_structure` says so for the site kind, which then
leaves its sections, groups, site spaces and links alone."""

from __future__ import annotations

from typing import Any

from docsync.core.entries import was_names
from docsync.core.state import DesiredResource, LiveResource

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


def written_on(entries: Any, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The items an entry that writes `gitSync` may be: its pinned id, else its title or the one
    it had (`was:`); the planner picks the one the entry is."""
    chosen: dict[str, dict[str, Any]] = {}
    for entry in entries:
        if STATE not in entry.model_fields_set or entry.state == "absent":
            continue
        titles = {entry.title} | was_names(entry)
        for item in items:
            if (item["id"] == entry.id) if entry.id else (item.get("title") in titles):
                chosen[str(item["id"])] = item
    return list(chosen.values())


def owns_structure(desired: DesiredResource, live: LiveResource | None) -> bool:
    """Whether the repository holds a site's or space's structure: its entry installs Git Sync
    on it, or does not write `gitSync` and it has an installation of its own."""
    if desired.writes(STATE):
        return desired.written(STATE) is not None
    found = state(live.raw) if live is not None else None
    return found is not None and not found.get("parentInstallationId")


def live_owns_structure(resource: LiveResource) -> bool:
    """Whether a live resource's structure is its repository's (export leaves it out)."""
    found = state(resource.raw)
    return found is not None and not found.get("parentInstallationId")


def installation_held(live: LiveResource) -> str | None:
    """What a delete of a site or space takes with it of Git Sync, said for its plan: its own
    installation, which production removes with it, or its sync through an integration
    (None: neither)."""
    older = legacy(live.raw)
    if older is not None:
        return f"its sync with its repository ({legacy_sync(older)})"
    found = state(live.raw)
    if found is None or found.get("parentInstallationId"):
        return None
    return f"its Git Sync installation ({found.get('installationProvider') or 'a provider'})"

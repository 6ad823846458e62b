"""A site's docs agent settings (production's `PUT .../agent-settings`, SiteAgentSettingsInput):
only the fields written are managed. The API reads the whole object and PUT replaces it whole,
so applying reads what is live, merges the written fields in and writes the whole object back,
as for the site's customization. Used by the site kind.

`editing.customInstructions` is a document in the API; a manifest writes it as text or as the
document (`documents`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from docsync.api.answers import Obj
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.kind import Declaration, Routes
from docsync.core.model import Action, leaf_change
from docsync.core.payloads import OnSite
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.base import ExportNames
from docsync.kinds.customization_base import Setting, managed, report_incomplete
from docsync.kinds.customization_tree import Leaf, merged, value_at
from docsync.kinds.documents import Instructions, as_written, to_document
from docsync.kinds.lost import Writes
from docsync.kinds.site_part import SitePart

if TYPE_CHECKING:
    from docsync.api import ApiClient

#: the groups PUT takes (the answer adds `object`, `updatedAt`, `updatedBy`, `urls`)
GROUPS = ("scans", "findings", "editing")
INSTRUCTIONS: Leaf = ("editing", "customInstructions")
#: what the plan relies on in the answer: an object (only the written fields are compared)
ANSWER = Obj({})


class Scans(Setting):
    required = ("topics",)
    topics: Literal["auto", "never"] | None = None
    """When the agent scans topics for findings."""


class Findings(Setting):
    required = ("changeRequests",)
    changeRequests: Literal["always", "auto-fixable", "never"] | None = None
    """Which findings the agent opens change requests for."""


class Editing(Setting):
    required = ("customInstructions",)
    customInstructions: Instructions | None = None
    """The editing agent's instructions for this site: text (a paragraph per blank line) or a
    document."""


class AgentSettings(Setting):
    """The site's docs agent, as production's `PUT .../agent-settings` takes it; only the fields
    written are managed."""

    required = GROUPS
    scans: Scans | None = None
    findings: Findings | None = None
    editing: Editing | None = None


@dataclass
class AgentSettingsChange(OnSite):
    """The written fields to merge into the live settings (`{dotted path: value}`)."""

    fields: dict[str, Any] = field(default_factory=dict)


def _live(site: LiveResource | None) -> dict[str, Any] | None:
    found = site.raw.get("_agentSettings") if site is not None else None
    return found if isinstance(found, dict) else None


def _compared(path: Leaf, value: Any) -> Any:
    return as_written(value) if path == INSTRUCTIONS and value is not None else value


def _sent(path: str, value: Any) -> Any:
    return to_document(value) if path == ".".join(INSTRUCTIONS) else value


AGENT_SETTINGS = Declaration(
    "agent_settings",
    "agentSettings",
    "agent settings",
    key="agentSettings",
    parents=("site",),
    part=True,
    singleton=True,
    order=94,
    routes=Routes(
        "/v1/orgs/{org}/sites/{site}/agent-settings",
        item="/v1/orgs/{org}/sites/{site}/agent-settings",
        update="PUT",
    ),
)


class AgentSettingsKind(SitePart):
    declaration = AGENT_SETTINGS
    writes = (Writes(),)  # a PUT of the whole object
    part_payload = AgentSettingsChange

    async def read(self, api: ApiClient, site: dict[str, Any], site_path: str) -> None:
        """The site's agent settings, their groups alone, into `site["_agentSettings"]`."""
        found = await api.get(f"{site_path}/agent-settings", shape=ANSWER)
        site["_agentSettings"] = {k: found[k] for k in GROUPS if k in found}

    def plan_part(
        self, desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
    ) -> Action | None:
        """One update when a written field differs from the live one; the plan shows only those,
        each at its path (`agentSettings.scans.topics`)."""
        written = desired.entry.agentSettings
        if written is None:
            return None
        found = _live(live)
        current = found or {}
        changed = {
            path: value
            for path, value in managed(written).items()
            if _compared(path, value_at(current, path)) != _compared(path, value)
        }
        if not changed:
            return None
        base = (*desired.path, "agentSettings")
        if found is not None and report_incomplete(written, found, changed, base, "site", ctx):
            return None
        lines = [
            leaf_change(
                "agentSettings",
                path,
                _compared(path, value_at(current, path)),
                _compared(path, value),
                sensitive=ctx.sensitive((*base, *path)),
            )
            for path, value in changed.items()
        ]
        mine = [a.key for a in ctx.actions_at[desired.address] if a.verb != "delete"]
        action = Action(
            "update",
            desired.kind,
            f"{desired.address}.agentSettings",
            lines,
            ctx.where(base),
            payload=AgentSettingsChange(
                ref(desired.address),
                {".".join(path): _sent(".".join(path), v) for path, v in changed.items()},
            ),
            depends_on=mine,
        )
        return ctx.add(action)

    async def write(self, payload: Any, site_path: str, run: RunContext) -> None:
        """Read the live settings, merge the written fields in, PUT the whole object: what the
        manifest does not write stays as it is now, not as it was when the plan was made."""
        assert isinstance(payload, AgentSettingsChange)
        path = f"{site_path}/agent-settings"
        found = await run.api.get(path, shape=ANSWER)
        whole = merged({k: found[k] for k in GROUPS if k in found}, payload.fields)
        await run.api.write("PUT", path, whole)

    def export_part(
        self, site: LiveResource, live: LiveState, names: ExportNames
    ) -> dict[str, Any] | None:
        """The whole live settings (what is not written is not managed, so the whole object is
        what reproduces the site), the instructions as text where they are plain paragraphs."""
        found = _live(site)
        if not found:
            return None
        out = {k: dict(v) if isinstance(v, dict) else v for k, v in found.items()}
        editing = out.get("editing")
        if isinstance(editing, dict) and "customInstructions" in editing:
            editing["customInstructions"] = as_written(editing["customInstructions"])
        return out

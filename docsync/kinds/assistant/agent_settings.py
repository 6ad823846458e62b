"""A site's docs agent settings (production's `PUT .../agent-settings`, SiteAgentSettingsInput):
only the fields written are managed. The API reads the whole object and PUT replaces it whole,
so applying reads what is live, merges the written fields in and writes the whole object back,
as for the site's customization. Used by the site kind.

`editing.customInstructions` is a document in the API; a manifest writes it as text or as the
document (`documents`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from docsync.api.contract import INSTRUCTIONS as A_DOCUMENT
from docsync.api.contract import SHAPE, Note
from docsync.core.state import LiveResource, LiveState
from docsync.kinds.declaration import Declaration
from docsync.kinds.kind import ExportNames
from docsync.kinds.organization.documents import Instructions, as_written, to_document
from docsync.kinds.partial import ANSWER, Converted, Leaf, MergedFields, MergedPart, Setting
from docsync.kinds.requests import ORGANIZATION, Lose, Lost, LostAnswers, Routes, Writes

#: the groups PUT takes (the answer adds `object`, `updatedAt`, `updatedBy`, `urls`)
GROUPS = ("scans", "findings", "editing")
INSTRUCTIONS: Leaf = ("editing", "customInstructions")


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
class AgentSettingsChange(MergedFields):
    """The written fields to merge into the live settings."""


AGENT_SETTINGS_PATH = "/v1/orgs/{org}/sites/{site}/agent-settings"
SITE_AI = ORGANIZATION + "sites:\n  - title: Docs\n"
SERVERS = """\
    mcpServers:
      - {name: Billing, url: "https://mcp.acme.example", headers: {Authorization: token-1}}
      - {name: Status, url: "https://status.acme.example/mcp"}
"""
#: the site's agent and its MCP servers (`mcp_servers`), their answers lost
LOST = LostAnswers(
    "site ai",
    SITE_AI,
    (
        Lost(
            SITE_AI + "    agentSettings: {scans: {topics: never}}\n" + SERVERS,
            (
                Lose("PUT", "/agent-settings$"),
                Lose("POST", "/mcp-servers$"),
                Lose("POST", "/mcp-servers$", carried_out=False),
            ),
        ),
        Lost(
            SITE_AI + SERVERS.replace("token-1", "token-2").rsplit("      - ", 1)[0],
            (Lose("PATCH", "/mcp-servers/[^/]+$"), Lose("DELETE", "/mcp-servers/[^/]+$")),
        ),
    ),
    covers=("mcp_server",),
)

AGENT_SETTINGS = Declaration(
    "agent_settings",
    "agentSettings",
    "agent settings",
    key="agentSettings",
    parents=("site",),
    part=True,
    singleton=True,
    # read whole, merged with what is written, written back whole
    routes=Routes(AGENT_SETTINGS_PATH, item=AGENT_SETTINGS_PATH, update="PUT", read=True),
    entry=AgentSettings,
    describe=(
        "The site's docs agent (production's agent settings); only the fields written are "
        "managed, nested ones included."
    ),
    writes=(Writes(),),  # a PUT of the whole object
    lost_answers=(LOST,),
    contract=(Note(SHAPE, f"PUT {AGENT_SETTINGS_PATH}", "editing.customInstructions", A_DOCUMENT),),
    answer=ANSWER,  # an object: only the fields written are compared
)


class AgentSettingsKind(MergedPart):
    declaration = AGENT_SETTINGS
    part_payload = AgentSettingsChange

    put_fields = GROUPS
    #: the instructions: written as text, held as a document
    converted = {INSTRUCTIONS: Converted(as_written, to_document)}

    def export(
        self, site: LiveResource, live: LiveState, names: ExportNames
    ) -> dict[str, Any] | None:
        """The whole live settings (what is not written is not managed, so the whole object is
        what reproduces the site), the instructions as text where they are plain paragraphs."""
        found = self.live_object(site)
        if not found:
            return None
        out = {k: dict(v) if isinstance(v, dict) else v for k, v in found.items()}
        editing = out.get("editing")
        if isinstance(editing, dict) and "customInstructions" in editing:
            editing["customInstructions"] = as_written(editing["customInstructions"])
        return out

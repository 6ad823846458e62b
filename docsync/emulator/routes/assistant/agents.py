"""The docs agent's settings: a site's (`.../sites/{siteId}/agent-settings`, production's
SiteAgentSettings) and the organization's instructions (`.../agent-instructions`, production's
OrganizationAgentInstructions). Neither is in the API description: production's operations are
served in both contract modes.

A site's settings are stored on the site row (`agentSettings`), so they go with the site; until
written they read as production's defaults (scans on `auto`, change requests `never`, no
instructions). PUT replaces them whole (every group required, as production's
SiteAgentSettingsInput). The organization's instructions are stored on its row; PUT takes
`{instructions}` (a document). A document is checked for its frame (`object: document`, `data`,
`nodes` of blocks) and kept as written: the emulator renders no content.
"""

from __future__ import annotations

from typing import Any

from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.body import Body
from docsync.emulator.documents import DOCUMENT, EMPTY_DOCUMENT
from docsync.emulator.http import Ctx
from docsync.emulator.routes.organization.orgs import ORGS
from docsync.emulator.routes.sites.sites import SITES
from docsync.emulator.shapes import Enum, Obj
from docsync.emulator.singleton import Held, Singleton
from docsync.emulator.snapshot import Loading, kept, obj
from docsync.emulator.store import Doc, Row

#: production's SiteSettingsFindingChangeRequests
CHANGE_REQUESTS = ("always", "auto-fixable", "never")
#: production's SiteAgentSettingsInput
SETTINGS = Obj(
    {
        "scans": Obj({"topics": Enum(("auto", "never"))}, ("topics",)),
        "findings": Obj(
            {"changeRequests": Enum(("always", "auto-fixable", "never"))}, ("changeRequests",)
        ),
        "editing": Obj({"customInstructions": DOCUMENT}, ("customInstructions",)),
    },
    ("scans", "findings", "editing"),
)
INSTRUCTIONS = Obj({"instructions": DOCUMENT}, ("instructions",))
DEFAULT_SETTINGS: Doc = {
    "scans": {"topics": "auto"},
    "findings": {"changeRequests": "never"},
    "editing": {"customInstructions": EMPTY_DOCUMENT},
}
STAMPS = ("updatedAt", "updatedBy")


def _settings_view(ctx: Ctx, site: Row, written: Doc | None) -> Doc:
    body: Doc = {"object": "site-agent-settings"}
    body.update(kept(written or {}, STAMPS))
    body["urls"] = {"location": ctx.url(f"/orgs/{site.org}/sites/{site.id}/agent-settings")}
    body.update(
        {name: (written or {}).get(name, value) for name, value in DEFAULT_SETTINGS.items()}
    )
    return body


def _instructions_view(ctx: Ctx, org: Row, written: Doc | None) -> Doc:
    found = written or {}
    return {
        "object": "agent-instructions",
        "instructions": found.get("instructions", EMPTY_DOCUMENT),
        "updatedAt": found.get("updatedAt", org.data.get("createdAt", ctx.now)),
        "updatedBy": found.get("updatedBy", ""),
        "urls": {"location": ctx.url(f"/orgs/{org.id}/agent-instructions")},
    }


class Written(Held):
    """Kept by a snapshot when someone wrote it (`stamp` answered), defaults otherwise."""

    def __init__(self, stamp: str, fields: tuple[str, ...]) -> None:
        self.stamp = stamp
        self.fields = fields

    def seeded(
        self, at: Loading, one: Singleton, params: dict[str, str], answer: Any
    ) -> Doc | None:
        found = obj(answer)
        return {one.stored_in: kept(found, self.fields)} if found.get(self.stamp) else None


SITE_SETTINGS = Singleton(
    SITES,
    "agent-settings",
    _settings_view,
    stored_in="agentSettings",
    body=Body(shape=SETTINGS),
    rules=Written("updatedAt", (*DEFAULT_SETTINGS, *STAMPS)),
    stamps=STAMPS,
)
ORG_INSTRUCTIONS = Singleton(
    ORGS,
    "agent-instructions",
    _instructions_view,
    stored_in="agentInstructions",
    body=Body(shape=INSTRUCTIONS),
    rules=Written("updatedBy", ("instructions", *STAMPS)),
    access=Access.ADMIN,
    stamps=STAMPS,
)

routes: list[BaseRoute] = SITE_SETTINGS.routes() + ORG_INSTRUCTIONS.routes()

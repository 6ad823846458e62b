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

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator import site_tree as tree
from docsync.emulator.auth import Access
from docsync.emulator.documents import DOCUMENT, EMPTY_DOCUMENT
from docsync.emulator.http import Ctx, api_route, ok
from docsync.emulator.shapes import Enum, Obj
from docsync.emulator.snapshot import Loading, kept, obj
from docsync.emulator.store import Doc, Row

SETTINGS_PATH = "/v1/orgs/{organizationId}/sites/{siteId}/agent-settings"
INSTRUCTIONS_PATH = "/v1/orgs/{organizationId}/agent-instructions"


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


def _settings_view(ctx: Ctx, site: Row) -> Doc:
    stored = site.data.get("agentSettings")
    written: Doc = stored if isinstance(stored, dict) else {}
    body: Doc = {"object": "site-agent-settings"}
    for name in ("updatedAt", "updatedBy"):
        if name in written:
            body[name] = written[name]
    body["urls"] = {"location": ctx.url(f"/orgs/{site.org}/sites/{site.id}/agent-settings")}
    body.update({name: written.get(name, value) for name, value in DEFAULT_SETTINGS.items()})
    return body


def get_settings(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org()["id"])
    return ok(_settings_view(ctx, site))


def put_settings(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    body = SETTINGS.check(ctx.body(), "")
    stored = {**body, "updatedAt": ctx.now, "updatedBy": str(ctx.user["id"])}
    site = tree.patch(ctx.tx, site, {"agentSettings": stored})
    return ok(_settings_view(ctx, site))


def _instructions_view(ctx: Ctx, org: Doc) -> Doc:
    stored = org.get("agentInstructions")
    written: Doc = stored if isinstance(stored, dict) else {}
    return {
        "object": "agent-instructions",
        "instructions": written.get("instructions", EMPTY_DOCUMENT),
        "updatedAt": written.get("updatedAt", org.get("createdAt", ctx.now)),
        "updatedBy": written.get("updatedBy", ""),
        "urls": {"location": ctx.url(f"/orgs/{org['id']}/agent-instructions")},
    }


def get_instructions(ctx: Ctx) -> Response:
    return ok(_instructions_view(ctx, ctx.org()))


def put_instructions(ctx: Ctx) -> Response:
    org = ctx.org(Access.ADMIN)
    body = INSTRUCTIONS.check(ctx.body(), "")
    written = {**body, "updatedAt": ctx.now, "updatedBy": str(ctx.user["id"])}
    updated = {**org, "agentInstructions": written}
    ctx.tx.update("organization", org["id"], updated)
    return ok(_instructions_view(ctx, updated))


def load_settings(at: Loading, params: dict[str, str], answer: Any) -> None:
    """A site's agent settings as read: kept when written (stamped), defaults otherwise."""
    found = obj(answer)
    if "updatedAt" in found:
        stored = kept(found, (*DEFAULT_SETTINGS, "updatedAt", "updatedBy"))
        at.patch(tree.SITE, params["siteId"], {"agentSettings": stored})


def load_instructions(at: Loading, params: dict[str, str], answer: Any) -> None:
    """The organization's agent instructions as read: kept when someone wrote them."""
    found = obj(answer)
    if found.get("updatedBy"):
        stored = kept(found, ("instructions", "updatedAt", "updatedBy"))
        at.patch("organization", params["organizationId"], {"agentInstructions": stored})


routes: list[BaseRoute] = [
    api_route("GET", SETTINGS_PATH, get_settings, loads=load_settings),
    api_route("PUT", SETTINGS_PATH, put_settings),
    api_route("GET", INSTRUCTIONS_PATH, get_instructions, loads=load_instructions),
    api_route("PUT", INSTRUCTIONS_PATH, put_instructions),
]

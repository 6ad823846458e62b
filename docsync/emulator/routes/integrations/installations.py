"""An organization's integration installations: list them (with their integrations), install,
read, configure, uninstall (which takes the site and space installations with it).

Installing an integration an organization already has answers that installation (production's
installIntegration declares no refusal). A configuration is checked against the integration's
schema at the account level (`docsync.emulator.integrations`).
"""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access, membership
from docsync.emulator.errors import not_found
from docsync.emulator.http import Ctx, api_route, created, empty, new_id, ok
from docsync.emulator.integrations import (
    INSTALLATION,
    check_configuration,
    drop_all,
    external_ids,
    installation,
    installation_view,
    integration,
    status,
)
from docsync.emulator.paging import paginate
from docsync.emulator.snapshot import Loading, items, kept
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields
from docsync.emulator.views import org_view

BASE = "/v1/integrations/{integrationName}/installations"
ITEM = BASE + "/{installationId}"
SELECTIONS = ("all", "selected")


def integration_view(ctx: Ctx, row: Row, owner: Doc) -> Doc:
    """Production's Integration; its `owner` is the organization it is listed for."""
    data, name = row.data, row.id
    return {
        "object": "integration",
        "name": name,
        "version": 1,
        "title": data["title"],
        "description": data["description"],
        "previewImages": [],
        "target": data["target"],
        "verified": True,
        "visibility": "public",
        "scopes": data["scopes"],
        "categories": data["categories"],
        "configurations": data["configurations"],
        "externalLinks": [],
        "owner": org_view(ctx, owner, ctx.member),
        "permissions": {"admin": False},
        "urls": {
            "location": ctx.url(f"/integrations/{name}"),
            "app": ctx.app_url(f"/integrations/{name}"),
            "assets": ctx.url(f"/integrations/{name}/assets"),
            "publicEndpoint": ctx.url(f"/integrations/{name}/public"),
            "publicContentEndpoint": ctx.url(f"/integrations/{name}/public"),
        },
    }


def get_integration(ctx: Ctx) -> Response:
    """Production's getIntegrationByName: what an integration is and the schemas of its
    configurations. Its publisher stands apart from the caller: the view names the first
    organization the caller is a member of (the seed names no publisher)."""
    found = integration(ctx, ctx.params["integrationName"])
    for org in ctx.tx.docs("organization"):
        member = membership(ctx.tx, org["id"], ctx.user["id"])
        if member is not None:
            ctx.member = member
            return ok(integration_view(ctx, found, org))
    raise not_found(f"No integration {found.id!r}")


def list_installations(ctx: Ctx) -> Response:
    """Open to any member, as every read: production's listOrganizationInstallations sets no
    role (a read-only token plans integrations)."""
    org = ctx.org()
    search = (ctx.query.get("search") or "").lower()
    rows = [
        row
        for row in ctx.tx.rows(INSTALLATION, org=org["id"])
        if search in str(row.data["integration"]).lower()
    ]

    def render(page: list[Row]) -> list[Doc]:
        return [
            {
                "installation": installation_view(ctx, row),
                "integration": integration_view(
                    ctx, integration(ctx, row.data["integration"]), org
                ),
            }
            for row in page
        ]

    return paginate(ctx, rows, render)  # type: ignore[arg-type]


def install(ctx: Ctx) -> Response:
    found = integration(ctx, ctx.params["integrationName"])
    body = Fields(ctx.body(), ("organization",))
    org_id = body.string("organization", required=True)
    assert org_id is not None
    org = ctx.org(Access.ADMIN, org_id)
    have = [
        r for r in ctx.tx.rows(INSTALLATION, org=org["id"]) if r.data["integration"] == found.id
    ]
    if have:
        row = have[0]
    else:
        ident = new_id()
        account = found.data["configurations"].get("account")
        data: Doc = {
            "integration": found.id,
            "configuration": {},
            "status": status({}, account),
            "externalIds": [],
            "createdAt": ctx.now,
            "updatedAt": ctx.now,
        }
        ctx.tx.insert(INSTALLATION, ident, data, org=org["id"])
        row = _row(ctx, ident)
    location = ctx.url(f"/integrations/{found.id}/installations/{row.id}")
    return created(installation_view(ctx, row), location)


def _row(ctx: Ctx, ident: str) -> Row:
    row = ctx.tx.get_row(INSTALLATION, ident)
    assert row is not None
    return row


def get_installation(ctx: Ctx) -> Response:
    return ok(installation_view(ctx, installation(ctx)))


def update_installation(ctx: Ctx) -> Response:
    """Production's UpdateIntegrationInstallation: the configuration written is the whole
    configuration (checked against the account schema); the rest as written."""
    row = installation(ctx, Access.ADMIN)
    body = Fields(ctx.body(), ("externalIds", "configuration", "space_selection", "site_selection"))
    data = dict(row.data)
    if body.has("configuration"):
        schema = integration(ctx, data["integration"]).data["configurations"].get("account")
        data["configuration"] = check_configuration(
            ctx.body()["configuration"], schema, "configuration"
        )
        data["status"] = status(data["configuration"], schema)
    if body.has("externalIds"):
        data["externalIds"] = external_ids(ctx.body()["externalIds"])
    for name in ("space_selection", "site_selection"):
        if body.has(name):
            data[name] = body.enum(name, SELECTIONS)
    data["updatedAt"] = ctx.now
    ctx.tx.update(INSTALLATION, row.id, data)
    return ok(installation_view(ctx, _row(ctx, row.id)))


def uninstall(ctx: Ctx) -> Response:
    """205 when it uninstalled (its site and space installations go too), 204 when there was
    nothing to uninstall."""
    ident = ctx.params["installationId"]
    if ctx.tx.get_row(INSTALLATION, ident) is None:
        integration(ctx, ctx.params["integrationName"])
        return empty(204)
    drop_all(ctx.tx, installation(ctx, Access.ADMIN))
    return empty(205)


#: what a snapshot keeps of an integration and of its installation, as answered
_INTEGRATION = ("title", "description", "target", "scopes", "categories", "configurations")
_INSTALLATION = ("status", "configuration", "externalIds", "createdAt", "updatedAt")


def load_integration(at: Loading, params: dict[str, str], answer: Any) -> None:
    """An integration a snapshot read by its name (one to install), with its schemas."""
    found = answer if isinstance(answer, dict) else {}
    name = str(found.get("name") or params["integrationName"])
    if at.row("integration", name) is None:
        at.tx.insert("integration", name, {"name": name, **kept(found, _INTEGRATION)})


def load_installations(at: Loading, params: dict[str, str], answer: Any) -> None:
    """The organization's installations as read, and the integrations they install (what a
    snapshot knows of them: their schemas, target and scopes)."""
    for item in items(answer):
        found, installed = item["integration"], item["installation"]
        load_integration(at, {"integrationName": str(found["name"])}, found)
        name = str(found["name"])
        data = {"integration": name, "createdAt": at.now, "updatedAt": at.now}
        at.put(INSTALLATION, str(installed["id"]), {**data, **kept(installed, _INSTALLATION)})


routes: list[BaseRoute] = [
    api_route("GET", "/v1/integrations/{integrationName}", get_integration, loads=load_integration),
    api_route(
        "GET",
        "/v1/orgs/{organizationId}/installations",
        list_installations,
        loads=load_installations,
    ),
    api_route("POST", BASE, install),
    api_route("GET", ITEM, get_installation),
    api_route("PATCH", ITEM, update_installation),
    api_route("DELETE", ITEM, uninstall),
]

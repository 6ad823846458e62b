"""An organization's integration installations: list them (with their integrations), install,
read, configure, uninstall (which takes the site and space installations with it); and what an
integration is (its schemas), by its name.

Installing an integration an organization already has answers that installation (production's
installIntegration declares no refusal). A configuration is checked against the integration's
schema at the account level (`docsync.emulator.integrations`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access, membership
from docsync.emulator.body import BOTH, At, Body, Choice, Field, Place
from docsync.emulator.errors import not_found
from docsync.emulator.http import Ctx, created, new_id
from docsync.emulator.integrations import (
    INSTALLATION,
    check_configuration,
    drop_all,
    external_ids,
    installation_view,
    integration,
    status,
)
from docsync.emulator.resource import Resource
from docsync.emulator.rules import ADMIN, Entry, Rules, reload
from docsync.emulator.scopes import CATALOGUE, OWN_ID
from docsync.emulator.snapshot import Loading, kept
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields
from docsync.emulator.views import org_view

BASE = "/v1/integrations/{integrationName}/installations"
SELECTIONS = ("all", "selected")
#: what a snapshot keeps of an integration and of its installation, as answered
_INTEGRATION = ("title", "description", "target", "scopes", "categories", "configurations")
_INSTALLATION = ("status", "configuration", "externalIds", "createdAt", "updatedAt")


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


def _published(ctx: Ctx, row: Row) -> Doc:
    """Production's getIntegrationByName: what an integration is and the schemas of its
    configurations. Its publisher stands apart from the caller: the view names the first
    organization the caller is a member of (the seed names no publisher)."""
    for org in ctx.tx.docs("organization"):
        member = membership(ctx.tx, org["id"], ctx.user["id"])
        if member is not None:
            ctx.member = member
            return integration_view(ctx, row, org)
    raise not_found(f"No integration {row.id!r}")


def _known(at: Loading, name: str, found: Doc) -> None:
    """An integration a snapshot read, with its schemas, kept apart from any organization, and
    only when this emulator does not know it (what it knows is its seed's)."""
    if at.row("integration", name) is None:
        at.tx.insert("integration", name, {"name": name, **kept(found, _INTEGRATION)})


class IntegrationRules(Rules):
    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
        """One to install, read by its name: known (`_known`), no row of the organization's."""
        _known(at, str(item["name"]), item)
        return None


#: the integrations there are (the seed's), read by name
INTEGRATIONS = Resource(
    "integration",
    "/v1/integrations",
    "integrationName",
    _published,
    missing="No integration {id!r}",
    scope=CATALOGUE,
    rules=IntegrationRules(),
    operations=("get",),
    snapshot=(),
)


class InstallationRules(Rules):
    def hidden(self, ctx: Ctx, row: Row) -> bool:
        """An installation of another integration than the path's (its list names none)."""
        named = ctx.params.get("integrationName")
        return named is not None and row.data["integration"] != named

    def filter(self, ctx: Ctx, place: Place, rows: list[Row]) -> list[Row]:
        search = (ctx.query.get("search") or "").lower()
        return [row for row in rows if search in str(row.data["integration"]).lower()]

    def render(self, ctx: Ctx, res: Entry, page: Sequence[Row]) -> list[Doc]:
        """Each with its integration. Open to any member, as every read: production's
        listOrganizationInstallations sets no role (a read-only token plans integrations)."""
        org = ctx.tx.get("organization", ctx.params["organizationId"]) or {}
        return [
            {
                "installation": installation_view(ctx, row),
                "integration": integration_view(
                    ctx, integration(ctx, row.data["integration"]), org
                ),
            }
            for row in page
        ]

    def serve_create(self, ctx: Ctx, res: Entry) -> Response:
        """`POST /integrations/{name}/installations {organization}`: the organization is the
        body's (admins alone); one that has it installed answers that installation."""
        found = integration(ctx, ctx.params["integrationName"])
        body = Fields(ctx.body(), ("organization",))
        org_id = body.string("organization", required=True)
        assert org_id is not None
        org = ctx.org(Access.ADMIN, org_id)
        have = [
            r for r in ctx.tx.rows(INSTALLATION, org=org["id"]) if r.data["integration"] == found.id
        ]
        row = have[0] if have else _install(ctx, found, org["id"])
        location = ctx.url(f"/integrations/{found.id}/installations/{row.id}")
        return created(installation_view(ctx, row), location)

    def change(self, ctx: Ctx, res: Entry, place: Place, row: Row, values: Doc) -> Row:
        """Production's UpdateIntegrationInstallation: the configuration written is the whole
        configuration, and what the installation waits for follows it."""
        data = {**row.data, **values, "updatedAt": ctx.now}
        if "configuration" in values:
            data["status"] = status(values["configuration"], _account(ctx, row))
        ctx.tx.update(INSTALLATION, row.id, data)
        return reload(ctx, row)

    def remove(self, ctx: Ctx, place: Place, row: Row) -> bool:
        """Its site and space installations go with it."""
        drop_all(ctx.tx, row)
        return True

    def nothing(self, ctx: Ctx, res: Entry) -> None:
        """Nothing to uninstall is a 204, of an integration there is."""
        integration(ctx, ctx.params["integrationName"])

    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
        """An installation as read, and the integration it installs (what a snapshot knows of
        it: its schemas, target and scopes)."""
        found, installed = item["integration"], item["installation"]
        _known(at, str(found["name"]), found)
        data = {"integration": str(found["name"]), "createdAt": at.now, "updatedAt": at.now}
        return {**data, **kept(installed, _INSTALLATION)}

    def seeded_key(self, res: Entry, place: Place, item: Doc) -> str:
        return str(item["installation"]["id"])


def _install(ctx: Ctx, found: Row, org: str) -> Row:
    """A new installation of `found` in `org`, waiting for its account configuration."""
    ident = new_id()
    data: Doc = {
        "integration": found.id,
        "configuration": {},
        "status": status({}, found.data["configurations"].get("account")),
        "externalIds": [],
        "createdAt": ctx.now,
        "updatedAt": ctx.now,
    }
    ctx.tx.insert(INSTALLATION, ident, data, org=org)
    row = ctx.tx.get_row(INSTALLATION, ident)
    assert row is not None
    return row


def _account(ctx: Ctx, row: Row) -> Doc | None:
    schema: Doc | None = (
        integration(ctx, row.data["integration"]).data["configurations"].get("account")
    )
    return schema


def _configuration(at: At, value: Any, name: str) -> Doc:
    assert at.row is not None
    return check_configuration(value, _account(at.ctx, at.row), name)


INSTALLATIONS = Resource(
    INSTALLATION,
    "/v1/orgs/{organizationId}/installations",
    "installationId",
    installation_view,
    missing="No installation {installationId!r} of integration {integrationName!r}",
    scope=OWN_ID,
    body=Body(
        (
            Field("configuration", nullable=BOTH, resolve=_configuration),
            Field(
                "externalIds", nullable=BOTH, resolve=lambda at, value, name: external_ids(value)
            ),
            Choice("space_selection", values=SELECTIONS),
            Choice("site_selection", values=SELECTIONS),
        )
    ),
    rules=InstallationRules(),
    access=ADMIN,
    item_path=BASE + "/{installationId}",
    create_path=BASE,
    snapshot=(),
    loaded=("list",),
)

routes: list[BaseRoute] = [*INTEGRATIONS.routes(), *INSTALLATIONS.routes()]

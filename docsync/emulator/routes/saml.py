"""SAML providers (list, create, get, PATCH, DELETE) and the SSO login list of an organization."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.errors import not_found
from docsync.emulator.http import Ctx, api_route, created, empty, new_id, ok
from docsync.emulator.paging import paginate
from docsync.emulator.store import Row
from docsync.emulator.validate import ROLES, URL_PATTERN, Fields
from docsync.emulator.views import team_view

BASE = "/v1/orgs/{organizationId}/saml"
_FIELDS = ("label", "entityID", "certificate", "ssoURL", "defaultTeam", "defaultRole")


def _provider(ctx: Ctx, org: str) -> Row:
    row = ctx.tx.get_row("saml-provider", ctx.params["samlProviderId"])
    if row is None or row.org != org:
        raise not_found(f"SAML provider {ctx.params['samlProviderId']!r} not found in {org!r}")
    return row


def _service(ctx: Ctx, row: Row) -> dict[str, str]:
    base = ctx.url(f"/orgs/{row.org}/saml/{row.id}")
    return {"acsURL": f"{base}/acs", "startURL": f"{base}/start", "entityID": f"{base}/metadata"}


def saml_view(ctx: Ctx, row: Row) -> dict[str, Any]:
    """An `OrganizationSAMLProvider`: `defaultTeam` is the Team object, never the id."""
    data = row.data
    complete = all(data.get(k) for k in ("ssoURL", "entityID", "certificate"))
    body: dict[str, Any] = {
        "object": "saml-provider",
        "id": row.id,
        "label": data["label"],
        "ssoURL": data.get("ssoURL") or "",
        "entityID": data.get("entityID") or "",
        "certificate": data.get("certificate") or "",
        "defaultRole": data.get("defaultRole"),
        "createdAt": data["createdAt"],
        "status": "active" if complete else "pending",
        "service": _service(ctx, row),
        "urls": {"location": ctx.url(f"/orgs/{row.org}/saml/{row.id}")},
    }
    team = ctx.tx.get_row("team", data["defaultTeam"]) if data.get("defaultTeam") else None
    if team is not None:
        body["defaultTeam"] = team_view(ctx, team)
    return body


def _read(ctx: Ctx, org: str, body: Fields, creating: bool) -> dict[str, Any]:
    values: dict[str, Any] = {}
    if creating or body.has("label"):
        values["label"] = body.string("label", required=True, min_len=1, max_len=30)
    if body.has("entityID"):
        values["entityID"] = body.string("entityID", max_len=1024)
    if body.has("certificate"):
        values["certificate"] = body.string("certificate", max_len=10000)
    if body.has("ssoURL"):
        values["ssoURL"] = body.string("ssoURL", max_len=2048, pattern=URL_PATTERN)
    if body.has("defaultTeam"):
        team = body.string("defaultTeam")  # null: 400, as production
        found = ctx.tx.get_row("team", team) if team else None
        if found is None or found.org != org:
            raise not_found(f"defaultTeam: no team {team!r} in organization {org!r}")
        values["defaultTeam"] = team
    if body.has("defaultRole"):
        values["defaultRole"] = body.enum("defaultRole", ROLES, nullable=True)
    return values


def list_providers(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    return paginate(ctx, [saml_view(ctx, r) for r in ctx.tx.rows("saml-provider", org=org)])


def create_provider(ctx: Ctx) -> Response:
    org = ctx.org(Access.ADMIN)["id"]
    values = _read(ctx, org, Fields(ctx.body(), _FIELDS), creating=True)
    provider_id = new_id()
    data = {"defaultRole": None, **values, "createdAt": ctx.now}
    ctx.tx.insert("saml-provider", provider_id, data, org=org)
    row = ctx.tx.get_row("saml-provider", provider_id)
    assert row is not None
    return created(saml_view(ctx, row), ctx.url(f"/orgs/{org}/saml/{provider_id}"))


def get_provider(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    return ok(saml_view(ctx, _provider(ctx, org)))


def update_provider(ctx: Ctx) -> Response:
    org = ctx.org(Access.ADMIN)["id"]
    row = _provider(ctx, org)
    values = _read(ctx, org, Fields(ctx.body(), _FIELDS), creating=False)
    ctx.tx.update("saml-provider", row.id, {**row.data, **values})
    updated = ctx.tx.get_row("saml-provider", row.id)
    assert updated is not None
    return ok(saml_view(ctx, updated))


def delete_provider(ctx: Ctx) -> Response:
    org = ctx.org(Access.ADMIN)["id"]
    row = ctx.tx.get_row("saml-provider", ctx.params["samlProviderId"])
    if row is None or row.org != org:
        return empty(204)
    ctx.tx.delete("saml-provider", row.id)
    return ctx.deleted()  # docs-platform-api.md §4.14: 204; production: 205


def sso_logins(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    items = [
        {"id": r.id, "label": r.data["label"], "startURL": _service(ctx, r)["startURL"]}
        for r in ctx.tx.rows("saml-provider", org=org)
    ]
    return ok({"items": items})


routes: list[BaseRoute] = [
    api_route("GET", BASE, list_providers),
    api_route("POST", BASE, create_provider),
    api_route("GET", BASE + "/{samlProviderId}", get_provider),
    api_route("PATCH", BASE + "/{samlProviderId}", update_provider),
    api_route("DELETE", BASE + "/{samlProviderId}", delete_provider),
    api_route("GET", "/v1/orgs/{organizationId}/sso", sso_logins),
]

"""SAML providers (list, create, get, PATCH, DELETE) and the SSO login list of an organization."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.body import BOTH, CREATE, At, Body, Choice, Place, Text
from docsync.emulator.errors import not_found
from docsync.emulator.http import Ctx, api_route, ok
from docsync.emulator.resource import Resource
from docsync.emulator.rules import ADMIN, DESCRIBED_DELETE, Entry, Rules
from docsync.emulator.snapshot import Loading
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import ROLES, URL_PATTERN
from docsync.emulator.views import team_view

BASE = "/v1/orgs/{organizationId}/saml"


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


def _team_of(at: At, team: str, name: str) -> str:
    found = at.ctx.tx.get_row("team", team) if team else None
    if found is None or found.org != at.place.org:
        raise not_found(f"{name}: no team {team!r} in organization {at.place.org!r}")
    return team


class SamlRules(Rules):
    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
        """A provider as answered: its default team, answered whole, kept by id."""
        data = super().seeded(at, res, place, item) or {}
        team = item.get("defaultTeam")
        data["defaultTeam"] = team.get("id") if isinstance(team, dict) else None
        return data


SAML = Resource(
    "saml-provider",
    BASE,
    "samlProviderId",
    saml_view,
    missing="SAML provider {id!r} not found in {org!r}",
    body=Body(
        (
            Text("label", required=CREATE, min_len=1, max_len=30),
            Text("entityID", max_len=1024),
            Text("certificate", max_len=10000),
            Text("ssoURL", max_len=2048, pattern=URL_PATTERN),
            Text("defaultTeam", resolve=_team_of),  # null: 400, as production
            Choice("defaultRole", nullable=BOTH, values=ROLES),
        )
    ),
    rules=SamlRules(),
    access=ADMIN,
    location="/orgs/{org}/saml/{id}",
    defaults={"defaultRole": None},
    codes=DESCRIBED_DELETE,  # docs-platform-api.md §4.14: 204; production: 205
    snapshot=(),
)


def sso_logins(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    items = [
        {"id": r.id, "label": r.data["label"], "startURL": _service(ctx, r)["startURL"]}
        for r in ctx.tx.rows("saml-provider", org=org)
    ]
    return ok({"items": items})


routes: list[BaseRoute] = [
    *SAML.routes(),
    api_route("GET", "/v1/orgs/{organizationId}/sso", sso_logins),
]

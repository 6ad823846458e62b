"""SAML single sign-on providers, keyed by label; `defaultTeam` names a team."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from docsync.api.answers import ID, TEXT, Either, Obj, Opt
from docsync.api.contract import ANSWER_REFUSED, Explained, Seed
from docsync.core.entries import Entry, Ref, Role, Uri
from docsync.core.lockout import REMOVING, Lockout
from docsync.core.model import Action
from docsync.core.nullability import NULL
from docsync.kinds.crud import CrudKind
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.requests import BY_KEY, Routes, Writes, each_write_lost


def _team_id(raw: dict[str, Any]) -> Any:
    """SAML `defaultTeam`: written as a team id, read back as a whole Team object."""
    team = raw.get("defaultTeam")
    return team.get("id") if isinstance(team, dict) else team


def _strip(value: Any) -> Any:
    return value.strip() if value else value


class SamlEntry(Entry):
    """A SAML single sign-on provider, keyed by label."""

    label: str | None = Api(answer=TEXT).limits(default=None, min_length=1, max_length=30)
    ssoURL: Uri | None = Api(answer=Opt(TEXT)).limits(default=None)
    entityID: str | None = Api(answer=Opt(TEXT)).limits(default=None, max_length=1024)
    certificate: str | None = Api(sensitive=True, normalize=_strip).limits(
        default=None, max_length=10000
    )
    """Sensitive: never printed."""
    defaultTeam: Ref | None = Api(
        ref="team", live=_team_id, answer=Opt(Either((Obj({"id": ID}), ID)))
    ).limits(default=None)
    """A team by title (or id)."""
    defaultRole: Annotated[Role | None, NULL] = Api(answer=Opt(TEXT)).limits(default=None)


CONTRACT = (
    Explained(
        (
            "POST /v1/orgs/{org}/saml",
            "GET /v1/orgs/{org}/saml",
            "GET /v1/orgs/{org}/saml/{id}",
            "PATCH /v1/orgs/{org}/saml/{id}",
        ),
        r'"ssoURL":""',
        "createOrganizationSAMLProvider requires only `label`, while every "
        "OrganizationSAMLProvider answer requires `ssoURL` as a URI: a provider created without "
        "one cannot be answered within the document; the emulator answers '' (docs/emulator.md)",
        ANSWER_REFUSED,
    ),
    Seed(
        "POST",
        "/v1/orgs/{org}/saml",
        {
            "label": "Okta",
            "ssoURL": "https://idp.example/sso",
            "entityID": "https://idp.example/entity",
            "certificate": "MIIC-fuzz",
            "defaultTeam": "{team}",
        },
    ),
)
OKTA = "{label: Okta, ssoURL: 'https://okta.example/%s', entityID: e1, certificate: \"%s\"}"
CERT = "{{ env('SAML_CERT') }}"

SAML = Declaration(
    "saml",
    "saml",
    "SAML provider",
    key="label",
    renames=True,
    export_file="teams.yaml",
    entry=SamlEntry,
    routes=Routes("/v1/orgs/{org}/saml", id_name="samlProviderId"),
    writes=(Writes(found_by=BY_KEY),),
    lost_answers=(
        each_write_lost(
            "saml",
            (OKTA % ("sso", CERT), OKTA % ("sso2", CERT), "{label: Okta, state: absent}"),
            ("POST", "/saml$"),
            ("PATCH", "/saml/[^/]+$"),
            ("DELETE", "/saml/[^/]+$"),
        ),
    ),
    contract=CONTRACT,
    roles=("read", "admin"),
)


class SamlKind(CrudKind):
    declaration = SAML

    def lockout(self, actions: Sequence[Action], guard: Lockout) -> None:
        for action in actions:
            if action.verb in REMOVING and guard.me_uses_sso:
                guard.problems.append(
                    f"{action.address}: the API token's user signs in with SSO: removing a SAML "
                    "provider may lock it out"
                )

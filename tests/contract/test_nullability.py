"""The manifest's NULL markers agree with production's request schemas, field by field.

A field may take `null` in a manifest only when the request that carries it accepts `null` in
the production contract; this test reads the contract, so a marker can neither promise a removal
production refuses nor refuse one it accepts.
"""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from docsync.core.nullability import nullable
from docsync.kinds.access.grants import Permissions
from docsync.kinds.catalogue import CATALOGUE, entry_model
from docsync.kinds.content.collections import CollectionEntry
from docsync.kinds.content.openapi import OpenApiEntry
from docsync.kinds.content.spaces import SpaceEntry
from docsync.kinds.content.translations import TranslationEntry
from docsync.kinds.declaration import Declaration, Field
from docsync.kinds.organization.team_members import TeamMemberRef
from docsync.kinds.presentation.publishing_auth import PublishingAuthEntry
from docsync.kinds.presentation.redirects import RedirectEntry
from docsync.kinds.sites.external_links import ExternalLinkEntry
from docsync.kinds.sites.section_groups import SectionGroupEntry
from docsync.kinds.sites.sections import SectionEntry
from docsync.kinds.sites.site import SiteEntry
from docsync.kinds.sites.site_spaces import SiteSpaceEntry
from tests.contract.checker import Contract
from tests.contract.document import require_spec
from tests.contract.sent import concrete
from tests.emulator_harness import EmulatorHandle

#: (model, field) -> (method, concrete path) of the request a written `null` becomes (a delete)
NULL_AS_REQUEST: dict[tuple[type[BaseModel], str], tuple[str, str]] = {
    (entry_model("site_space"), "customization"): (  # a part the catalogue adds to the entry
        "DELETE",
        "/v1/orgs/o/sites/s/site-spaces/x/customization",
    ),
    **{
        (entry_model(holder), "gitSync"): ("DELETE", "/v1/git/installations/x")  # uninstall
        for holder in ("site", "space")
    },
}
#: read off the catalogue: no test imports a kind's module it can do without
IntegrationEntry = CATALOGUE.named("integration").entry
SiteInstallations = CATALOGUE.named("integration_site").entry
SpaceInstallations = CATALOGUE.named("integration_space").entry
Glossary = CATALOGUE.named("translations_glossary").entry
GitSync = CATALOGUE.named("git_sync").entry
Connection = CATALOGUE.named("context_connection").entry
Channel = CATALOGUE.named("channel").entry
#: a body of production's setup choice (anyOf or allOf with a oneOf): a checker that reads
#: fields one by one cannot tell which field a null breaks; production's schema takes none
SETUP_CHOICE = "a field of a setup choice (production's anyOf/oneOf body): never null"
#: fields that are docsync's own (keys, lists it reconciles, actions): never null in a manifest
OWN = {
    "id",
    "state",
    "was",  # the name a renamed entry had: matched, never sent
    "protect",
    "email",
    "members",
    "sections",
    "siteSpaces",
    "sectionGroups",
    "externalLinks",
}
OWN_BY_MODEL = {
    (Glossary, "keyLanguage"): "the language whose term keys an entry: never sent",
    (Glossary, "entries"): "sent as the operations of the batch PUT .../translations-glossary",
    (GitSync, "provider"): (
        "selects production's oneOf branch of PATCH /git/installations/{id} (GitHub or GitLab): "
        "a checker that reads fields one by one cannot tell, and null is neither"
    ),
    (GitSync, "providerConfiguration"): (
        "the object of production's oneOf branch `provider` selects: required by both, null by "
        "neither, which a checker reading fields one by one cannot tell"
    ),
    (SiteEntry, "published"): "publish/unpublish actions, not a field",
    (SiteEntry, "agentsContext"): "description-only field (not in production)",
    (SiteEntry, "adaptiveSchema"): "PUT .../adaptive-schema {jsonSchema}: an object",
    (SiteEntry, "redirects"): "a list reconciled by docsync through PUT .../redirects",
    (SiteEntry, "shareLinks"): "a list reconciled by docsync through .../share-links",
    (SiteEntry, "publishingAuth"): "PATCH .../publishing/auth, only the fields written",
    (SiteEntry, "permissions"): "grants reconciled through .../permissions (invite, PATCH, DELETE)",
    (CollectionEntry, "permissions"): "grants reconciled through .../permissions",
    (SpaceEntry, "permissions"): "grants reconciled through .../permissions",
    (
        Permissions,
        "teams",
    ): "grants, one action each: invite, PATCH, DELETE",
    (
        Permissions,
        "members",
    ): "grants, one action each: invite, PATCH, DELETE",
    (SiteEntry, "customization"): "merged into the live object, PUT .../customization whole",
    (SiteEntry, "agentSettings"): "merged into the live object, PUT .../agent-settings whole",
    (SiteEntry, "mcpServers"): "a list reconciled by docsync through .../mcp-servers",
    (SiteEntry, "contextConnections"): "a list reconciled through .../context-connections",
    (SiteEntry, "channels"): "a list reconciled by docsync through .../channels",
    **{
        (Connection, name): SETUP_CHOICE
        for name in ("label", "connector", "setupSettings", "usageSettings", "filter")
    },
    **{(Channel, name): SETUP_CHOICE for name in ("type", "role", "setupSettings")},
    (SiteSpaceEntry, "default"): "moves the level's default; a boolean",
    (PublishingAuthEntry, "backend"): (
        "selects production's oneOf branch of PATCH .../publishing/auth (custom or "
        "integration): a checker that reads fields one by one cannot tell, and null is neither"
    ),
    (PublishingAuthEntry, "integration"): (
        "checked offline against `integrations`: production's PATCH names no integration (it "
        "uses the one installed on the site)"
    ),
    (TeamMemberRef, "user"): "the team's batch PUT .../members {add, remove}: a user id",
    (TeamMemberRef, "role"): "the team's batch PUT .../members {memberships}: a role",
    **{
        (RedirectEntry, name): "an item of the bulk upsert PUT .../redirects, never null"
        for name in ("source", "destination", "permanent", "captureWildcard")
    },
    (SectionEntry, "default"): "moves the site's default section; a boolean",
    (SectionGroupEntry, "sections"): "membership, reconciled by docsync",
    (ExternalLinkEntry, "after"): "the link's place, reconciled by the site's reorder",
    (ExternalLinkEntry, "group"): "the link's level: PATCH {parent} by docsync (absent: root)",
    (OpenApiEntry, "slug"): "the key, in the path of PUT .../openapi/{slug}",
    (OpenApiEntry, "source"): "PUT .../openapi/{slug} {source}: an object",
    (TranslationEntry, "title"): "description translation settings (documented conflict)",
    (TranslationEntry, "space"): "createTranslation source.space: a space id, a string",
    (TranslationEntry, "sourceLanguage"): "createTranslation source.language: a string",
    (
        IntegrationEntry,
        "name",
    ): "the key, in the path of POST /v1/integrations/{name}/installations",
    (IntegrationEntry, "sites"): "installations reconciled through .../installations/{id}/sites",
    (IntegrationEntry, "spaces"): "installations reconciled through .../installations/{id}/spaces",
    (SiteInstallations, "root"): "the sites by title: POST .../sites {siteId}, PATCH, DELETE",
    (SpaceInstallations, "root"): "the spaces by title: POST .../spaces {space}, PATCH, DELETE",
}


def _request(declared: Declaration, field: Field) -> tuple[str, str, str] | None:
    """The request that writes a field, as its declaration says: its own route, else the
    kind's update, else its create (None: docsync writes it some other way)."""
    routes = declared.routes
    if routes is None:
        return None
    if field.route is not None:
        method, path = field.route
    elif field.update:
        method, path = routes.update, routes.item_path
    elif field.create and routes.create is not None:
        method, path = routes.create, routes.list
    else:
        return None
    return method, concrete(path), field.wire_name


#: (model, field) -> (method, concrete path, wire field) of the request that carries the field,
#: read off the declarations (a new kind's fields are checked without a line here)
WIRE: dict[tuple[type[BaseModel], str], tuple[str, str, str]] = {
    (declared.entry, f.name): request
    for declared in CATALOGUE
    if declared.entry is not None
    for f in declared.fields
    if (declared.entry, f.name) not in OWN_BY_MODEL
    and f.name not in OWN
    and (request := _request(declared, f)) is not None
}


@pytest.fixture(scope="module")
def contract() -> Contract:
    return Contract(require_spec(), strict=True)  # what production itself accepts


@pytest.mark.parametrize(("where", "wire"), WIRE.items(), ids=lambda v: str(v))
def test_marker_matches_production(
    contract: Contract, where: tuple[type[BaseModel], str], wire: tuple[str, str, str]
) -> None:
    model, name = where
    method, path, field = wire
    found = contract.check_request(method, path, [], json.dumps({field: None}).encode())
    assert found is not None, f"{method} {path} is not a production operation"
    production = not [v for v in found if v.field == field]
    marked = nullable(model, name)
    assert marked == production, (
        f"{model.__name__}.{name}: marker says null {'is' if marked else 'is not'} accepted; "
        f"production's {method} {path} {field}: {'accepts' if production else 'refuses'} null"
    )


@pytest.mark.parametrize(("where", "request_"), NULL_AS_REQUEST.items(), ids=lambda v: str(v))
def test_a_null_that_is_a_request_is_marked_and_production_has_the_request(
    contract: Contract, where: tuple[type[BaseModel], str], request_: tuple[str, str]
) -> None:
    model, name = where
    method, path = request_
    assert nullable(model, name), f"{model.__name__}.{name}: null is {method} {path}: mark it"
    assert contract.check_request(method, path, [], b"") is not None, (
        f"{method} {path} is not a production operation"
    )


def test_every_entry_field_is_classified() -> None:
    # a part of no fields (a site's customization) is a body compared with production's schema
    for declared in (d for d in CATALOGUE if d.entry is not None and (d.fields or not d.part)):
        derived = entry_model(declared.name)  # with the lists and parts the catalogue adds
        for name in derived.model_fields:
            model = declared.entry if name in declared.entry.model_fields else derived
            where = (model, name)
            if where in WIRE or where in NULL_AS_REQUEST:
                continue
            own = where in OWN_BY_MODEL or (declared.entry, name) in OWN_BY_MODEL
            assert name in OWN or own, (
                f"{model.__name__}.{name}: add it to WIRE (the request carrying it) or OWN"
            )
            assert not nullable(model, name), f"{model.__name__}.{name}: NULL on no wire field"


def test_the_emulator_refuses_the_nulls_production_refuses(
    contract: Contract, emulator: EmulatorHandle
) -> None:
    client = emulator.client()
    org = "/v1/orgs/org_acme"
    collection = client.post(f"{org}/collections", json={"title": "C"}).json()["id"]
    team = client.put(f"{org}/teams", json={"title": "T"}).json()["id"]
    saml = client.post(f"{org}/saml", json={"label": "Okta", "defaultTeam": team}).json()["id"]
    cases = [
        ("POST", f"{org}/collections", {"title": "D", "parent": None}),
        ("POST", f"{org}/collections", {"title": "D", "description": None}),
        ("PATCH", f"/v1/collections/{collection}", {"description": None}),
        ("PATCH", f"/v1/collections/{collection}", {"defaultLevel": None}),
        ("PATCH", f"{org}/saml/{saml}", {"defaultTeam": None}),
        ("PATCH", f"{org}/saml/{saml}", {"defaultRole": None}),
        ("POST", f"{org}/spaces", {"title": "S", "parent": None}),
        ("PATCH", "/v1/spaces/space_handbook", {"language": None}),
        ("PATCH", "/v1/spaces/space_handbook", {"emoji": None}),
    ]
    disagree = []
    for method, path, body in cases:
        found = contract.check_request(method, path, [], json.dumps(body).encode())
        assert found is not None
        production = not [v for v in found if v.message.startswith("None")]
        answer = client.request(method, path, json=body)
        if (answer.status_code < 400) != production:
            disagree.append(f"{method} {path} {body}: {answer.status_code} {answer.text[:80]}")
        elif not production:
            field = next(iter(k for k, v in body.items() if v is None))
            assert answer.json()["error"]["message"] == f"{field}: must not be null"
    assert not disagree, disagree

"""The manifest's NULL markers agree with production's request schemas, field by field.

A field may take `null` in a manifest only when the request that carries it accepts `null` in
the production contract; this test reads the contract, so a marker can neither promise a removal
production refuses nor refuse one it accepts.
"""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from docsync.manifest import models
from docsync.manifest.nullability import nullable
from tests.contract.checker import Contract
from tests.contract.document import require_spec
from tests.emulator_harness import EmulatorHandle

ORG = "/v1/orgs/o"
#: (model, field) -> (method, concrete path, wire field) of the request that carries the field
WIRE: dict[tuple[type[BaseModel], str], tuple[str, str, str]] = {
    (models.OrgSettings, "title"): ("PATCH", ORG, "title"),
    (models.OrgSettings, "emailDomains"): ("PATCH", ORG, "emailDomains"),
    (models.OrgSettings, "hostname"): ("PATCH", ORG, "hostname"),
    (models.OrgSettings, "defaultRole"): ("PATCH", ORG, "defaultRole"),
    (models.OrgSettings, "defaultContent"): ("PATCH", ORG, "defaultContent"),
    (models.OrgSettings, "logo"): ("PATCH", ORG, "logo"),
    (models.OrgSettings, "sso"): ("PATCH", ORG, "sso"),
    (models.OrgSettings, "ai"): ("PATCH", ORG, "ai"),
    (models.OrgSettings, "inviteLinks"): ("PATCH", ORG, "inviteLinks"),
    (models.MemberEntry, "role"): ("PATCH", f"{ORG}/members/u", "role"),
    (models.TeamEntry, "title"): ("PUT", f"{ORG}/teams", "title"),
    (models.SamlEntry, "label"): ("PATCH", f"{ORG}/saml/s", "label"),
    (models.SamlEntry, "ssoURL"): ("PATCH", f"{ORG}/saml/s", "ssoURL"),
    (models.SamlEntry, "entityID"): ("PATCH", f"{ORG}/saml/s", "entityID"),
    (models.SamlEntry, "certificate"): ("PATCH", f"{ORG}/saml/s", "certificate"),
    (models.SamlEntry, "defaultTeam"): ("PATCH", f"{ORG}/saml/s", "defaultTeam"),
    (models.SamlEntry, "defaultRole"): ("PATCH", f"{ORG}/saml/s", "defaultRole"),
    (models.CollectionEntry, "title"): ("PATCH", "/v1/collections/c", "title"),
    (models.CollectionEntry, "description"): ("PATCH", "/v1/collections/c", "description"),
    (models.CollectionEntry, "defaultLevel"): ("PATCH", "/v1/collections/c", "defaultLevel"),
    (models.CollectionEntry, "parent"): ("POST", "/v1/collections/c/move", "parent"),
    (models.SpaceEntry, "title"): ("PATCH", "/v1/spaces/s", "title"),
    (models.SpaceEntry, "emoji"): ("PATCH", "/v1/spaces/s", "emoji"),
    (models.SpaceEntry, "editMode"): ("PATCH", "/v1/spaces/s", "editMode"),
    (models.SpaceEntry, "defaultLevel"): ("PATCH", "/v1/spaces/s", "defaultLevel"),
    (models.SpaceEntry, "collection"): ("POST", "/v1/spaces/s/move", "parent"),
    (models.SiteEntry, "title"): ("PATCH", f"{ORG}/sites/s", "title"),
    (models.SiteEntry, "type"): ("POST", f"{ORG}/sites", "type"),
    (models.SiteEntry, "visibility"): ("PATCH", f"{ORG}/sites/s", "visibility"),
    (models.SiteEntry, "basename"): ("PATCH", f"{ORG}/sites/s", "basename"),
    (models.SiteEntry, "proxy"): ("PATCH", f"{ORG}/sites/s", "proxy"),
    (models.SiteEntry, "adaptiveContent"): ("PATCH", f"{ORG}/sites/s", "adaptiveContent"),
    (models.SectionEntry, "title"): ("PATCH", f"{ORG}/sites/s/sections/x", "title"),
    (models.SectionEntry, "path"): ("PATCH", f"{ORG}/sites/s/sections/x", "path"),
    (models.SectionEntry, "icon"): ("PATCH", f"{ORG}/sites/s/sections/x", "icon"),
    (models.SectionEntry, "description"): ("PATCH", f"{ORG}/sites/s/sections/x", "description"),
    (models.SectionEntry, "condition"): ("PATCH", f"{ORG}/sites/s/sections/x", "condition"),
    (models.SiteSpaceEntry, "path"): ("PATCH", f"{ORG}/sites/s/site-spaces/x", "path"),
    (models.SiteSpaceEntry, "condition"): ("PATCH", f"{ORG}/sites/s/site-spaces/x", "condition"),
    (models.SiteSpaceEntry, "space"): ("PATCH", f"{ORG}/sites/s/site-spaces/x", "spaceId"),
    (models.SectionGroupEntry, "title"): ("PATCH", f"{ORG}/sites/s/section-groups/g", "title"),
    (models.SectionGroupEntry, "icon"): ("PATCH", f"{ORG}/sites/s/section-groups/g", "icon"),
    (models.TranslationEntry, "language"): ("POST", f"{ORG}/translations", "language"),
}
#: fields that are docsync's own (keys, lists it reconciles, actions): never null in a manifest
OWN = {"id", "state", "protect", "email", "members", "sections", "siteSpaces", "sectionGroups"}
OWN_BY_MODEL = {
    (models.SiteEntry, "published"): "publish/unpublish actions, not a field",
    (models.SiteEntry, "agentsContext"): "description-only field (not in production)",
    (models.SiteEntry, "adaptiveSchema"): "PUT .../adaptive-schema {jsonSchema}: an object",
    (models.SiteSpaceEntry, "default"): "moves the level's default; a boolean",
    (models.SectionEntry, "default"): "moves the site's default section; a boolean",
    (models.SectionGroupEntry, "sections"): "membership, reconciled by docsync",
    (models.OpenApiEntry, "slug"): "the key, in the path of PUT .../openapi/{slug}",
    (models.OpenApiEntry, "source"): "PUT .../openapi/{slug} {source}: an object",
    (models.TranslationEntry, "title"): "description translation settings (documented conflict)",
    (models.TranslationEntry, "space"): "createTranslation source.space: a space id, a string",
    (models.TranslationEntry, "sourceLanguage"): "createTranslation source.language: a string",
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


def test_every_entry_field_is_classified() -> None:
    entry_models = [models.OrgSettings, *(m for m in vars(models).values() if _is_entry(m))]
    for model in entry_models:
        for name in model.model_fields:
            where = (model, name)
            if where in WIRE:
                continue
            assert name in OWN or where in OWN_BY_MODEL, (
                f"{model.__name__}.{name}: add it to WIRE (the request carrying it) or OWN"
            )
            assert not nullable(model, name), f"{model.__name__}.{name}: NULL on no wire field"


def _is_entry(value: object) -> bool:
    return isinstance(value, type) and issubclass(value, models.Entry) and value is not models.Entry


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

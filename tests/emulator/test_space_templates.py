"""Production's space templates, served from the seed's `spaceTemplates:` (docs/emulator.md,
Seed): a template named there can be applied where production's bodies take one (a new space,
a section's or site space's new space, an existing space); an id the seed does not name is a
404, and a seed entry out of shape is refused naming it."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from docsync.emulator.errors import SeedError
from docsync.emulator.seed import parse_seed
from tests.emulator.test_sites_kit import SitesKit, sites_seed
from tests.emulator_harness import EmulatorHandle

ACME = "/v1/orgs/org_acme"
TEMPLATES = [
    {"id": "tpl_guides", "title": "Product guides", "subtitle": "Start here", "emoji": "1f4d8"},
    {
        "id": "tpl_api",
        "title": "API reference",
        "openAPISpec": {"slug": "payments", "sourceURL": "https://api.example/openapi.json"},
    },
]


def _seeded(emulator: EmulatorHandle) -> SitesKit:
    kit = SitesKit(emulator)
    emulator.reset({**sites_seed(), "spaceTemplates": TEMPLATES})
    return kit


def test_a_new_space_is_made_from_a_seeded_template(emulator: EmulatorHandle) -> None:
    client = _seeded(emulator).client
    made = client.post(f"{ACME}/spaces", json={"template": {"id": "tpl_guides"}})
    assert made.status_code == 201, made.text
    assert made.json()["title"] == "Product guides"  # no title written: the template's
    titled = client.post(f"{ACME}/spaces", json={"title": "Mine", "template": {"id": "tpl_guides"}})
    assert titled.json()["title"] == "Mine"
    # a template with an OpenAPI spec creates it with the space (production's SpaceTemplate)
    assert client.get(f"{ACME}/openapi/payments").status_code == 404
    with_spec = client.post(f"{ACME}/spaces", json={"template": {"id": "tpl_api", "params": {}}})
    assert with_spec.status_code == 201, with_spec.text
    spec = client.get(f"{ACME}/openapi/payments").json()
    assert spec["sourceURL"] == "https://api.example/openapi.json"
    unknown = client.post(f"{ACME}/spaces", json={"template": {"id": "tpl_nope"}})
    assert unknown.status_code == 404
    assert unknown.json()["error"]["message"] == "template.id: no space template 'tpl_nope'"


def test_a_sections_new_space_is_made_from_a_template_without_org_resources(
    emulator: EmulatorHandle,
) -> None:
    kit = _seeded(emulator)
    site = kit.create_site(title="Docs")["id"]
    body: dict[str, Any] = {"spaceId": None, "template": {"id": "tpl_guides"}}
    section = kit.ok(kit.client.post(kit.url(site, "sections"), json=body), 201)
    assert section["title"] == "Product guides"
    assert section["siteSpaces"][0]["space"]["title"] == "Product guides"
    added = kit.client.post(kit.url(site, "site-spaces"), json=body)
    assert kit.ok(added, 201)["space"]["title"] == "Product guides"
    # production: "Templates that provision organization-level resources, such as OpenAPI
    # specifications, are not supported by this site-scoped operation"
    for part in ("sections", "site-spaces"):
        refused = kit.client.post(
            kit.url(site, part), json={"spaceId": None, "template": {"id": "tpl_api"}}
        )
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"]["message"].startswith("template.id: 'tpl_api' provisions")


def test_a_template_is_applied_to_an_existing_space(emulator: EmulatorHandle) -> None:
    client = _seeded(emulator).client
    url = "/v1/spaces/space_handbook/content/template"
    applied = client.post(url, json={"id": "tpl_api"})
    assert applied.status_code == 201 and applied.content == b""
    assert client.get(f"{ACME}/openapi/payments").status_code == 200
    assert client.post(url, json={"id": "tpl_nope"}).status_code == 404
    reader = emulator.client("tok_sam")
    assert reader.post(url, json={"id": "tpl_guides"}).status_code == 403


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"title": "No id"}, "spaceTemplates[0]: id is required"),
        ({"id": "t"}, "spaceTemplates[0]: title is required"),
        (
            {"id": "t", "title": "T", "openAPISpec": {"slug": "a b", "sourceURL": "x"}},
            "spaceTemplates[0].openAPISpec.slug: must match",
        ),
    ],
)
def test_a_template_out_of_shape_is_refused_naming_it(entry: dict[str, Any], message: str) -> None:
    seed = {**sites_seed(), "spaceTemplates": [entry]}
    with pytest.raises(SeedError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_seed(yaml.safe_dump(seed), "seed.yaml")

"""What a caller cannot see is not found, and the answer names nothing else: a space,
collection or installation of an organization the caller is not in answers exactly as an id
that names nothing (not which organization holds it, nor that it exists)."""

from __future__ import annotations

from tests.emulator_harness import EmulatorHandle

ACME = "/v1/orgs/org_acme"
INSTALLATIONS = "/v1/integrations/google-analytics/installations"


def test_another_organizations_resources_answer_as_unknown_ids(
    emulator: EmulatorHandle,
) -> None:
    ada = emulator.client("tok_ada")
    collection = ada.post(f"{ACME}/collections", json={"title": "Private"}).json()["id"]
    installed = ada.post(INSTALLATIONS, json={"organization": "org_acme"}).json()["id"]
    olga = emulator.client("tok_olga")  # admin of org_other, not a member of Acme
    for method, template, hidden in (
        ("GET", "/v1/spaces/{}", "space_handbook"),
        ("PATCH", "/v1/spaces/{}", "space_handbook"),
        ("DELETE", "/v1/spaces/{}", "space_handbook"),
        ("POST", "/v1/spaces/{}/duplicate", "space_handbook"),
        ("GET", "/v1/spaces/{}/permissions/users", "space_handbook"),
        ("GET", "/v1/collections/{}", collection),
        ("GET", "/v1/collections/{}/spaces", collection),
        ("GET", INSTALLATIONS + "/{}", installed),
    ):
        body = {"title": "Taken"} if method == "PATCH" else None
        seen = olga.request(method, template.format(hidden), json=body)
        unknown = olga.request(method, template.format("nope"), json=body)
        assert seen.status_code == unknown.status_code, (template, seen.text)
        assert seen.text == unknown.text.replace("nope", hidden), template
        assert "org_acme" not in seen.text and "Acme" not in seen.text
    assert ada.get("/v1/spaces/space_handbook").json()["title"] == "Internal Handbook"

"""What the emulator reads as a request's body: a JSON value, or nothing at all where
production's body is optional; whitespace alone is neither."""

from __future__ import annotations

from tests.emulator_harness import EmulatorHandle

COLLECTIONS = "/v1/orgs/org_acme/collections"
JSON = {"Content-Type": "application/json"}


def test_a_body_of_whitespace_is_not_a_json_value(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    for raw in (b"\r", b" ", b"\n\t "):
        response = client.post(COLLECTIONS, content=raw, headers=JSON)
        assert response.status_code == 400, raw
        assert response.json()["error"]["message"].startswith("body: malformed JSON"), raw
    assert client.get(COLLECTIONS).json()["count"] == 0  # nothing was created


def test_an_optional_body_may_be_absent_or_padded(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    # createCollection's body is optional: none at all is `{}`, whitespace around a value is JSON
    assert client.post(COLLECTIONS, content=b"", headers=JSON).status_code == 201
    padded = client.post(COLLECTIONS, content=b' {"title": "Padded"}\n', headers=JSON)
    assert padded.status_code == 201 and padded.json()["title"] == "Padded"


def test_a_field_production_does_not_name_is_ignored(emulator: EmulatorHandle) -> None:
    # production's request bodies are open (no additionalProperties: false): such a field is
    # accepted and dropped (tests/contract/conflicts.py, UNKNOWN_FIELDS, says why)
    client = emulator.client()
    made = client.post(COLLECTIONS, json={"title": "Docs", "color": "red"})
    assert made.status_code == 201, made.text
    assert "color" not in made.json()
    space = client.patch(
        "/v1/spaces/space_handbook",
        json={"title": "Handbook", "visibility": "public", "emoji": "1f4d8", "icon": None},
    )
    assert space.status_code == 200, space.text  # {emoji, icon: null} is production's Emoji
    assert space.json()["title"] == "Handbook" and space.json()["visibility"] == "private"
    team = client.put("/v1/orgs/org_acme/teams", json={"title": "Core", "owner": "u_ada"})
    assert team.status_code == 201 and "owner" not in team.json()
    both = client.patch(
        "/v1/spaces/space_handbook", json={"emoji": "1f4d8", "icon": "https://acme.example/i.png"}
    )
    assert both.status_code == 400  # both options of production's oneOf: neither


def test_an_object_production_closes_refuses_a_field_it_does_not_name(
    emulator: EmulatorHandle,
) -> None:
    client = emulator.client()
    site = client.post("/v1/orgs/org_acme/sites", json={"title": "Docs"}).json()["id"]
    schema = {
        "type": "object",
        "properties": {"beta": {"type": "boolean", "description": "Beta tester"}},
        "additionalProperties": False,
        "title": "Visitor",  # SiteAdaptiveJSONSchema says additionalProperties: false
    }
    refused = client.put(
        f"/v1/orgs/org_acme/sites/{site}/adaptive-schema", json={"jsonSchema": schema}
    )
    assert refused.status_code == 400
    assert refused.json()["error"]["message"].startswith("jsonSchema.title: unknown field")

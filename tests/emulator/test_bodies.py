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

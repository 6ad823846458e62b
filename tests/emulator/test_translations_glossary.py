"""The organization's translations glossary (production's, in both contract modes): entries
listed, read, and written in one batch of inserts, updates and deletes, all or nothing."""

from __future__ import annotations

import pytest

from tests.emulator_harness import EmulatorHandle

GLOSSARY = "/v1/orgs/org_acme/translations-glossary"


@pytest.fixture
def emulator_of(either_contract: EmulatorHandle) -> EmulatorHandle:
    return either_contract


def _entries(emulator: EmulatorHandle, **params: str) -> list[dict[str, str]]:
    listed = emulator.client().get(GLOSSARY, params=params)
    assert listed.status_code == 200, listed.text
    return [item["translations"] for item in listed.json()["items"]]


def test_a_batch_inserts_updates_and_deletes_in_order(emulator_of: EmulatorHandle) -> None:
    client = emulator_of.client()
    inserts = [
        {"type": "insert", "translations": {"en": "Workspace", "fr": "Espace"}},
        {"type": "insert", "translations": {"en": "Billing", "fr": "Facturation"}},
        {"type": "insert", "translations": {"en": "Account"}},
    ]
    assert client.put(GLOSSARY, json={"operations": inserts}).status_code == 204
    assert _entries(emulator_of, orderBy="fr") == [
        {"en": "Workspace", "fr": "Espace"},
        {"en": "Billing", "fr": "Facturation"},
        {"en": "Account"},  # no French term: last
    ]
    ids = [item["id"] for item in client.get(GLOSSARY).json()["items"]]
    entry = client.get(f"{GLOSSARY}/{ids[0]}").json()
    assert entry["object"] == "glossary-entry" and entry["translations"]["en"] == "Workspace"
    batch = [
        {"type": "update", "id": ids[0], "translations": {"en": "Space", "de": "Bereich"}},
        {"type": "delete", "id": ids[1]},
        {"type": "delete", "id": "gone-already"},  # a retried delete is done
    ]
    assert client.put(GLOSSARY, json={"operations": batch}).status_code == 204
    assert _entries(emulator_of) == [{"en": "Space", "de": "Bereich"}, {"en": "Account"}]
    assert client.get(f"{GLOSSARY}/{ids[1]}").status_code == 404


def test_a_refused_operation_refuses_the_batch(emulator_of: EmulatorHandle) -> None:
    client = emulator_of.client()
    first = {"type": "insert", "translations": {"en": "Kept?"}}
    for operation, status, says in (
        ({"type": "update", "id": "nope", "translations": {}}, 404, "operations[1].id"),
        ({"type": "insert", "translations": {"en": "two\nlines"}}, 400, "operations[1]"),
        ({"type": "upsert", "translations": {}}, 400, "operations[1]"),
    ):
        refused = client.put(GLOSSARY, json={"operations": [first, operation]})
        assert refused.status_code == status, refused.text
        assert refused.json()["error"]["message"].startswith(says)
    assert client.put(GLOSSARY, json={}).status_code == 400
    assert _entries(emulator_of) == []
    denied = emulator_of.client("tok_sam").put(GLOSSARY, json={"operations": [first]})
    assert denied.status_code == 403
    assert emulator_of.client("tok_sam").get(GLOSSARY).status_code == 200

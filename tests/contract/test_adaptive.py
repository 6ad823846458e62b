"""docsync's offline adaptive-schema check, production's schema and the emulator agree.

Each sample is checked three ways: `check_adaptive_schema` (what `docsync validate` says),
production's `SiteAdaptiveJSONSchema`, and the emulator's `PUT .../adaptive-schema`. All three
must accept it or all three refuse it; docsync's refusal names the offending claim.
"""

from __future__ import annotations

from typing import Any

import pytest

from docsync.kinds.sites.adaptive_schema import UNSIGNED_DESCRIPTION, check_adaptive_schema
from tests.contract.checker import Contract
from tests.contract.document import require_spec
from tests.emulator_harness import EmulatorHandle

DRAFT = "http://json-schema.org/draft-07/schema#"


def root(**claims: Any) -> dict[str, Any]:
    return {"type": "object", "properties": claims, "additionalProperties": False}


def unsigned(**claims: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "description": UNSIGNED_DESCRIPTION,
        "properties": claims,
        "additionalProperties": False,
    }


BOOL = {"type": "boolean", "description": "Beta tester"}
OBJ = {
    "type": "object",
    "description": "Org",
    "properties": {"partner": BOOL},
    "additionalProperties": False,
}
# name -> (schema, None when accepted / the path docsync must name when refused)
CASES: dict[str, tuple[dict[str, Any], str | None]] = {
    "claims of every kind": (
        {
            "$schema": DRAFT,
            **root(
                beta=BOOL,
                plan={"type": "string", "description": "Plan", "enum": ["free", "pro"]},
                name={"type": "string", "description": "Name"},
                seats={"type": "number", "description": "Seats"},
                tags={"type": "array", "description": "Tags", "items": {**BOOL}},
                org=OBJ,
                unsigned=unsigned(preview=BOOL, lang={"type": "string", "description": "L"}),
            ),
        },
        None,
    ),
    "empty description": (root(beta={"type": "boolean", "description": ""}), None),
    "no description": (root(beta={"type": "boolean"}), "properties.beta.description"),
    "unsigned description": (
        root(unsigned={**unsigned(preview=BOOL), "description": "Unsigned claims"}),
        "properties.unsigned.description",
    ),
    "integer claim": (
        root(age={"type": "integer", "description": "Age"}),
        "properties.age.type",
    ),
    "array item without description": (
        root(tags={"type": "array", "description": "Tags", "items": {"type": "string"}}),
        "properties.tags.items.description",
    ),
    "array of objects": (
        root(tags={"type": "array", "description": "Tags", "items": OBJ}),
        "properties.tags.items.type",
    ),
    "open object": (
        root(org={**OBJ, "additionalProperties": True}),
        "properties.org.additionalProperties",
    ),
    "open root": ({**root(beta=BOOL), "additionalProperties": True}, "additionalProperties"),
    "$id at the root": ({**root(beta=BOOL), "$id": "https://x.example/s"}, "$id"),
    "draft without #": ({**root(beta=BOOL), "$schema": DRAFT[:-1]}, "$schema"),
    "extra key on a claim": (
        root(beta={**BOOL, "default": True}),
        "properties.beta.default",
    ),
    "enum of numbers": (
        root(plan={"type": "string", "description": "Plan", "enum": [1, 2]}),
        "properties.plan.enum",
    ),
}


@pytest.fixture(scope="module")
def contract() -> Contract:
    return Contract(require_spec())


@pytest.mark.parametrize("name", CASES)
def test_docsync_and_production_agree(contract: Contract, name: str) -> None:
    schema, refused_at = CASES[name]
    production = contract._validate("/components/schemas/SiteAdaptiveJSONSchema", schema)
    ours = check_adaptive_schema(schema, ())
    assert (not production) == (refused_at is None), (
        f"{name}: production {'accepts' if not production else 'refuses'} it: "
        + "; ".join(e.message[:120] for e in production)
    )
    assert (not ours) == (refused_at is None), f"{name}: docsync says {ours}"
    if refused_at is not None:
        assert refused_at in {".".join(map(str, path)) for path, _ in ours}, ours


def test_the_emulator_agrees(contract: Contract, emulator: EmulatorHandle) -> None:
    client = emulator.client()
    site = client.post("/v1/orgs/org_acme/sites", json={"title": "Docs"}).json()["id"]
    url = f"/v1/orgs/org_acme/sites/{site}/adaptive-schema"
    disagree = []
    for name, (schema, refused_at) in CASES.items():
        status = client.put(url, json={"jsonSchema": schema}).status_code
        if (status == 200) != (refused_at is None):
            disagree.append(f"{name}: {status}")
    assert not disagree, disagree

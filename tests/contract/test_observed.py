"""Production as it answers: each behaviour `observed.OBSERVED` describes is in docs/emulator.md's
table, and is needed: the production-mode emulator answers it, production's document as it is
refuses that answer, and the amended document takes it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import yaml

from tests.contract.checker import Contract
from tests.contract.document import require_spec
from tests.contract.observed import OBSERVED, as_production_answers
from tests.emulator_harness import SEED, EmulatorHandle

DOCS = Path(__file__).resolve().parents[2] / "docs" / "emulator.md"


def _table() -> set[str]:
    text = DOCS.read_text("utf-8")
    section = text.split("## Production as it answers", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z0-9-]+)` \|", section, flags=re.M))


def test_every_amendment_is_a_row_of_the_documented_table() -> None:
    assert {o.id for o in OBSERVED} <= _table()


def _legacy(emulator: EmulatorHandle) -> tuple[str, str, Any]:
    seed: dict[str, Any] = yaml.safe_load(Path(SEED).read_text("utf-8"))
    seed["spaces"].append(
        {
            "id": "space_api",
            "organization": "org_acme",
            "title": "API v3",
            "gitSync": {"installationProvider": "github", "integration": "github"},
        }
    )
    emulator.reset(seed)
    with emulator.client() as client:
        return "GET", "/v1/spaces/space_api", client.get("/v1/spaces/space_api").content


def _switches(emulator: EmulatorHandle) -> tuple[str, str, Any]:
    path = "/v1/orgs/org_acme/sites"
    with emulator.client() as client:
        site = client.post(path, json={"title": "Docs"}).json()
        where = f"{path}/{site['id']}/customization"
        return "GET", where, client.get(where).content


def _location(emulator: EmulatorHandle) -> tuple[str, str, Any]:
    with emulator.client() as client:
        return "GET", "/v1/spaces/space_handbook", client.get("/v1/spaces/space_handbook").content


ANSWERED = {
    "legacy-git-sync": _legacy,
    "customization-switches": _switches,
    "relative-location": _location,
}


def test_a_relative_location_is_refused_where_formats_are_asserted(
    production: EmulatorHandle,
) -> None:
    """The contract fuzzer asserts formats (schemathesis, through jsonschema_rs), which the
    suite's checker does not: the location production answers is no `uri` to its document,
    and is one to the amended document."""
    _, _, body = _location(production)
    location = json.loads(body)["urls"]["location"]
    pointer = ("components", "schemas", "Space", "properties", "urls", "properties", "location")

    def refused(spec: dict[str, Any]) -> bool:
        schema: Any = spec
        for part in pointer:
            schema = schema[part]
        checker = jsonschema_rs.Draft202012Validator(schema, validate_formats=True)
        return not checker.is_valid(location)

    assert location == "/spaces/space_handbook"
    assert refused(require_spec()) and not refused(as_production_answers(require_spec()))


@pytest.mark.parametrize(
    "observed", [o for o in OBSERVED if o.id != "relative-location"], ids=lambda o: o.id
)
def test_each_amendment_is_what_the_emulator_answers_and_the_document_refuses(
    production: EmulatorHandle, observed: Any
) -> None:
    method, path, body = ANSWERED[observed.id](production)
    spec = require_spec()
    as_documented = Contract(spec, strict=True).check_answer(method, path, 200, body)
    as_answered = Contract(as_production_answers(spec), strict=True).check_answer(
        method, path, 200, body
    )
    assert as_documented, f"{observed.id}: the document takes the answer: no amendment needed"
    assert as_answered == [], as_answered

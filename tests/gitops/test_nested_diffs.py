"""Golden text, Markdown and JSON plans of updates inside maps, lists and JSON values: only the
changed elements are shown, each at its path, while the JSON plan keeps the whole values too.

The live state is nested-before.yaml applied to the seeded emulator; the plan is
nested-after.yaml's (regenerate with DOCSYNC_UPDATE_GOLDEN=1 and review the diff)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.gitops.conftest import MANIFESTS, check_golden, invoke, reset

FORMATS = {"text": "nested.txt", "markdown": "nested.md", "json": "nested.json"}


@pytest.fixture(scope="module")
def outputs(emulator_server: EmulatorHandle) -> Iterator[dict[str, str]]:
    reset(emulator_server)
    applied = invoke(emulator_server, "apply", MANIFESTS / "nested-before.yaml", "--auto-approve")
    assert applied.exit_code == 0, applied.output
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(MANIFESTS)
        found = {}
        for name in FORMATS:
            result = invoke(emulator_server, "plan", "nested-after.yaml", "--format", name)
            assert result.exit_code == 0, result.output
            found[name] = result.stdout
    yield found


@pytest.mark.parametrize("output_format", sorted(FORMATS))
def test_golden(outputs: dict[str, str], output_format: str) -> None:
    check_golden(FORMATS[output_format], outputs[output_format])


@pytest.mark.parametrize("output_format", ["text", "markdown"])
def test_only_the_changed_elements_are_shown(outputs: dict[str, str], output_format: str) -> None:
    text = outputs[output_format]
    assert '+ members["lin@acme.example"]: (absent) -> "owner"' in text
    assert '~ adaptiveSchema.properties.isBeta.description: "Beta" -> "Beta testers"' in text
    assert '- emailDomains[1]: "acme.test" -> (absent)' in text
    # Neither whole value, nor an element that stays.
    assert "paying customer" not in text and '"ada@acme.example"' not in text
    assert "Plan: 0 to create, 3 to update, 0 to delete" in text


def test_the_json_plan_keeps_whole_values_and_adds_the_elements(outputs: dict[str, str]) -> None:
    document = json.loads(outputs["json"])
    changes = {c["field"]: c for a in document["actions"] for c in a["changes"]}
    members = changes["members"]
    assert members["before"] == {"ada@acme.example": "member"}
    assert members["after"] == {"ada@acme.example": "member", "lin@acme.example": "owner"}
    assert members["elements"] == [
        {"path": 'members["lin@acme.example"]', "op": "add", "before": None, "after": "owner"}
    ]
    schema = changes["adaptiveSchema"]
    assert schema["before"]["properties"]["customer"]  # whole
    assert schema["elements"] == [
        {
            "path": "adaptiveSchema.properties.isBeta.description",
            "op": "change",
            "before": "Beta",
            "after": "Beta testers",
        }
    ]
    assert changes["emailDomains"]["elements"] == [
        {"path": "emailDomains[1]", "op": "remove", "before": "acme.test", "after": None}
    ]
    assert document["summary"]["text"] == "0 to create, 3 to update, 0 to delete"

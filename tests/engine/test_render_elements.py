"""docsync.render.elements: only the changed elements of maps, lists and JSON values, each at its
path; and how the three renderings show them (never a sensitive value, at any depth)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from docsync.core.model import Action, FieldChange, Plan
from docsync.render.elements import ABSENT, Element, diff_elements, element_changes
from docsync.render.json import render_json
from docsync.render.markdown import render_markdown
from docsync.render.text import render_plan

SECRET = "MIIC-nested-secret-value"

CASES: list[tuple[str, Any, Any, list[Element]]] = [
    ("equal values", {"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}, []),
    (
        "a map key added",
        {"ada@acme.example": "member"},
        {"ada@acme.example": "member", "lin@acme.example": "owner"},
        [Element('f["lin@acme.example"]', ABSENT, "owner")],
    ),
    ("a map key removed", {"a": 1, "b": 2}, {"a": 1}, [Element("f.b", 2, ABSENT)]),
    ("a null value is not an absent one", {"a": None}, {}, [Element("f.a", None, ABSENT)]),
    ("a value changed", {"a": "x"}, {"a": "y"}, [Element("f.a", "x", "y")]),
    (
        "keys in sorted order",
        {"b": 1, "a": 1},
        {"b": 2, "a": 2},
        [Element("f.a", 1, 2), Element("f.b", 1, 2)],
    ),
    (
        "deep in a JSON value",
        {"properties": {"isBeta": {"type": "boolean", "description": "Beta"}}},
        {"properties": {"isBeta": {"type": "boolean", "description": "Beta testers"}}},
        [Element("f.properties.isBeta.description", "Beta", "Beta testers")],
    ),
    (
        "a key that is not a name is quoted",
        {'say "hi"': 1, "a.b": 1},
        {'say "hi"': 2, "a.b": 2},
        [Element('f["a.b"]', 1, 2), Element('f["say \\"hi\\""]', 1, 2)],
    ),
    (
        "list scalars: removed and added",
        ["a", "b", "c"],
        ["a", "c", "d"],
        [Element("f[1]", "b", ABSENT), Element("f[2]", ABSENT, "d")],
    ),
    (
        "a list scalar replaced is removed and added",
        ["a", "b"],
        ["a", "z"],
        [Element("f[1]", "b", ABSENT), Element("f[1]", ABSENT, "z")],
    ),
    (
        "a boolean is not a number",
        [True],
        [1],
        [Element("f[0]", True, ABSENT), Element("f[0]", ABSENT, 1)],
    ),
    (
        "list objects by natural key",
        [{"source": "/a", "permanent": True}, {"source": "/b"}, {"source": "/c"}],
        [{"source": "/b"}, {"source": "/a", "permanent": False}, {"source": "/d"}],
        [
            Element('f[source="/a"].permanent', True, False),
            Element('f[source="/c"]', {"source": "/c"}, ABSENT),
            Element('f[source="/d"]', ABSENT, {"source": "/d"}),
        ],
    ),
    (
        "list objects without a key, by position",
        [{"x": 1}, {"x": 2}],
        [{"x": 1}, {"x": 3}, {"x": 4}],
        [Element("f[1].x", 2, 3), Element("f[2]", ABSENT, {"x": 4})],
    ),
    (
        "a duplicated natural key is no key",
        [{"title": "A", "n": 1}, {"title": "A", "n": 2}],
        [{"title": "A", "n": 1}, {"title": "A", "n": 3}],
        [Element("f[1].n", 2, 3)],
    ),
    ("a map that becomes a list", {"a": {"b": 1}}, {"a": [1]}, [Element("f.a", {"b": 1}, [1])]),
]


@pytest.mark.parametrize(
    ("before", "after", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_diff_elements(before: Any, after: Any, expected: list[Element]) -> None:
    assert diff_elements(before, after, "f") == expected


@pytest.mark.parametrize(
    ("verb", "change", "element_wise"),
    [
        ("update", FieldChange("members", {"a": "member"}, {"a": "owner"}), True),
        ("update", FieldChange("domains", ["a"], []), True),
        ("replace", FieldChange("source", {"url": "a"}, {"url": "b"}), True),
        ("create", FieldChange("members", None, {"a": "member"}), False),
        ("delete", FieldChange("members", {"a": "member"}, None), False),
        ("update", FieldChange("title", "a", "b"), False),
        ("update", FieldChange("source", None, {"url": "b"}), False),
        ("update", FieldChange("source", {"url": "a"}, ["b"]), False),
        ("update", FieldChange("source", {"url": "a"}, {"url": "b"}, sensitive=True), False),
    ],
)
def test_only_updates_of_maps_and_lists_are_element_wise(
    verb: str, change: FieldChange, element_wise: bool
) -> None:
    assert (element_changes(change, verb) is not None) == element_wise


def _plan(*changes: FieldChange) -> Plan:
    return Plan("org_acme", [Action("update", "openapi", 'openapi["api"]', list(changes))])


def _all(plan: Plan) -> dict[str, str]:
    return {
        "text": render_plan(plan),
        "markdown": render_markdown(plan),
        "json": render_json(plan),
    }


def test_a_sensitive_map_shows_no_element_in_any_rendering() -> None:
    before = {"url": "https://a.example", "headers": {"token": SECRET + "-old"}}
    after = {"url": "https://a.example", "headers": {"token": SECRET}}
    plan = _plan(FieldChange("source", before, after, sensitive=True))
    outputs = _all(plan)
    for text in outputs.values():
        assert SECRET not in text and "headers" not in text and "token" not in text
    assert "~ source = (sensitive) (changed)" in outputs["text"]
    (change,) = json.loads(outputs["json"])["actions"][0]["changes"]
    assert change["elements"] is None


def test_reference_elements_render_as_addresses() -> None:
    plan = _plan(
        FieldChange(
            "sections",
            ['site["D"].section["A"]'],
            ['site["D"].section["A"]', 'site["D"].section["B"]'],
            reference=True,
        )
    )
    assert '      + sections[1]: (absent) -> site["D"].section["B"]\n' in render_plan(plan)


def test_whole_fields_stay_aligned_beside_element_lines() -> None:
    plan = _plan(
        FieldChange("title", "a", "b"),
        FieldChange("a_long_field_name", {"k": 1}, {"k": 2}),
    )
    assert '      ~ title = "a" -> "b"\n      ~ a_long_field_name.k: 1 -> 2\n' in render_plan(plan)


def test_summary_counts_agree_across_renderings() -> None:
    verbs = ["create", "create", "update", "reorder", "publish"]
    plan = Plan("org_acme", [Action(v, "site", f'site["{i}"]') for i, v in enumerate(verbs)])  # type: ignore[arg-type]
    line = "2 to create, 1 to update, 1 to reorder, 1 to publish, 0 to delete"
    assert plan.summary() == line
    outputs = _all(plan)
    assert f"Plan: {line}." in outputs["text"]
    assert f"**Plan: {line}**" in outputs["markdown"]
    summary = json.loads(outputs["json"])["summary"]
    assert summary["text"] == line
    assert (summary["create"], summary["update"], summary["reorder"], summary["publish"]) == (
        2,
        1,
        1,
        1,
    )
    assert "| site | 2 | 1 | 1 | 1 |" in outputs["markdown"]

"""Site structure and sort over real HTTP, adaptive schema, and path properties (hypothesis)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.emulator.site_tree import slugify, unique_path
from tests.depth import examples
from tests.emulator.test_sites_kit import SitesKit
from tests.emulator_harness import EmulatorHandle


def _sort(kit: SitesKit, site: str, item: tuple[str, str], side: str, anchor: Any) -> Any:
    body: dict[str, Any] = {"item": {"type": item[0], "id": item[1]}}
    if anchor is not None:
        body["position"] = {side: {"type": anchor[0], "id": anchor[1]}}
    return kit.client.patch(kit.url(site, "structure", "sort"), json=body)


def _tree(kit: SitesKit) -> tuple[str, dict[str, str]]:
    """A site: sections AA, BB at the root, group GG with CC, DD; ids by title."""
    site: str = kit.create_site(title="Docs")["id"]
    ids = {
        "AA": kit.add_section(site, "space_guides", title="AA")["id"],
        "BB": kit.add_section(site, "space_api", title="BB")["id"],
    }
    ids["GG"] = kit.add_group(site, "GG")["id"]
    for title, space in (("CC", "space_notes"), ("DD", "space_faq")):
        ids[title] = kit.add_section(site, space, title=title, siteSectionGroupId=ids["GG"])["id"]
    return site, ids


def test_sort_root_items_and_group_sections(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site, ids = _tree(kit)
    sec, grp = "site-section", "site-section-group"
    moved = kit.ok(_sort(kit, site, (grp, ids["GG"]), "before", (sec, ids["AA"])))
    assert moved["object"] == grp and moved["id"] == ids["GG"]
    kit.ok(_sort(kit, site, (sec, ids["DD"]), "before", (sec, ids["CC"])))
    kit.ok(_sort(kit, site, (sec, ids["AA"]), "after", (sec, ids["BB"])))
    expected = [
        ["group:GG", [["DD", ["faq*"]], ["CC", ["old-notes*"]]]],
        ["BB", ["api-reference*"]],
        ["AA*", ["guides*"]],
    ]
    assert kit.outline(site) == expected
    listed = kit.ok(kit.client.get(kit.url(site, "sections")))["items"]
    assert [s["title"] for s in listed] == ["DD", "CC", "BB", "AA"]
    published = kit.ok(kit.client.get(kit.url(site, "published")))["structure"]
    assert published == kit.structure(site)
    kit.ok(_sort(kit, site, (sec, ids["BB"]), "after", None))  # no position: last of its level
    assert [item[0] for item in kit.outline(site)] == ["group:GG", "AA*", "BB"]


def test_sort_site_spaces_within_a_section(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    section = kit.add_section(site, "space_guides")["id"]
    api = kit.add_site_space(site, "space_api")["id"]
    notes = kit.add_site_space(site, "space_notes")["id"]
    moved = kit.ok(_sort(kit, site, ("site-space", notes), "before", ("site-space", api)))
    assert moved["object"] == "site-space" and moved["section"] == section
    assert kit.outline(site) == [["Guides*", ["guides*", "old-notes", "api-reference"]]]
    assert [r["id"] for r in kit.site_spaces(site)][1:] == [notes, api]


def test_sort_refusals(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site, ids = _tree(kit)
    other = kit.add_section(site, "space_x", title="EE")
    ss_a = kit.structure(site)["structure"][0]["siteSpaces"][0]["id"]
    ss_e = other["siteSpaces"][0]["id"]
    sec = "site-section"
    cases: list[tuple[Any, str, Any, int]] = [
        ((sec, ids["CC"]), "before", (sec, ids["AA"]), 400),  # in a group vs at the root
        ((sec, ids["AA"]), "after", (sec, ids["AA"]), 400),  # itself
        ((sec, ids["AA"]), "after", ("site-space", ss_a), 400),  # another level
        (("site-space", ss_a), "before", ("site-space", ss_e), 400),  # another section
        ((sec, "nope"), "before", (sec, ids["AA"]), 404),
        ((sec, ids["AA"]), "before", (sec, "nope"), 400),  # production: 400 for an anchor
        (("site-external-link", "x"), "before", (sec, ids["AA"]), 404),
        (("site-page", "x"), "before", (sec, ids["AA"]), 400),
    ]
    before = kit.structure(site)
    for item, side, anchor, status in cases:
        response = _sort(kit, site, item, side, anchor)
        assert response.status_code == status, (item, anchor, response.text)
    assert kit.structure(site) == before
    url = kit.url(site, "structure", "sort")
    item = {"type": sec, "id": ids["AA"]}
    for body in ({}, {"item": item, "position": "first"}):
        assert kit.client.patch(url, json=body).status_code == 400, body
    # production's position has no required side: {} moves the item to the end of its level
    kit.ok(kit.client.patch(url, json={"item": item, "position": {}}))
    assert [entry[0] for entry in kit.outline(site)] == ["BB", "group:GG", "EE", "AA*"]
    minimal = kit.client.patch(
        url,
        json={"item": item, "position": {"after": {"type": sec, "id": ids["BB"]}}},
        headers={"Prefer": "return=minimal"},
    )
    assert minimal.status_code == 204
    assert kit.client.patch(kit.url("nope", "structure", "sort"), json={}).status_code == 404


@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(st.tuples(st.integers(0, 3), st.booleans(), st.integers(0, 3)), max_size=6))
def test_sort_matches_a_list_model(emulator: EmulatorHandle, moves: list[Any]) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    model = [
        kit.add_section(site, space)["id"]
        for space in ("space_guides", "space_api", "space_notes", "space_faq")
    ]
    for item_index, before, anchor_index in moves:
        item, anchor = model[item_index], model[anchor_index]
        response = _sort(
            kit,
            site,
            ("site-section", item),
            "before" if before else "after",
            ("site-section", anchor),
        )
        if item == anchor:
            assert response.status_code == 400
            continue
        kit.ok(response)
        model.remove(item)
        model.insert(model.index(anchor) + (0 if before else 1), item)
    assert [s["id"] for s in kit.structure(site)["structure"]] == model


@given(st.text(max_size=300), st.lists(st.text(max_size=120), max_size=5))
def test_paths_are_slugs_and_unique(title: str, taken: list[str]) -> None:
    slug = slugify(title, "section")
    assert slug and len(slug) <= 100
    assert all(c.isascii() and (c.isalnum() or c == "-") and not c.isupper() for c in slug)
    path = unique_path(slug, [*taken, slug])
    assert path not in taken and path != slug and len(path) <= 100


SCHEMA: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "beta": {"type": "boolean", "description": "Beta testers"},
        "plan": {"type": "string", "enum": ["free", "pro"], "description": "Plan"},
        "seats": {"type": "number", "description": "Seats"},
        "tags": {
            "type": "array",
            "description": "Tags",
            "items": {"type": "string", "description": "t"},
        },
        "org": {
            "type": "object",
            "description": "Company",
            "properties": {"partner": {"type": "boolean", "description": "Partner"}},
            "additionalProperties": False,
        },
        "unsigned": {
            "type": "object",
            "description": "Unsigned claims of the site visitor.",
            "properties": {"preview": {"type": "boolean", "description": "Preview"}},
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}


def test_adaptive_schema_and_template_conditions(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    url = kit.url(site, "adaptive-schema")
    missing = kit.client.get(url)
    assert missing.status_code == 404
    assert missing.json()["error"]["message"].startswith("No visitor attributes schema found")
    assert kit.ok(kit.client.get(f"{url}/template-conditions")) == {"items": []}
    stored = kit.ok(kit.client.put(url, json={"jsonSchema": SCHEMA}))
    assert stored["object"] == "site-adaptive-schema" and stored["jsonSchema"] == SCHEMA
    assert kit.ok(kit.client.get(url)) == stored
    conditions = kit.ok(kit.client.get(f"{url}/template-conditions"))["items"]
    assert conditions == [
        {"description": "Beta testers", "condition": "visitor.claims.beta"},
        {"description": "Partner", "condition": "visitor.claims.org.partner"},
        {"description": "Preview", "condition": "visitor.claims.unsigned.preview"},
    ]
    assert emulator.client("tok_sam").put(url, json={"jsonSchema": SCHEMA}).status_code == 403
    assert kit.client.get(kit.url("nope", "adaptive-schema")).status_code == 404


def _with(path: list[str], value: Any) -> dict[str, Any]:
    """A copy of SCHEMA with the value at `path` replaced (or removed when value is ...)."""
    import copy

    schema = copy.deepcopy(SCHEMA)
    node = schema
    for key in path[:-1]:
        node = node[key]
    if value is ...:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return schema


@pytest.mark.parametrize(
    ("schema", "field"),
    [
        (_with(["type"], "array"), "jsonSchema.type"),
        (_with(["additionalProperties"], True), "jsonSchema.additionalProperties"),
        (_with(["additionalProperties"], ...), "jsonSchema.additionalProperties"),
        (_with(["properties"], ...), "jsonSchema.properties"),
        (_with(["$schema"], "draft-04"), "jsonSchema.$schema"),
        (_with(["title"], "extra"), "jsonSchema.title"),
        (
            _with(["properties", "beta", "description"], ...),
            "jsonSchema.properties.beta.description",
        ),
        (_with(["properties", "beta", "type"], "date"), "jsonSchema.properties.beta.type"),
        (_with(["properties", "beta", "enum"], ["a"]), "jsonSchema.properties.beta.enum"),
        (
            _with(["properties", "tags", "items"], {"type": "object"}),
            "jsonSchema.properties.tags.items.type",
        ),
        (_with(["properties", "org", "additionalProperties"], True), "jsonSchema.properties.org."),
        (
            _with(["properties", "unsigned", "description"], "Mine"),
            "jsonSchema.properties.unsigned.description",
        ),
        (_with(["properties", "seats"], "number"), "jsonSchema.properties.seats"),
        ("not a schema", "jsonSchema"),
    ],
)
def test_adaptive_schema_shape_is_checked(
    emulator: EmulatorHandle, schema: Any, field: str
) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    response = kit.client.put(kit.url(site, "adaptive-schema"), json={"jsonSchema": schema})
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith(field), response.text
    assert kit.client.get(kit.url(site, "adaptive-schema")).status_code == 404

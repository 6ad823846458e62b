"""What contract fuzzing from production's document found, held: the emulator takes what
production's schemas take (merge rules, both sides of a position, any text as a path) and refuses
what they refuse (ids outside EntityId, booleans that are not true/false, a foreign Prefer)."""

from __future__ import annotations

from typing import Any

from tests.emulator.test_sites_kit import SitesKit
from tests.emulator_harness import EmulatorHandle

ACME = "/v1/orgs/org_acme"


def _error(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    message: str = response.json()["error"]["message"]
    return message


def test_path_ids_outside_entity_id_name_nothing(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    # production types organization, team, space, collection and invite ids as ^[a-zA-Z0-9_-]+$
    for method, path, name, value in (
        ("DELETE", f"{ACME}/teams/%25", "teamId", "%"),
        ("GET", "/v1/spaces/a.b", "spaceId", "a.b"),
        ("GET", "/v1/orgs/org%20acme", "organizationId", "org acme"),
        ("DELETE", f"{ACME}/link-invites/%C2%84", "inviteId", "\x84"),
    ):
        message = _error(client.request(method, path), 400)
        assert message == f"{name}: must match ^[a-zA-Z0-9_-]+$; got {value!r}", path


def test_queries_take_what_production_declares(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    assert _error(client.get(f"{ACME}/collections", params={"nested": "1"}), 400).startswith(
        "nested: must be true or false"
    )
    assert client.get(f"{ACME}/collections", params={"nested": "FALSE"}).status_code == 200
    # `limit` is a number from 0 to 1000: a fraction is taken down to the integer below
    for i in range(3):
        client.put(f"{ACME}/teams", json={"title": f"Team {i}"})
    page = client.get(f"{ACME}/teams", params={"limit": "2.5"}).json()
    assert len(page["items"]) == 2 and "next" in page
    assert _error(client.get(f"{ACME}/teams", params={"limit": "nan"}), 400).startswith("limit:")


def test_prefer_is_one_of_productions_two(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    section = kit.add_section(site, "space_guides")["id"]
    url = kit.url(site, "sections", section)
    refused = kit.client.patch(url, json={"title": "Learn"}, headers={"Prefer": "minimal"})
    assert _error(refused, 400).startswith("prefer: must be one of return=minimal, return=")
    assert kit.structure(site)["structure"][0]["title"] != "Learn"  # nothing written
    full = {"Prefer": "return=representation"}
    assert kit.ok(kit.client.patch(url, json={"title": "Learn"}, headers=full))["title"] == "Learn"


def test_merge_rules_are_kept_and_answered(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    assert client.get(ACME).json()["mergeRules"] == {"type": "none"}
    rules = {
        "type": "rules",
        "rules": [
            {"rule": "require_specific_reviewers", "users": ["u_lin"]},
            {"rule": "require_at_least_one_review"},
            {"rule": "custom", "expression": "changeRequest.subject != ''"},
        ],
    }
    assert client.patch(ACME, json={"mergeRules": rules}).json()["mergeRules"] == rules
    bad = {"type": "rules", "rules": [{"rule": "require_specific_reviewers"}]}
    assert _error(client.patch(ACME, json={"mergeRules": bad}), 400).startswith(
        "mergeRules: must be {type: rules, rules} or {type: none} (mergeRules.rules[0]"
    )
    space = "/v1/spaces/space_handbook"
    assert client.get(space).json()["mergeRules"] == {"type": "inherit"}
    assert client.patch(space, json={"mergeRules": {"type": "none"}}).json()["mergeRules"] == {
        "type": "none"
    }
    assert _error(client.patch(space, json={"mergeRules": {"type": "all"}}), 400).startswith(
        "mergeRules: must be {type: inherit}"
    )


def test_an_emoji_or_an_icon_or_neither(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    space = "/v1/spaces/space_handbook"
    icon = "https://acme.example/icon.png"
    assert client.patch(space, json={"emoji": "📘"}).json()["emoji"] == "📘"
    assert client.patch(space, json={"emoji": None, "icon": None}).json()["emoji"] == ""
    assert client.patch(space, json={"icon": icon}).json()["urls"]["icon"] == icon
    # production's options are open: {emoji, icon: null} is its Emoji, both written are neither
    with_null = client.patch(space, json={"emoji": "📘", "icon": None}).json()
    assert with_null["emoji"] == "📘" and "icon" not in with_null["urls"]
    both = client.patch(space, json={"emoji": "📘", "icon": icon})
    assert "give an emoji or an icon, not both" in _error(both, 400)
    # a space shows one: an icon written takes its emoji's place, and an emoji its icon's
    iconed = client.patch(space, json={"icon": icon}).json()
    assert (iconed["emoji"], iconed["urls"]["icon"]) == ("", icon)
    emojied = client.patch(space, json={"emoji": "📙"}).json()
    assert emojied["emoji"] == "📙" and "icon" not in emojied["urls"]


def test_a_style_guide_is_a_style_guide_space_and_a_template_a_seeded_one(
    emulator: EmulatorHandle,
) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    assert kit.ok(kit.client.patch(kit.url(site), json={"styleguide": None}))["id"] == site
    missing = kit.client.patch(kit.url(site), json={"styleguide": "space_nope"})
    assert _error(missing, 404).startswith("styleguide: no space 'space_nope'")
    plain = kit.client.patch(kit.url(site), json={"styleguide": "space_guides"})
    assert _error(plain, 400).startswith("styleguide: space 'space_guides' is not a style guide")
    assert "styleguide" not in kit.ok(kit.client.get(kit.url(site)))
    template = {"spaceId": None, "template": {"id": "tpl_docs"}}
    refused = kit.client.post(kit.url(site, "sections"), json=template)
    assert _error(refused, 404).startswith("template.id: no space template 'tpl_docs'")
    assert kit.structure(site)["structure"] == []


def test_site_moves_take_both_sides_of_a_position(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    ids = [kit.add_section(site, space)["id"] for space in ("space_guides", "space_api")]
    last = kit.add_section(site, "space_faq")["id"]
    pointer = "siteSection"
    between = {
        "after": {"type": "site-section", pointer: ids[0]},
        "before": {"type": "site-section", pointer: ids[1]},
    }
    url = kit.url(site, "sections", last, "move")
    kit.ok(kit.client.post(url, json={"position": between}))
    assert [s["id"] for s in kit.structure(site)["structure"]] == [ids[0], last, ids[1]]
    kit.ok(kit.client.post(url, json={"position": {}}))  # {}: the end of the level
    assert [s["id"] for s in kit.structure(site)["structure"]] == [*ids, last]


def test_any_text_as_a_path_gives_a_published_url(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    kit.ok(kit.client.post(kit.url(site, "publish")))
    kit.ok(kit.client.patch(kit.url(site), json={"basename": "my docs"}))
    kit.add_site_space(site, "space_guides")
    second = kit.add_site_space(site, "space_api")["id"]
    url = kit.url(site, "site-spaces", second)
    patched = kit.ok(kit.client.patch(url, json={"path": "déjà vu/2"}))
    assert patched["path"] == "déjà vu/2"
    assert patched["urls"]["published"].endswith(
        "/published/org_acme/my%20docs/d%C3%A9j%C3%A0%20vu%2F2"
    )


def test_a_space_made_from_a_computed_source(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    spaces = f"{ACME}/spaces"
    client.post(f"{ACME}/openapi", json={"slug": "pets", "source": {"text": "openapi: 3.1.0"}})
    source = {
        "type": "builtin:openapi",
        "dependencies": {"spec": {"ref": {"kind": "openapi", "spec": "pets"}}},
        "props": {"models": True, "grouping": "by-operation"},
    }
    made = client.post(spaces, json={"title": "Pets API", "computedSource": source})
    assert made.status_code == 201 and made.json()["title"] == "Pets API"
    for body, status, says in (
        ({"computedSource": {**source, "props": {}}}, 400, "computedSource: must be a computed"),
        ({"computedSource": {**source, "type": "builtin:pdf"}}, 400, "computedSource: must be"),
        (
            {
                "computedSource": {
                    **source,
                    "dependencies": {"spec": {"ref": {"kind": "openapi", "spec": "x"}}},
                }
            },
            404,
            "computedSource.dependencies.spec.ref.spec: no OpenAPI spec 'x'",
        ),
        (
            {"computedSource": {"type": "integration:git:sync", "props": {"branch": "main"}}},
            404,
            "computedSource.type: no integration installed",
        ),
        ({"template": {"id": "tpl_api"}}, 404, "template.id: no space template 'tpl_api'"),
        ({"template": {"id": "t"}, "computedSource": source}, 400, "give a template or a computed"),
    ):
        assert says in _error(client.post(spaces, json=body), status), body


def test_an_external_links_icon_may_be_empty(emulator: EmulatorHandle) -> None:
    """Production's `Icon` is a string of at most 50 characters: an empty one is taken."""
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    kit.add_section(site, "space_guides")
    link = {"title": "Status", "url": "https://status.acme.example", "icon": ""}
    assert kit.client.post(kit.url(site, "external-links"), json=link).status_code == 201

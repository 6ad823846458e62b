"""Site sections and section groups over real HTTP: side effects, defaults, limits, moves."""

from __future__ import annotations

from typing import Any

import pytest

from tests.emulator.test_sites_kit import SitesKit
from tests.emulator_harness import EmulatorHandle


def _site(kit: SitesKit) -> str:
    site: str = kit.create_site(title="Docs")["id"]
    return site


def test_create_makes_its_site_space_and_the_first_is_default(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = _site(kit)
    response = kit.client.post(kit.url(site, "sections"), json={"spaceId": "space_guides"})
    guides = kit.ok(response, 201)
    assert response.headers["location"].endswith(f"/sections/{guides['id']}")
    assert guides["object"] == "site-section" and guides["default"] is True
    assert (guides["title"], guides["path"], guides["draft"]) == ("Guides", "guides", False)
    [first] = guides["siteSpaces"]
    assert first["space"]["id"] == "space_guides" and first["default"] is True
    assert first["section"] == guides["id"] and first["path"] == "guides"
    api = kit.add_section(site, "space_api", title="Guides", icon="book")
    assert (api["path"], api["default"], api["icon"]) == ("guides-2", False, "book")
    untitled = kit.add_section(site, "space_x")  # a one-letter space title is too short
    assert (untitled["title"], untitled["path"]) == ("Untitled section", "untitled-section")
    assert kit.outline(site) == [
        ["Guides*", ["guides*"]],
        ["Guides", ["api-reference*"]],
        ["Untitled section", ["x*"]],
    ]
    assert kit.ok(kit.client.get(kit.url(site)))["siteSpaces"] == 3


def test_a_group_and_root_site_spaces_exclude_each_other(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Flat", spaces=["space_guides"])["id"]
    refused = kit.client.post(kit.url(site, "section-groups"), json={"title": "Learn"})
    assert refused.status_code == 400  # sections are enabled by a section (an admin's)
    assert "either root site spaces or sections" in refused.json()["error"]["message"]
    assert kit.outline(site) == ["guides*"]


def test_create_refusals(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = _site(kit)
    url = kit.url(site, "sections")
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({}, 400, "spaceId: is required"),
        ({"spaceId": "nope"}, 404, "spaceId: no space"),
        ({"spaceId": "space_other"}, 404, "spaceId: no space"),
        ({"spaceId": "space_api", "title": "A"}, 400, "title: must be at least 2"),
        ({"spaceId": "space_api", "title": "x" * 129}, 400, "title: must be at most 128"),
        ({"spaceId": "space_api", "icon": "i" * 51}, 400, "icon: must be at most 50"),
        ({"spaceId": "space_api", "siteSectionGroupId": "nope"}, 404, "siteSectionGroupId"),
    ]
    for body, status, message in cases:
        response = kit.client.post(url, json=body)
        assert response.status_code == status, body
        assert response.json()["error"]["message"].startswith(message), response.text
    assert kit.ok(kit.client.get(url))["count"] == 0
    assert kit.client.post(kit.url("nope", "sections"), json={"spaceId": "x"}).status_code == 404


@pytest.mark.parametrize(
    ("field", "good", "bad"),
    [
        ("title", ["ab", "t" * 128], ["a", "t" * 129, None]),
        ("path", ["p", "p" * 100], ["", "p" * 101, None]),
        ("condition", ["", "c", "c" * 1024, None], ["c" * 1025, 3]),
        ("icon", ["i" * 50, None], ["i" * 51]),
        ("description", ["", "d" * 256, None], ["d" * 257]),
    ],
)
def test_patch_limits(
    emulator: EmulatorHandle, field: str, good: list[Any], bad: list[Any]
) -> None:
    kit = SitesKit(emulator)
    site = _site(kit)
    section = kit.add_section(site, "space_guides")["id"]
    url = kit.url(site, "sections", section)
    for value in good:
        patched = kit.ok(kit.client.patch(url, json={field: value}))
        assert patched.get(field) == value
    for value in bad:
        response = kit.client.patch(url, json={field: value})
        assert response.status_code == 400, (field, value)
        assert response.json()["error"]["message"].startswith(f"{field}: ")


def test_patch_condition_keeps_when_absent_and_path_clash(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = _site(kit)
    guides = kit.add_section(site, "space_guides")["id"]
    api = kit.add_section(site, "space_api", title="API")["id"]
    url = kit.url(site, "sections", guides)
    kit.ok(kit.client.patch(url, json={"condition": "visitor.claims.beta"}))
    kept = kit.ok(kit.client.patch(url, json={"title": "Handbook"}))
    assert kept["condition"] == "visitor.claims.beta" and kept["title"] == "Handbook"
    assert "condition" not in kit.ok(kit.client.patch(url, json={"condition": None}))
    clash = kit.client.patch(kit.url(site, "sections", api), json={"path": "guides"})
    assert clash.status_code == 409 and "already has path 'guides'" in clash.text
    assert kit.ok(kit.client.patch(url, json={"path": "guides"}))["path"] == "guides"
    assert kit.client.patch(kit.url(site, "sections", "nope"), json={}).status_code == 404


def test_default_section_and_default_site_space(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = _site(kit)
    guides = kit.add_section(site, "space_guides")
    api = kit.add_section(site, "space_api", title="API")
    notes = kit.add_site_space(site, "space_notes", api["id"])
    kit.ok(kit.client.patch(kit.url(site), json={"defaultSiteSection": api["id"]}))
    kit.ok(kit.client.patch(kit.url(site), json={"defaultSiteSpace": notes["id"]}))
    assert kit.outline(site) == [["Guides", ["guides*"]], ["API*", ["api-reference", "old-notes*"]]]
    wrong = kit.client.patch(
        kit.url(site), json={"defaultSiteSpace": guides["siteSpaces"][0]["id"]}
    )
    assert wrong.status_code == 400 and "not in the default section" in wrong.text
    first = api["siteSpaces"][0]["id"]
    kit.ok(kit.client.patch(kit.url(site, "sections", api["id"]), json={"defaultSiteSpace": first}))
    assert kit.outline(site)[1] == ["API*", ["api-reference*", "old-notes"]]
    other = kit.client.patch(
        kit.url(site, "sections", guides["id"]), json={"defaultSiteSpace": notes["id"]}
    )
    assert other.status_code == 400
    for body in ({"defaultSiteSection": "nope"}, {"defaultSiteSpace": "nope"}):
        assert kit.client.patch(kit.url(site), json=body).status_code == 404


def test_delete_cascades_and_promotes_the_next_default(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = _site(kit)
    guides = kit.add_section(site, "space_guides")
    kit.add_site_space(site, "space_notes", guides["id"])
    kit.add_section(site, "space_api", title="API")
    kit.add_section(site, "space_faq")
    url = kit.url(site, "sections", guides["id"])
    assert kit.client.delete(url).status_code == 205
    assert kit.client.delete(url).status_code == 204
    assert kit.outline(site) == [["API*", ["api-reference*"]], ["FAQ", ["faq*"]]]
    assert kit.ok(kit.client.get(kit.url(site)))["siteSpaces"] == 2
    assert [ss["path"] for ss in kit.site_spaces(site)] == ["api-reference", "faq"]


def test_groups_create_list_update(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = _site(kit)
    guides = kit.add_section(site, "space_guides")["id"]
    api = kit.add_section(site, "space_api", title="API")["id"]
    response = kit.client.post(
        kit.url(site, "section-groups"),
        json={"title": "L", "icon": "i" * 50, "sections": [api, guides]},
    )
    group = kit.ok(response, 201)
    assert response.headers["location"].endswith(f"/section-groups/{group['id']}")
    assert group["object"] == "site-section-group" and group["draft"] is False
    assert [s["id"] for s in group["sections"]] == [api, guides]
    assert group["children"] == group["sections"]
    assert all(s["sectionGroup"] == group["id"] for s in group["sections"])
    listed = kit.ok(kit.client.get(kit.url(site, "section-groups")))
    assert listed["count"] == 1 and listed["items"][0] == group
    url = kit.url(site, "section-groups", group["id"])
    patched = kit.ok(kit.client.patch(url, json={"title": "t" * 100, "icon": None}))
    assert patched["title"] == "t" * 100 and "icon" not in patched
    for body in ({"title": ""}, {"title": "t" * 101}, {"icon": "i" * 51}):
        assert kit.client.patch(url, json=body).status_code == 400, body
    ignored = kit.client.patch(url, json={"sections": []})  # not in production's PATCH body
    assert ignored.status_code == 200 and ignored.json()["sections"] == patched["sections"]
    bad_creates: list[tuple[dict[str, Any], int]] = [
        ({}, 400),
        ({"title": "t" * 101}, 400),
        ({"title": "G", "icon": "i" * 51}, 400),
        ({"title": "G", "sections": [api, api]}, 400),
        ({"title": "G", "sections": ["nope"]}, 404),
    ]
    for body, status in bad_creates:
        assert kit.client.post(kit.url(site, "section-groups"), json=body).status_code == status
    assert kit.client.patch(kit.url(site, "section-groups", "nope"), json={}).status_code == 404


def test_group_membership_and_delete_restores_the_root(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = _site(kit)
    a = kit.add_section(site, "space_guides", title="AA")["id"]
    b = kit.add_section(site, "space_api", title="BB")["id"]
    c = kit.add_section(site, "space_notes", title="CC")["id"]
    group = kit.add_group(site, "G", [b])["id"]
    d = kit.add_section(site, "space_faq", title="DD", siteSectionGroupId=group)["id"]
    members = kit.url(site, "section-groups", group, "sections")
    added = kit.ok(kit.client.post(members, json={"sectionId": a}), 201)
    assert [s["title"] for s in added["sections"]] == ["BB", "DD", "AA"]
    assert kit.client.post(members, json={"sectionId": "nope"}).status_code == 404
    assert [item[0] for item in kit.outline(site)] == ["CC", "group:G"]
    assert kit.client.delete(f"{members}/{d}").status_code == 205
    assert kit.client.delete(f"{members}/{d}").status_code == 204
    assert [item[0] for item in kit.outline(site)] == ["CC", "group:G", "DD"]
    kit.ok(kit.client.patch(kit.url(site, "sections", c), json={"siteSectionGroupId": group}))
    kit.ok(kit.client.patch(kit.url(site, "sections", b), json={"siteSectionGroupId": None}))
    assert kit.outline(site)[:3] == [
        ["group:G", [["AA*", ["guides*"]], ["CC", ["old-notes*"]]]],
        ["BB", ["api-reference*"]],
        ["DD", ["faq*"]],
    ]
    url = kit.url(site, "section-groups", group)
    assert kit.client.delete(url).status_code == 205
    assert kit.client.delete(url).status_code == 204
    assert [item[0] for item in kit.outline(site)] == ["AA*", "CC", "BB", "DD"]
    assert kit.ok(kit.client.get(kit.url(site, "section-groups")))["count"] == 0


def test_deprecated_moves_of_sections_and_groups(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = _site(kit)
    a = kit.add_section(site, "space_guides", title="AA")["id"]
    b = kit.add_section(site, "space_api", title="BB")["id"]
    c = kit.add_section(site, "space_notes", title="CC")["id"]
    group = kit.add_group(site, "G")["id"]
    before_a = {"position": {"before": {"type": "site-section", "siteSection": a}}}
    moved = kit.ok(kit.client.post(kit.url(site, "sections", c, "move"), json=before_a))
    assert moved["id"] == c
    assert [item[0] for item in kit.outline(site)] == ["CC", "AA*", "BB", "group:G"]
    assert kit.ok(kit.client.post(kit.url(site, "sections", c, "move")))["id"] == c  # to the end
    after_a = {"position": {"after": {"type": "site-section", "id": a}}}
    kit.ok(kit.client.post(kit.url(site, "section-groups", group, "move"), json=after_a))
    assert [item[0] for item in kit.outline(site)] == ["AA*", "group:G", "BB", "CC"]
    bad = {"position": {"before": {"type": "site-section", "siteSection": "nope"}}}
    assert kit.client.post(kit.url(site, "sections", a, "move"), json=bad).status_code == 404
    both = {"position": {"before": before_a["position"]["before"], "after": after_a}}
    assert kit.client.post(kit.url(site, "sections", b, "move"), json=both).status_code == 400
    assert kit.client.post(kit.url(site, "sections", "nope", "move")).status_code == 404

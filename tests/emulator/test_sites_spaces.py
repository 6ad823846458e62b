"""Site spaces over real HTTP: where they go, paths, defaults, limits, pagination, moves."""

from __future__ import annotations

from typing import Any

import pytest

from tests.emulator.test_sites_kit import SPACES, SitesKit
from tests.emulator_harness import EmulatorHandle


def test_placement_paths_and_embedded_space(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    flat = kit.create_site(title="Flat")["id"]
    response = kit.client.post(kit.url(flat, "site-spaces"), json={"spaceId": "space_guides"})
    first = kit.ok(response, 201)
    assert response.headers["location"].endswith(f"/site-spaces/{first['id']}")
    assert first["object"] == "site-space" and "section" not in first
    assert (first["path"], first["title"], first["default"], first["draft"]) == (
        "guides",
        "Guides",
        True,
        False,
    )
    space = first["space"]
    assert space["object"] == "space" and space["id"] == "space_guides"
    assert {"title", "urls", "permissions", "organization", "revision"} <= set(space)
    again = kit.add_site_space(flat, "space_guides")
    assert (again["path"], again["default"]) == ("guides-2", False)

    site = kit.create_site(title="Sectioned")["id"]
    guides = kit.add_section(site, "space_guides")["id"]
    api = kit.add_section(site, "space_api", title="API")["id"]
    to_default = kit.add_site_space(site, "space_guides")
    assert (to_default["section"], to_default["path"]) == (guides, "guides-2")
    to_api = kit.add_site_space(site, "space_guides", api)
    assert (to_api["section"], to_api["path"]) == (api, "guides")  # paths are per level
    assert kit.outline(site) == [
        ["Guides*", ["guides*", "guides-2"]],
        ["API", ["api-reference*", "guides"]],
    ]


def test_add_refusals(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    url = kit.url(site, "site-spaces")
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({}, 400, "spaceId: is required"),
        ({"spaceId": "nope"}, 404, "spaceId: no space"),
        ({"spaceId": "space_other"}, 404, "spaceId: no space"),
        ({"spaceId": "space_api", "sectionId": "nope"}, 404, "sectionId: no section"),
    ]
    for body, status, message in cases:
        response = kit.client.post(url, json=body)
        assert response.status_code == status, body
        assert response.json()["error"]["message"].startswith(message), response.text
    assert kit.site_spaces(site) == []


@pytest.mark.parametrize(
    ("field", "good", "bad"),
    [
        ("path", ["p", "p" * 100], ["", "p" * 101, None, 5]),
        ("condition", ["", "c", "c" * 1024, None], ["c" * 1025, True]),
        ("spaceId", ["space_api"], ["", None]),
    ],
)
def test_patch_limits(
    emulator: EmulatorHandle, field: str, good: list[Any], bad: list[Any]
) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs", spaces=["space_guides"])["id"]
    [row] = kit.site_spaces(site)
    url = kit.url(site, "site-spaces", row["id"])
    for value in good:
        kit.ok(kit.client.patch(url, json={field: value}))
    for value in bad:
        response = kit.client.patch(url, json={field: value})
        assert response.status_code in (400, 404), (field, value)
        assert response.json()["error"]["message"].startswith(f"{field}: ")


def test_patch_reads_back_and_path_clash(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs", spaces=["space_guides", "space_api"])["id"]
    guides, api = kit.site_spaces(site)
    url = kit.url(site, "site-spaces", guides["id"])
    patched = kit.ok(kit.client.patch(url, json={"path": "v2", "condition": "visitor.claims.beta"}))
    assert (patched["path"], patched["condition"]) == ("v2", "visitor.claims.beta")
    swapped = kit.ok(kit.client.patch(url, json={"spaceId": "space_notes"}))
    assert swapped["space"]["id"] == "space_notes" and swapped["title"] == SPACES["space_notes"]
    assert swapped["condition"] == "visitor.claims.beta" and swapped["path"] == "v2"
    assert "condition" not in kit.ok(kit.client.patch(url, json={"condition": None}))
    clash = kit.client.patch(kit.url(site, "site-spaces", api["id"]), json={"path": "v2"})
    assert clash.status_code == 409 and "already has path 'v2'" in clash.text
    assert kit.ok(kit.client.patch(url, json={"path": "v2"}))["path"] == "v2"  # its own path
    assert kit.client.patch(kit.url(site, "site-spaces", "nope"), json={}).status_code == 404


def test_default_filter_and_delete_promotes(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs", spaces=["space_guides", "space_api", "space_notes"])
    site_id = site["id"]
    rows = kit.site_spaces(site_id)
    assert [r["path"] for r in kit.site_spaces(site_id, default="true")] == ["guides"]
    assert [r["path"] for r in kit.site_spaces(site_id, default="false")] == [
        "api-reference",
        "old-notes",
    ]
    assert (
        kit.client.get(kit.url(site_id, "site-spaces"), params={"default": "x"}).status_code == 400
    )
    kit.ok(kit.client.patch(kit.url(site_id), json={"defaultSiteSpace": rows[2]["id"]}))
    assert kit.outline(site_id) == ["guides", "api-reference", "old-notes*"]
    url = kit.url(site_id, "site-spaces", rows[2]["id"])
    assert kit.client.delete(url).status_code == 205
    assert kit.client.delete(url).status_code == 204
    assert kit.outline(site_id) == ["guides*", "api-reference"]
    sort = {
        "item": {"type": "site-space", "id": rows[1]["id"]},
        "position": {"before": {"type": "site-space", "id": rows[0]["id"]}},
    }
    kit.ok(kit.client.patch(kit.url(site_id, "structure", "sort"), json=sort))
    assert kit.outline(site_id) == ["api-reference", "guides*"]  # the promoted default stays
    assert kit.ok(kit.client.get(kit.url(site_id)))["siteSpaces"] == 2


def test_pagination_across_pages(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs", spaces=[*SPACES, "space_guides", "space_api"])["id"]
    expected = [r["id"] for r in kit.site_spaces(site)]
    assert len(expected) == 7
    seen: list[str] = []
    params: dict[str, Any] = {"limit": 3}
    pages = 0
    while True:
        page = kit.ok(kit.client.get(kit.url(site, "site-spaces"), params=params))
        pages += 1
        assert page["count"] == 7
        seen += [item["id"] for item in page["items"]]
        if "next" not in page:
            break
        params = {"limit": 3, "page": page["next"]["page"]}
    assert pages == 3 and seen == expected
    bad = kit.client.get(kit.url(site, "site-spaces"), params={"page": "forged"})
    assert bad.status_code == 404 and bad.json()["error"]["message"].startswith("page:")


def test_published_urls_and_prefer_minimal(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    section = kit.add_section(site, "space_guides")["id"]
    extra = kit.add_site_space(site, "space_api")
    assert extra["urls"] == {}
    kit.ok(kit.client.post(kit.url(site, "publish")))
    base = kit.ok(kit.client.get(kit.url(site)))["urls"]["published"]
    urls = [r["urls"]["published"] for r in kit.site_spaces(site)]
    assert urls == [base, f"{base}/api-reference"]  # default section and space: no segment
    minimal = {"Prefer": "return=minimal"}
    response = kit.client.post(
        kit.url(site, "site-spaces"), json={"spaceId": "space_faq"}, headers=minimal
    )
    assert (
        response.status_code == 204 and response.headers["preference-applied"] == "return=minimal"
    )
    assert not response.content and response.headers["location"]
    patched = kit.client.patch(
        kit.url(site, "sections", section), json={"icon": "book"}, headers=minimal
    )
    assert patched.status_code == 204
    assert kit.ok(kit.client.get(kit.url(site, "sections")))["items"][0]["icon"] == "book"


def test_deprecated_move(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs", spaces=["space_guides", "space_api", "space_notes"])
    site_id = site["id"]
    a, b, c = (r["id"] for r in kit.site_spaces(site_id))
    before_a = {"position": {"before": {"type": "site-space", "siteSpace": a}}}
    moved = kit.ok(kit.client.post(kit.url(site_id, "site-spaces", c, "move"), json=before_a))
    assert moved["id"] == c
    assert kit.outline(site_id) == ["old-notes", "guides*", "api-reference"]
    kit.ok(kit.client.post(kit.url(site_id, "site-spaces", c, "move")))  # no position: last
    assert kit.outline(site_id) == ["guides*", "api-reference", "old-notes"]
    wrong_type = {"position": {"before": {"type": "site-section", "siteSpace": a}}}
    response = kit.client.post(kit.url(site_id, "site-spaces", b, "move"), json=wrong_type)
    assert response.status_code == 400
    unknown = {"position": {"after": {"type": "site-space", "siteSpace": "nope"}}}
    response = kit.client.post(kit.url(site_id, "site-spaces", b, "move"), json=unknown)
    assert response.status_code == 404

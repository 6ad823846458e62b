"""The emulator accepts the site bodies production's request schemas accept (and 400s for the
rest): draft, localizedTitle, pageId, spaceId null, condition "", sort between two siblings."""

from __future__ import annotations

from typing import Any

from tests.emulator.test_sites_kit import SitesKit
from tests.emulator_harness import EmulatorHandle

SEC, GRP = "site-section", "site-section-group"


def _root_titles(kit: SitesKit, site: str) -> list[str]:
    return [item["title"] for item in kit.structure(site)["structure"]]


def test_section_create_takes_draft_page_id_and_a_new_space(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    group = kit.add_group(site, "Learn")["id"]
    made = kit.add_section(
        site, "space_guides", title="Guides", draft=True, pageId="page_1", siteSectionGroupId=group
    )
    assert made["draft"] is True and made["sectionGroup"] == group
    assert made["siteSpaces"][0]["pageId"] == "page_1" and made["siteSpaces"][0]["draft"] is True
    fresh = kit.ok(kit.client.post(kit.url(site, "sections"), json={"spaceId": None}), 201)
    new_space = fresh["siteSpaces"][0]["space"]
    assert new_space["id"] not in ("space_guides",) and new_space["title"] == "Untitled"
    named = {"spaceId": None, "title": "Changelog"}
    titled = kit.ok(kit.client.post(kit.url(site, "sections"), json=named), 201)
    assert titled["siteSpaces"][0]["space"]["title"] == "Changelog"
    refused = kit.client.post(kit.url(site, "sections"), json={"spaceId": None, "pageId": "p"})
    assert refused.status_code == 400 and "pageId" in refused.json()["error"]["message"]
    assert kit.client.post(kit.url(site, "sections"), json={}).status_code == 400


def test_site_space_create_and_update_take_production_fields(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Flat")["id"]
    body: dict[str, Any] = {"spaceId": "space_api", "draft": True, "title": "API v2"}
    made = kit.ok(kit.client.post(kit.url(site, "site-spaces"), json=body), 201)
    assert made["title"] == "API v2" and made["draft"] is True
    created = kit.client.post(kit.url(site, "site-spaces"), json={"spaceId": None, "pageId": None})
    assert kit.ok(created, 201)["space"]["title"] == "Untitled"
    url = kit.url(site, "site-spaces", made["id"])
    patched = kit.ok(kit.client.patch(url, json={"condition": "", "hidden": True, "pageId": "p"}))
    assert patched["condition"] == "" and patched["hidden"] is True and patched["pageId"] == "p"
    moved = kit.ok(kit.client.patch(url, json={"spaceId": "space_faq"}))
    assert "pageId" not in moved  # a new space drops the custom home page, as production does
    assert kit.client.patch(url, json={"hidden": "yes"}).status_code == 400


def test_section_patch_takes_localized_title_draft_and_empty_condition(
    emulator: EmulatorHandle,
) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    section = kit.add_section(site, "space_guides", title="Guides")["id"]
    group = kit.add_group(site, "Learn")["id"]
    body = {
        "localizedTitle": {"fr": "Guides FR"},
        "localizedDescription": {"de": "Anleitungen"},
        "draft": True,
        "condition": "",
        "siteSectionGroupId": group,
    }
    patched = kit.ok(kit.client.patch(kit.url(site, "sections", section), json=body))
    assert patched["localizedTitle"] == {"fr": "Guides FR"} and patched["draft"] is True
    assert patched["condition"] == "" and patched["sectionGroup"] == group
    for bad in ({"localizedTitle": {"xx": "?"}}, {"localizedTitle": {"fr": "x" * 129}}):
        response = kit.client.patch(kit.url(site, "sections", section), json=bad)
        assert response.status_code == 400, bad


def test_sort_between_two_adjacent_siblings(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    ids = {t: kit.add_section(site, s, title=t)["id"] for t, s in (("AA", "space_guides"),)}
    ids["BB"] = kit.add_section(site, "space_api", title="BB")["id"]
    ids["GG"] = kit.add_group(site, "GG")["id"]
    url = kit.url(site, "structure", "sort")

    def between(after: str, before: str) -> Any:
        position = {
            "after": {"type": SEC, "id": ids[after]},
            "before": {"type": SEC, "id": ids[before]},
        }
        return kit.client.patch(
            url, json={"item": {"type": GRP, "id": ids["GG"]}, "position": position}
        )

    kit.ok(between("AA", "BB"))
    assert _root_titles(kit, site) == ["AA", "GG", "BB"]
    refused = between("BB", "AA")
    assert refused.status_code == 400 and "adjacent" in refused.json()["error"]["message"]
    assert _root_titles(kit, site) == ["AA", "GG", "BB"]


def test_errors_echo_what_was_written(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]

    def refusal(body: dict[str, Any]) -> str:
        response = kit.client.patch(kit.url(site), json=body)
        assert response.status_code == 400, body
        message: str = response.json()["error"]["message"]
        return message

    assert refusal({"visibility": "secret"}).endswith("; got 'secret'")
    assert "at most 128 characters; got 153" in refusal({"title": "x" * 153})
    assert refusal({"title": 7}) == "title: must be a string; got a number"
    assert refusal({"proxy": "https://acme.example/docs"}).endswith(
        "got 'https://acme.example/docs'"
    )


def test_rate_limit_headers_on_every_answer_counted_after_authentication(
    emulator: EmulatorHandle,
) -> None:
    client = emulator.client()
    for response in (client.get("/v1/orgs/org_acme"), client.get("/v1/orgs/nope")):
        assert response.headers["X-RateLimit-Limit"] == "100000"  # on by default, large
    emulator.set_faults(rate_limit=2)
    spent = [client.get("/v1/orgs/org_acme") for _ in range(2)]
    assert [r.headers["X-RateLimit-Remaining"] for r in spent] == ["1", "0"]
    stranger = emulator.client(token="tok_nobody").get("/v1/orgs/org_acme")
    assert stranger.status_code == 401  # not 429: a bad token never reaches the budget
    assert stranger.headers["X-RateLimit-Remaining"] == "0"
    assert client.get("/v1/orgs/org_acme").status_code == 429
    emulator.set_faults(rate_limit=0)
    assert "X-RateLimit-Limit" not in client.get("/v1/orgs/org_acme").headers

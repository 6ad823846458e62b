"""Section groups as production serves them: nested in one another (`parent` on create,
`parentSectionGroupId` on PATCH), drafts, localized titles on groups and external links."""

from __future__ import annotations

from typing import Any

import pytest

from tests.emulator.test_sites_kit import SitesKit
from tests.emulator_harness import EmulatorHandle

GROUP = "site-section-group"


def _group(kit: SitesKit, site: str, title: str, **body: Any) -> Any:
    url = kit.url(site, "section-groups")
    return kit.ok(kit.client.post(url, json={"title": title, **body}), 201)


def _patch(kit: SitesKit, site: str, group: str, body: dict[str, Any], status: int = 200) -> Any:
    return kit.ok(kit.client.patch(kit.url(site, "section-groups", group), json=body), status)


def test_groups_nest_in_groups_and_the_structure_shows_the_tree(
    emulator: EmulatorHandle,
) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    guides = kit.add_section(site, "space_guides", title="Guides")["id"]
    learn = _group(kit, site, "Learn", sections=[guides])["id"]
    deep = _group(kit, site, "Deep dives", parent=learn, draft=True)
    assert deep["draft"] is True and deep["sectionGroup"] == learn
    api = kit.add_section(site, "space_api", title="API", siteSectionGroupId=deep["id"])
    assert api["sectionGroup"] == deep["id"]
    assert kit.outline(site) == [
        [
            "group:Learn",
            [["Guides*", ["guides*"]], ["group:Deep dives", [["API", ["api-reference*"]]]]],
        ],
    ]
    listed = kit.ok(kit.client.get(kit.url(site, "section-groups")))["items"]
    assert [g["title"] for g in listed] == ["Learn", "Deep dives"]
    outer = listed[0]
    assert [c["object"] for c in outer["children"]] == ["site-section", GROUP]
    assert [s["title"] for s in outer["sections"]] == ["Guides"]  # its own sections only
    refused = _patch(kit, site, learn, {"parentSectionGroupId": deep["id"]}, 400)
    assert "cannot be nested in itself" in refused["error"]["message"]
    unknown = _patch(kit, site, deep["id"], {"parentSectionGroupId": "nope"}, 404)
    assert unknown["error"]["message"].startswith("parentSectionGroupId")
    # out to the root: right after the root group that held it
    moved = _patch(kit, site, deep["id"], {"parentSectionGroupId": None, "draft": False})
    assert "sectionGroup" not in moved and moved["draft"] is False
    assert [item[0] for item in kit.outline(site)] == ["group:Learn", "group:Deep dives"]
    _patch(kit, site, deep["id"], {"parentSectionGroupId": learn})
    assert kit.outline(site)[0][1][1][0] == "group:Deep dives"


def test_deleting_a_group_moves_its_items_up_where_it_was(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    first = kit.add_section(site, "space_guides", title="First")["id"]
    learn = _group(kit, site, "Learn")["id"]
    deep = _group(kit, site, "Deep", parent=learn)["id"]
    kit.add_section(site, "space_api", title="Inner", siteSectionGroupId=deep)
    link = {"title": "Status", "url": "https://status.example", "parent": deep}
    kit.ok(kit.client.post(kit.url(site, "external-links"), json=link), 201)
    kit.add_section(site, "space_faq", title="Last")
    assert kit.ok(kit.client.delete(kit.url(site, "section-groups", deep)), 205) is None
    assert kit.outline(site) == [
        ["First*", ["guides*"]],
        ["group:Learn", [["Inner", ["api-reference*"]], ["link:Status", []]]],
        ["Last", ["faq*"]],
    ]
    assert first  # the default section stays where it was


def test_localized_titles_on_groups_and_links(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    kit.add_section(site, "space_guides", title="Guides")
    group = _group(kit, site, "Learn")["id"]
    titled = _patch(kit, site, group, {"localizedTitle": {"fr": "Apprendre", "de": "Lernen"}})
    assert titled["localizedTitle"] == {"fr": "Apprendre", "de": "Lernen"}
    bad = _patch(kit, site, group, {"localizedTitle": {"xx": "?"}}, 400)
    assert bad["error"]["message"].startswith("localizedTitle: keys must be language codes")
    links = kit.url(site, "external-links")
    body = {
        "title": "Status",
        "url": "https://status.example",
        "localizedTitle": {"fr": "Statut"},
        "localizedDescription": None,
    }
    made = kit.ok(kit.client.post(links, json=body), 201)
    assert made["localizedTitle"] == {"fr": "Statut"} and "localizedDescription" not in made
    changed = {"localizedTitle": None, "localizedDescription": {"fr": "État du service"}}
    link = kit.ok(kit.client.patch(f"{links}/{made['id']}", json=changed))
    assert (
        "localizedTitle" not in link
        and link["localizedDescription"] == changed["localizedDescription"]
    )
    refused = kit.client.post(links, json=body | {"localizedTitle": None})
    assert refused.status_code == 400  # on create, production's localizedTitle takes no null
    structure = kit.structure(site)["structure"]
    assert [i.get("localizedTitle") for i in structure] == [
        None,
        {"fr": "Apprendre", "de": "Lernen"},
        None,
    ]


@pytest.mark.parametrize("contract", ["description", "production"])
def test_production_answers_localized_titles_and_hidden_on_every_item(
    contract: str, request: pytest.FixtureRequest
) -> None:
    """Production answers `localizedTitle: {}` on every section and group and `hidden: false`
    on every site space, written or not (issue 39); the description's mode only what is set."""
    emulator: EmulatorHandle = request.getfixturevalue(
        "emulator" if contract == "description" else "production"
    )
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    section = kit.add_section(site, "space_guides", title="Guides")
    group = _group(kit, site, "Learn")
    site_space = kit.add_site_space(site, "space_api", section["id"])
    made = [section, group, *section["siteSpaces"], site_space]
    structure = kit.structure(site)["structure"]
    read = [*structure, *structure[0]["siteSpaces"]]
    production = contract == "production"
    for item in [*made, *read]:
        if item["object"] == "site-space":
            assert item.get("hidden") is (False if production else None), item
        else:
            assert item.get("localizedTitle") == ({} if production else None), item

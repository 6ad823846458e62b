"""The changes of a site's structure production's text allows: enabling sections (an admin's
first section on a site of root site spaces), a space on a site of groups only (at the root, "if
the site has no sections"), an external link on an empty site (as a group is); and what the
structure's two shapes still refuse (docs/emulator.md, "Site structure")."""

from __future__ import annotations

from tests.emulator.test_sites_kit import SitesKit
from tests.emulator_harness import EmulatorHandle


def test_an_admins_first_section_turns_the_root_site_spaces_into_the_first_section(
    emulator: EmulatorHandle,
) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Flat", spaces=["space_guides", "space_faq"])["id"]
    made = kit.add_section(site, "space_api", title="API")
    assert kit.outline(site) == [["Guides*", ["guides*", "faq"]], ["API", ["api-reference*"]]]
    assert made["title"] == "API" and made["default"] is False
    listed = kit.ok(kit.client.get(kit.url(site, "sections")))["items"]
    assert [s["title"] for s in listed] == ["Guides", "API"]


def test_enabling_sections_requires_the_admin_role(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Flat", spaces=["space_guides"])["id"]
    creator = emulator.client("tok_kim")  # the create role: creates content, may not enable
    refused = creator.post(kit.url(site, "sections"), json={"spaceId": "space_api"})
    assert refused.status_code == 403, refused.text
    assert "enabling sections requires the admin role" in refused.json()["error"]["message"]
    assert kit.outline(site) == ["guides*"]
    empty = kit.create_site(title="Empty")["id"]  # sections on an empty site enable nothing
    assert (
        creator.post(kit.url(empty, "sections"), json={"spaceId": "space_api"}).status_code == 201
    )


def test_a_space_on_a_site_of_groups_only_goes_to_the_root(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Grouped")["id"]
    kit.add_group(site, "Learn")
    added = kit.add_site_space(site, "space_guides")
    assert added["default"] is True and "section" not in added
    assert kit.outline(site) == ["guides*"]  # production's structure: root site spaces
    assert [
        g["title"] for g in kit.ok(kit.client.get(kit.url(site, "section-groups")))["items"]
    ] == ["Learn"]
    kit.add_section(site, "space_api", title="API")  # enabling sections: the groups are there
    assert kit.outline(site) == [
        ["Guides*", ["guides*"]],
        ["group:Learn", []],
        ["API", ["api-reference*"]],
    ]


def test_an_external_link_on_an_empty_site_as_a_group(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Empty")["id"]
    link = {"title": "Status", "url": "https://status.example"}
    kit.ok(kit.client.post(kit.url(site, "external-links"), json=link), 201)
    assert kit.outline(site) == [["link:Status", []]]
    flat = kit.create_site(title="Flat", spaces=["space_guides"])["id"]
    refused = kit.client.post(kit.url(flat, "external-links"), json=link)
    assert refused.status_code == 400  # production: links need a section-based structure
    assert "site spaces at its root" in refused.json()["error"]["message"]

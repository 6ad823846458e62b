"""Site external links over real HTTP: create, update, delete, shown in the structure read and
sorted among the root's sections and groups, or inside a group; refusals name the field."""

from __future__ import annotations

from typing import Any

from tests.emulator.test_sites_kit import SitesKit
from tests.emulator_harness import EmulatorHandle

LINK = "site-external-link"


def _root(kit: SitesKit, site: str) -> list[tuple[str, str]]:
    return [(i["object"], i["title"]) for i in kit.structure(site)["structure"]]


def _add(kit: SitesKit, site: str, **body: Any) -> Any:
    return kit.client.post(kit.url(site, "external-links"), json=body)


def test_links_live_among_the_root_sections(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    guides = kit.add_section(site, "space_guides", title="Guides")["id"]
    url = "https://status.acme.example"
    created = kit.ok(_add(kit, site, title="Status", url=url, description="Uptime"), 201)
    assert created == {
        "object": LINK,
        "id": created["id"],
        "title": "Status",
        "url": url,
        "draft": False,
        "description": "Uptime",
    }
    group = kit.add_group(site, "More")["id"]
    assert _root(kit, site) == [
        ("site-section", "Guides"),
        (LINK, "Status"),
        ("site-section-group", "More"),
    ]
    body = {
        "item": {"type": LINK, "id": created["id"]},
        "position": {"before": {"type": "site-section", "id": guides}},
    }
    kit.ok(kit.client.patch(kit.url(site, "structure", "sort"), json=body))
    body = {
        "item": {"type": "site-section-group", "id": group},
        "position": {"after": body["item"]},
    }
    kit.ok(kit.client.patch(kit.url(site, "structure", "sort"), json=body))
    assert [t for _, t in _root(kit, site)] == ["Status", "More", "Guides"]
    item = kit.url(site, "external-links", created["id"])
    changed = kit.ok(kit.client.patch(item, json={"url": url + "/now", "description": None}))
    assert changed["url"] == url + "/now" and "description" not in changed
    assert kit.client.delete(item).status_code == 205
    assert kit.client.delete(item).status_code == 204  # a retried delete is done
    assert [t for _, t in _root(kit, site)] == ["More", "Guides"]


def test_link_refusals_name_the_field(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    simple = kit.create_site(title="Simple")["id"]
    kit.add_site_space(simple, "space_guides")
    url = "https://acme.example"
    refused = kit.ok(_add(kit, simple, title="Home", url=url), 400)
    assert "site spaces at its root level" in refused["error"]["message"]
    site = kit.create_site(title="Docs")["id"]
    kit.add_section(site, "space_guides", title="Guides")
    cases = [
        ({"title": "Home"}, "url"),
        ({"title": "H", "url": url}, "title"),
        ({"title": "Home", "url": "ftp://acme.example"}, "url"),
    ]
    for body, field in cases:
        message = kit.ok(_add(kit, site, **body), 400)["error"]["message"]
        assert field in message, (body, message)
    missing = kit.client.patch(kit.url(site, "external-links", "nope"), json={"title": "Home"})
    assert missing.status_code == 404
    for parent in ("g1", ""):  # production's parent is any string: "" names no group either
        unknown = _add(kit, site, title="Home", url=url, parent=parent)
        assert unknown.status_code == 404 and "parent" in unknown.json()["error"]["message"]
    assert [t for _, t in _root(kit, site)] == ["Guides"]


def _children(kit: SitesKit, site: str, group: str) -> list[tuple[str, str]]:
    found = [i for i in kit.structure(site)["structure"] if i["id"] == group]
    return [(c["object"], c["title"]) for c in found[0]["children"]]


def test_links_stand_in_a_group_move_in_and_out_and_outlive_it(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    guides = kit.add_section(site, "space_guides", title="Guides")["id"]
    group = kit.add_group(site, "More", [guides])["id"]
    url = "https://status.acme.example"
    body = {"title": "Status", "url": url, "icon": "signal", "condition": "visitor.beta"}
    made = kit.ok(_add(kit, site, parent=group, **body), 201)
    assert made["sectionGroup"] == group and made["icon"] == "signal"
    assert made["condition"] == "visitor.beta"
    home = kit.ok(_add(kit, site, title="Home", url="https://acme.example"), 201)
    assert "sectionGroup" not in home
    group_view = kit.ok(kit.client.get(kit.url(site, "section-groups")))["items"][0]
    assert [s["title"] for s in group_view["sections"]] == ["Guides"]
    assert _children(kit, site, group) == [("site-section", "Guides"), (LINK, "Status")]
    sort = kit.url(site, "structure", "sort")
    first = {
        "item": {"type": LINK, "id": made["id"]},
        "position": {"before": {"type": "site-section", "id": guides}},
    }
    kit.ok(kit.client.patch(sort, json=first))
    assert _children(kit, site, group) == [(LINK, "Status"), ("site-section", "Guides")]
    across = {"item": first["item"], "position": {"after": {"type": LINK, "id": home["id"]}}}
    assert kit.client.patch(sort, json=across).status_code == 400  # sorting keeps the level
    status = kit.url(site, "external-links", made["id"])
    out = kit.ok(kit.client.patch(status, json={"parent": None, "condition": None}))
    assert "sectionGroup" not in out and "condition" not in out
    assert _root(kit, site) == [("site-section-group", "More"), (LINK, "Status"), (LINK, "Home")]
    moved = kit.ok(
        kit.client.patch(kit.url(site, "external-links", home["id"]), json={"parent": group})
    )
    assert moved["sectionGroup"] == group
    assert _children(kit, site, group) == [("site-section", "Guides"), (LINK, "Home")]
    assert kit.client.delete(kit.url(site, "section-groups", group)).status_code == 205
    assert _root(kit, site) == [("site-section", "Guides"), (LINK, "Home"), (LINK, "Status")]

"""Site share links over real HTTP: create (active, with a secret URL), rename and deactivate,
search, delete (205 then 204), and links going with their site."""

from __future__ import annotations

from tests.emulator.test_sites_kit import SitesKit
from tests.emulator_harness import EmulatorHandle


def test_create_update_search_delete(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    url = kit.url(site, "share-links")
    made = kit.client.post(url, json={"name": "Partner preview"})
    link = kit.ok(made, 201)
    assert made.headers["Location"].endswith(f"/share-links/{link['id']}")
    assert (link["object"], link["name"], link["active"]) == ("share-link", "Partner preview", True)
    secret = link["urls"]["published"]
    other = kit.ok(kit.client.post(url, json={"name": "Agency"}), 201)
    assert other["urls"]["published"] != secret
    changed = kit.ok(kit.client.patch(f"{url}/{link['id']}", json={"active": False}))
    assert (changed["active"], changed["urls"]["published"]) == (False, secret)
    renamed = kit.ok(kit.client.patch(f"{url}/{link['id']}", json={"name": "Partners"}))
    assert (renamed["name"], renamed["active"]) == ("Partners", False)
    listed = kit.ok(kit.client.get(url))
    assert [item["name"] for item in listed["items"]] == ["Partners", "Agency"]
    found = kit.ok(kit.client.get(url, params={"search": "agen"}))
    assert [item["id"] for item in found["items"]] == [other["id"]]
    by_key = kit.ok(kit.client.get(url, params={"search": secret.rsplit("/", 1)[1]}))
    assert [item["id"] for item in by_key["items"]] == [link["id"]]
    assert kit.client.delete(f"{url}/{link['id']}").status_code == 205
    assert kit.client.delete(f"{url}/{link['id']}").status_code == 204
    assert kit.ok(kit.client.get(url))["count"] == 1


def test_refusals_name_the_field(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    url = kit.url(site, "share-links")
    for body, message in [
        ({}, "name: is required"),
        ({"name": "x" * 51}, "name:"),
    ]:
        answer = kit.client.post(url, json=body)
        assert answer.status_code == 400 and message in answer.json()["error"]["message"]
    link = kit.ok(kit.client.post(url, json={"name": "A"}), 201)
    empty = kit.client.patch(f"{url}/{link['id']}", json={})
    assert empty.status_code == 400
    missing = kit.client.patch(f"{url}/nope", json={"active": False})
    assert missing.status_code == 404


def test_links_go_with_their_site(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    kit.ok(kit.client.post(kit.url(site, "share-links"), json={"name": "A"}), 201)
    assert kit.client.delete(kit.url(site)).status_code in (204, 205)
    assert kit.client.get(kit.url(site, "share-links")).status_code == 404

"""A visitor-auth site's publishing auth over real HTTP: production's defaults with a private
key, PATCH with the backend required, URLs kept or unset, a new key only on regenerate, and a
400 for a site that is not visitor-auth."""

from __future__ import annotations

from tests.emulator.test_sites_kit import SitesKit
from tests.emulator_harness import EmulatorHandle


def test_read_update_regenerate(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs", visibility="visitor-auth")["id"]
    url = kit.url(site, "publishing", "auth")
    first = kit.ok(kit.client.get(url))
    assert (first["object"], first["backend"]) == ("publishing-auth", "custom")
    assert "fallbackURL" not in first and first["privateKey"]
    assert kit.ok(kit.client.get(url))["privateKey"] == first["privateKey"]
    changed = kit.ok(
        kit.client.patch(
            url, json={"backend": "custom", "fallbackURL": "https://acme.example/login"}
        )
    )
    assert changed["fallbackURL"] == "https://acme.example/login"
    assert changed["privateKey"] == first["privateKey"]
    kept = kit.ok(
        kit.client.patch(url, json={"backend": "custom", "logoutURL": "https://acme.example/out"})
    )
    assert (kept["fallbackURL"], kept["logoutURL"]) == (
        "https://acme.example/login",
        "https://acme.example/out",
    )
    unset = kit.ok(kit.client.patch(url, json={"backend": "custom", "fallbackURL": None}))
    assert "fallbackURL" not in unset and unset["logoutURL"] == "https://acme.example/out"
    again = kit.ok(kit.client.post(f"{url}/regenerate"))
    assert again["privateKey"] != first["privateKey"]
    assert kit.ok(kit.client.get(url))["privateKey"] == again["privateKey"]


def test_refusals(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    public = kit.create_site(title="Public")["id"]
    answer = kit.client.get(kit.url(public, "publishing", "auth"))
    assert answer.status_code == 400 and "visitor-auth" in answer.json()["error"]["message"]
    site = kit.create_site(title="Docs", visibility="visitor-auth")["id"]
    url = kit.url(site, "publishing", "auth")
    for body, message in [
        ({"fallbackURL": "https://acme.example"}, "backend: is required"),
        ({"backend": "saml"}, "backend: must be one of"),
        ({"backend": "custom", "fallbackURL": "not a url"}, "fallbackURL"),
    ]:
        refused = kit.client.patch(url, json=body)
        assert refused.status_code == 400 and message in refused.json()["error"]["message"]

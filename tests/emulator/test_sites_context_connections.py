"""A site's context connections (production's, in both contract modes): what the assistant reads,
set up, read back with every token masked, changed, deleted with the site."""

from __future__ import annotations

import pytest

from tests.emulator.test_sites_kit import SitesKit
from tests.emulator_harness import EmulatorHandle

ZENDESK = {
    "connector": "builtin:zendesk",
    "setupSettings": {"subdomain": "acme", "email": "ops@acme.example", "apiToken": "zd-SECRET"},
}


@pytest.fixture
def kit(either_contract: EmulatorHandle) -> SitesKit:
    return SitesKit(either_contract)


def test_a_connection_is_set_up_and_its_token_never_answered(kit: SitesKit) -> None:
    site = kit.create_site(title="Docs")["id"]
    url = kit.url(site, "context-connections")
    made = kit.client.post(url, json=ZENDESK)
    assert made.status_code == 201, made.text
    assert "zd-SECRET" not in made.text
    body = made.json()
    assert body["setupSettings"] == {
        "subdomain": "acme",
        "email": "ops@acme.example",
        "apiToken": "********",
    }
    assert (body["status"], body["records"]) == ("pending", 0)
    assert body["usageSettings"] == {"changeRequests": False, "search": True, "searchBoost": "x1.0"}
    item = f"{url}/{body['id']}"
    for read in (kit.client.get(item), kit.client.get(url)):
        assert read.status_code == 200 and "zd-SECRET" not in read.text
    labelled = kit.ok(kit.client.patch(item, json={"label": "Support", "filter": "tag:docs"}))
    assert (labelled["label"], labelled["filter"], labelled["connector"]) == (
        "Support",
        "tag:docs",
        "builtin:zendesk",
    )
    site_docs = {"connector": "builtin:website", "setupSettings": {"url": "https://acme.example"}}
    moved = kit.ok(kit.client.patch(item, json=site_docs))
    assert moved["setupSettings"] == {"url": "https://acme.example"} and moved["label"] == "Support"
    email = kit.ok(kit.client.patch(item, json={"connector": "builtin:email"}))
    assert "setupSettings" not in email and "@" in email["email"]["ingestionAddress"]
    assert kit.client.delete(item).status_code == 205
    assert kit.client.delete(item).status_code == 204


def test_a_setup_is_production_s(kit: SitesKit) -> None:
    site = kit.create_site(title="Docs")["id"]
    url = kit.url(site, "context-connections")
    for body, says in (
        ({"connector": "builtin:zendesk"}, "setupSettings: is required"),
        ({"connector": "builtin:fax"}, "connector"),
        (
            {"connector": "builtin:youtube", "setupSettings": {"channelId": "acme"}},
            "channelId: must match",
        ),
        ({**ZENDESK, "usageSettings": {"search": True}}, "usageSettings.changeRequests"),
        ({**ZENDESK, "filter": "x" * 1025}, "filter: must be at most 1024"),
    ):
        refused = kit.client.post(url, json=body)
        assert refused.status_code == 400, body
        assert says in refused.json()["error"]["message"], refused.text
    missing = kit.client.post(url, json={"connector": "integration:google-analytics"})
    assert missing.status_code == 404 and "not installed" in missing.text
    kit.client.post(
        "/v1/integrations/google-analytics/installations", json={"organization": "org_acme"}
    )
    installed = kit.client.post(url, json={"connector": "integration:google-analytics"})
    assert installed.status_code == 201, installed.text
    assert kit.client.delete(kit.url(site)).status_code == 205

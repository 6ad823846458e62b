"""A site's channels (production's site channels, in both contract modes): the agent's setup in
Slack, Linear, GitHub or Discord, created, read, changed, deleted with the site."""

from __future__ import annotations

import pytest

from tests.emulator.test_sites_kit import SitesKit
from tests.emulator_harness import EmulatorHandle


@pytest.fixture
def kit(either_contract: EmulatorHandle) -> SitesKit:
    return SitesKit(either_contract)


def test_a_channel_is_created_read_changed_and_deleted(kit: SitesKit) -> None:
    site = kit.create_site(title="Docs")["id"]
    url = kit.url(site, "channels")
    body = {"type": "builtin:slack", "setupSettings": {"allowedChannels": ["support-*"]}}
    made = kit.ok(kit.client.post(url, json=body), 201)
    assert (made["object"], made["role"], made["status"]) == ("site-channel", "support", "active")
    assert made["setupSettings"] == {"allowedChannels": ["support-*"]}
    item = f"{url}/{made['id']}"
    assert kit.ok(kit.client.get(item)) == made
    role = kit.ok(kit.client.patch(item, json={"role": "collaborator"}))
    assert role["role"] == "collaborator" and role["type"] == "builtin:slack"
    github = {"type": "builtin:github", "setupSettings": {"allowedRepositories": ["acme/*"]}}
    moved = kit.ok(kit.client.patch(item, json=github))
    assert moved["type"] == "builtin:github" and moved["role"] == "collaborator"
    # production's PATCH is anyOf [setup, {role}]: a body that is no setup is the role alone
    ignored = kit.ok(kit.client.patch(item, json={"type": "builtin:slack"}))
    assert ignored["type"] == "builtin:github"
    assert [c["id"] for c in kit.ok(kit.client.get(url))["items"]] == [made["id"]]
    assert kit.client.delete(item).status_code == 205
    assert kit.client.delete(item).status_code == 204
    assert kit.client.get(item).status_code == 404


def test_a_channel_setup_is_production_s_and_closed_where_it_is(kit: SitesKit) -> None:
    site = kit.create_site(title="Docs")["id"]
    url = kit.url(site, "channels")
    for body, says in (
        ({"type": "builtin:slack"}, "setupSettings: is required"),
        ({"type": "builtin:teams", "setupSettings": {}}, "type: must be one of"),
        (
            {"type": "builtin:slack", "setupSettings": {"allowedTeams": []}},
            "setupSettings.allowedTeams: unknown field",
        ),
        (
            {"type": "builtin:github", "setupSettings": {"allowedRepositories": ["acme"]}},
            "allowedRepositories[0]: must match",
        ),
        (
            {"type": "builtin:linear", "setupSettings": {}, "role": "boss"},
            "role: must be one of",
        ),
    ):
        refused = kit.client.post(url, json=body)
        assert refused.status_code == 400, body
        assert says in refused.json()["error"]["message"], refused.text
    kit.ok(kit.client.post(url, json={"type": "builtin:discord", "setupSettings": {}}), 201)
    assert kit.client.delete(kit.url(site)).status_code == 205
    reader = kit.emulator.client("tok_sam")
    other = kit.create_site(title="Other")["id"]
    assert reader.get(kit.url(other, "channels")).status_code == 200
    denied = reader.post(kit.url(other, "channels"), json={"type": "builtin:discord"})
    assert denied.status_code == 403

"""Git Sync installations on sites and spaces (production's, in both contract modes): installed,
configured, read without a token, listed with the site's spaces', uninstalled; what each waits
for is its status, a GitHub one pending until the organization's account is connected."""

from __future__ import annotations

from typing import Any

import pytest

from tests.emulator.test_sites_kit import SitesKit, sites_seed
from tests.emulator_harness import EmulatorHandle

GIT = "/v1/git/installations"
GITLAB = {
    "provider": "gitlab",
    "providerConfiguration": {"projectId": 42, "accessToken": "glpat-SECRET"},
    "priority": "gitbook",
}


@pytest.fixture
def kit(either_contract: EmulatorHandle) -> SitesKit:
    return SitesKit(either_contract)


def _install(kit: SitesKit, provider: str, **target: str) -> Any:
    return kit.client.post(GIT, json={"provider": provider, "target": target})


def test_a_gitlab_installation_is_configured_and_never_answers_its_token(kit: SitesKit) -> None:
    made = _install(kit, "gitlab", type="space", spaceId="space_guides")
    assert made.status_code == 201, made.text
    body = made.json()
    assert (body["object"], body["status"], body["providerConfiguration"]) == (
        "git-sync-installation",
        "unauthenticated",
        {},
    )
    item = f"{GIT}/{body['id']}"
    assert made.headers["location"].endswith(item)
    pending = kit.client.patch(item, json=GITLAB)
    assert pending.status_code == 200 and "glpat-SECRET" not in pending.text
    assert pending.json()["status"] == "pending"  # a project, no branch yet
    assert pending.json()["providerConfiguration"] == {"projectId": 42}
    branch = {"provider": "gitlab", "providerConfiguration": {"branch": "refs/heads/main"}}
    active = kit.ok(kit.client.patch(item, json=branch))
    assert active["status"] == "active" and active["priority"] == "gitbook"
    assert kit.ok(kit.client.get(item)) == active
    again = _install(kit, "gitlab", type="space", spaceId="space_guides")
    assert again.status_code == 409
    assert kit.client.delete(item).status_code == 205
    assert kit.client.delete(item).status_code == 404  # production declares 205 and 404


def test_a_github_installation_waits_for_the_account(kit: SitesKit) -> None:
    github = {
        "provider": "github",
        "providerConfiguration": {"repositoryId": 7, "branch": "refs/heads/main"},
    }
    made = _install(kit, "github", type="space", spaceId="space_guides").json()
    waiting = kit.ok(kit.client.patch(f"{GIT}/{made['id']}", json=github))
    assert waiting["status"] == "pending"  # the example seed's Acme connected no GitHub account
    seed = sites_seed()
    seed["organizations"][0]["githubAccountConnected"] = True
    kit.emulator.reset(seed)
    made = _install(kit, "github", type="space", spaceId="space_guides").json()
    assert kit.ok(kit.client.patch(f"{GIT}/{made['id']}", json=github))["status"] == "active"


def test_a_sites_installation_manages_its_spaces(kit: SitesKit) -> None:
    site = kit.create_site(title="Docs", spaces=["space_guides"])["id"]
    kit.add_site_space(site, "space_api")
    parent = _install(kit, "gitlab", type="site", siteId=site).json()
    kit.ok(kit.client.patch(f"{GIT}/{parent['id']}", json=GITLAB))
    child = _install(kit, "gitlab", type="space", spaceId="space_guides", siteId=site).json()
    assert child["parentInstallationId"] == parent["id"] and child["status"] == "pending"
    directories = {**GITLAB, "childInstallationProjectDirectories": {child["id"]: "guides"}}
    kit.ok(kit.client.patch(f"{GIT}/{parent['id']}", json=directories))
    assert kit.ok(kit.client.get(f"{GIT}/{child['id']}"))["projectDirectory"] == "guides"
    own = _install(kit, "gitlab", type="space", spaceId="space_api").json()  # published here
    _install(kit, "gitlab", type="space", spaceId="space_faq")  # not on the site
    listed = kit.ok(kit.client.get(kit.url(site, "spaces", "git", "installations")))["items"]
    assert {i["id"] for i in listed} == {parent["id"], child["id"], own["id"]}
    assert kit.client.delete(f"{GIT}/{parent['id']}").status_code == 205
    assert kit.client.get(f"{GIT}/{child['id']}").status_code == 404  # it went with its parent
    assert kit.client.delete(kit.url(site)).status_code == 205


def test_refusals_name_the_field(kit: SitesKit) -> None:
    for body, status, says in (
        ({"provider": "svn", "target": {"type": "site", "siteId": "x"}}, 400, "provider"),
        ({"provider": "github", "target": {"type": "site"}}, 400, "target"),
        (
            {"provider": "github", "target": {"type": "site", "siteId": "nope"}},
            404,
            "target.siteId",
        ),
        (
            {"provider": "gitlab", "target": {"type": "space", "spaceId": "space_other"}},
            404,
            "target.spaceId",
        ),
    ):
        refused = kit.client.post(GIT, json=body)
        assert refused.status_code == status, refused.text
        assert refused.json()["error"]["message"].startswith(says), refused.text
    made = _install(kit, "gitlab", type="space", spaceId="space_guides").json()
    bad = {"provider": "gitlab", "providerConfiguration": {"branch": "main"}}
    assert kit.client.patch(f"{GIT}/{made['id']}", json=bad).status_code == 400
    reader = kit.emulator.client("tok_sam")
    assert reader.get(f"{GIT}/{made['id']}").status_code == 200
    assert reader.delete(f"{GIT}/{made['id']}").status_code == 403
    olga = kit.emulator.client("tok_olga")
    assert olga.get(f"{GIT}/{made['id']}").text == olga.get(f"{GIT}/nope").text.replace(
        "nope", made["id"]
    )


def test_a_site_and_a_space_say_what_is_installed_on_them(kit: SitesKit) -> None:
    """Production's `gitSync` (GitSyncState) on a site and a space: the installation, its
    provider and status, and the site installation that manages a space's; gone with it."""
    site = kit.create_site(title="Docs", spaces=["space_guides"])["id"]
    assert "gitSync" not in kit.ok(kit.client.get(kit.url(site)))
    parent = _install(kit, "gitlab", type="site", siteId=site).json()
    child = _install(kit, "gitlab", type="space", spaceId="space_guides", siteId=site).json()
    synced = kit.ok(kit.client.get(kit.url(site)))["gitSync"]
    assert synced == {
        "installationId": parent["id"],
        "installationProvider": "gitlab",
        "installationStatus": "unauthenticated",
        "updatedAt": parent["updatedAt"],
    }
    listed = kit.ok(kit.client.get("/v1/orgs/org_acme/sites"))["items"]
    assert [s["gitSync"]["installationId"] for s in listed if s["id"] == site] == [parent["id"]]
    space = kit.ok(kit.client.get("/v1/spaces/space_guides"))["gitSync"]
    assert (space["installationId"], space["parentInstallationId"]) == (child["id"], parent["id"])
    assert kit.client.delete(f"{GIT}/{parent['id']}").status_code == 205
    assert "gitSync" not in kit.ok(kit.client.get("/v1/spaces/space_guides"))
    assert "gitSync" not in kit.ok(kit.client.get(kit.url(site)))

"""SAML providers over real HTTP: CRUD, limits, defaultTeam integrity, SSO logins."""

from __future__ import annotations

from typing import Any

from tests.emulator_harness import EmulatorHandle

SAML = "/v1/orgs/org_acme/saml"


def _team(emulator: EmulatorHandle, title: str = "Platform") -> str:
    response = emulator.client().put("/v1/orgs/org_acme/teams", json={"title": title})
    team: str = response.json()["id"]
    return team


def _provider(emulator: EmulatorHandle, **fields: Any) -> Any:
    response = emulator.client().post(SAML, json={"label": "Okta", **fields})
    assert response.status_code == 201, response.text
    return response.json()


def test_crud_and_status(emulator: EmulatorHandle) -> None:
    team = _team(emulator)
    provider = _provider(emulator, defaultTeam=team, defaultRole="read")
    assert provider["status"] == "pending" and provider["defaultTeam"]["id"] == team
    client = emulator.client()
    url = f"{SAML}/{provider['id']}"
    patched = client.patch(
        url,
        json={"ssoURL": "https://idp.example/sso", "entityID": "urn:idp", "certificate": "MII"},
    )
    assert patched.status_code == 200 and patched.json()["status"] == "active"
    assert client.get(url).json()["certificate"] == "MII"
    assert [p["id"] for p in client.get(SAML).json()["items"]] == [provider["id"]]
    logins = client.get("/v1/orgs/org_acme/sso").json()["items"]
    assert logins == [
        {"id": provider["id"], "label": "Okta", "startURL": patched.json()["service"]["startURL"]}
    ]
    assert client.patch(url, json={"defaultTeam": None}).json().get("defaultTeam") is None
    assert client.delete(url).status_code == 204  # docs-platform-api.md §4.14
    assert client.delete(url).status_code == 204
    assert client.get(url).status_code == 404


def test_limits(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    ok = {
        "label": "x" * 30,
        "entityID": "e" * 1024,
        "certificate": "c" * 10000,
        "ssoURL": "https://idp.example/" + "p" * 2020,
    }
    assert client.post(SAML, json=ok).status_code == 201
    bad = {
        "label": ["", "x" * 31, None],
        "entityID": ["e" * 1025],
        "certificate": ["c" * 10001],
        "ssoURL": ["https://idp.example/" + "p" * 2029, "not-a-url"],
        "defaultRole": ["owner"],
    }
    for field, values in bad.items():
        for value in values:
            response = client.post(SAML, json={**ok, field: value})
            assert response.status_code == 400, (field, str(value)[:20])
            assert response.json()["error"]["message"].startswith(f"{field}:")
    assert client.post(SAML, json={"entityID": "x"}).json()["error"]["message"] == (
        "label: is required"
    )
    assert client.get(SAML).json()["count"] == 1


def test_default_team_integrity(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    response = client.post(SAML, json={"label": "Okta", "defaultTeam": "nope"})
    assert response.status_code == 404 and "defaultTeam" in response.json()["error"]["message"]
    team = _team(emulator)
    provider = _provider(emulator, defaultTeam=team)
    refused = client.delete(f"/v1/orgs/org_acme/teams/{team}")
    assert refused.status_code == 409 and "Okta" in refused.json()["error"]["message"]
    cleared = client.patch(f"{SAML}/{provider['id']}", json={"defaultTeam": None})
    assert cleared.status_code == 400  # production's schema takes a string only
    assert cleared.json()["error"]["message"] == "defaultTeam: must not be null"
    assert client.delete(f"{SAML}/{provider['id']}").status_code in (204, 205)
    assert client.delete(f"/v1/orgs/org_acme/teams/{team}").status_code == 204


def test_saml_needs_admin(emulator: EmulatorHandle) -> None:
    provider = _provider(emulator)
    kim = emulator.client("tok_kim")
    assert kim.get(SAML).status_code == 200
    assert kim.post(SAML, json={"label": "Mine"}).status_code == 403
    assert kim.patch(f"{SAML}/{provider['id']}", json={"label": "Mine"}).status_code == 403
    assert kim.delete(f"{SAML}/{provider['id']}").status_code == 403
    assert emulator.client("tok_olga").get(f"{SAML}/{provider['id']}").status_code == 404

"""Teams and team members over real HTTP: create, list filters, rename, delete, memberships."""

from __future__ import annotations

from typing import Any

from tests.contract.answers import check_response
from tests.emulator_harness import EmulatorHandle

TEAMS = "/v1/orgs/org_acme/teams"


def _create(emulator: EmulatorHandle, title: str, members: list[str] | None = None) -> Any:
    body: dict[str, Any] = {"title": title}
    if members is not None:
        body["members"] = members
    response = emulator.client().put(TEAMS, json=body)
    assert response.status_code == 201, response.text
    return response.json()


def _members(emulator: EmulatorHandle, team: str) -> dict[str, str]:
    items = emulator.client().get(f"{TEAMS}/{team}/members").json()["items"]
    return {item["organization"]["id"]: item["team"]["role"] for item in items}


def test_create_get_rename_delete(emulator: EmulatorHandle) -> None:
    team = _create(emulator, "Platform", ["u_lin", "sam@acme.example"])
    assert team["object"] == "team" and team["members"] == 2
    assert len(team["id"]) == 20 and team["id"].isalnum()
    client = emulator.client()
    assert client.get(f"{TEAMS}/{team['id']}").json()["title"] == "Platform"
    renamed = client.patch(f"{TEAMS}/{team['id']}", json={"title": "Core"})
    assert renamed.status_code == 200 and renamed.json()["title"] == "Core"
    assert client.delete(f"{TEAMS}/{team['id']}").status_code == 204  # docs-platform-api.md §4.13
    assert client.delete(f"{TEAMS}/{team['id']}").status_code == 204
    assert client.get(f"{TEAMS}/{team['id']}").status_code == 404


def test_list_filters_title_and_owner(emulator: EmulatorHandle) -> None:
    platform = _create(emulator, "Platform")
    _create(emulator, "Docs Writers")
    client = emulator.client()
    titles = [t["title"] for t in client.get(TEAMS, params={"title": "PLAT"}).json()["items"]]
    assert titles == ["Platform"]
    assert client.get(TEAMS, params={"owner": "u_lin"}).json()["items"] == []
    client.put(f"{TEAMS}/{platform['id']}/members/u_lin", json={"role": "owner"})
    owned = client.get(TEAMS, params={"owner": "u_lin"}).json()["items"]
    assert [t["id"] for t in owned] == [platform["id"]]
    assert client.get(TEAMS, params={"owner": "u_ada"}).json()["count"] == 2
    unknown = client.get(TEAMS, params={"owner": "u_nobody"})
    assert unknown.status_code == 404 and unknown.json()["error"]["message"].startswith("owner:")


def test_batch_membership_add_remove_and_roles(emulator: EmulatorHandle) -> None:
    team = _create(emulator, "Platform", ["u_ada"])["id"]
    client = emulator.client()
    response = client.put(
        f"{TEAMS}/{team}/members",
        json={
            "add": ["lin@acme.example", "u_sam", "u_kim"],
            "remove": ["u_kim", "u_ada"],
            "memberships": {"sam@acme.example": {"role": "owner"}},
        },
    )
    assert response.status_code == 204, response.text
    assert _members(emulator, team) == {"u_lin": "member", "u_sam": "owner"}


def test_single_member_put_and_delete(emulator: EmulatorHandle) -> None:
    team = _create(emulator, "Platform")["id"]
    client = emulator.client()
    assert client.put(f"{TEAMS}/{team}/members/u_lin").status_code == 204
    assert _members(emulator, team) == {"u_lin": "member"}
    assert client.put(f"{TEAMS}/{team}/members/u_lin", json={"role": "owner"}).status_code == 204
    assert _members(emulator, team) == {"u_lin": "owner"}
    assert client.delete(f"{TEAMS}/{team}/members/u_lin").status_code == 204
    assert client.delete(f"{TEAMS}/{team}/members/u_lin").status_code == 204
    assert _members(emulator, team) == {}


def test_unknown_members_are_refused_without_partial_write(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    bad = client.put(TEAMS, json={"title": "X", "members": ["u_lin", "nobody@x.example"]})
    assert bad.status_code == 404
    assert "members[1]" in bad.json()["error"]["message"]
    assert client.get(TEAMS).json()["count"] == 0
    team = _create(emulator, "Platform")["id"]
    bad = client.put(f"{TEAMS}/{team}/members", json={"add": ["u_lin", "u_olga"]})
    assert bad.status_code == 404 and "add[1]" in bad.json()["error"]["message"]
    assert _members(emulator, team) == {}
    bad = client.put(f"{TEAMS}/{team}/members", json={"memberships": {"u_lin": {"role": "boss"}}})
    assert bad.status_code == 400 and "memberships.u_lin.role" in bad.json()["error"]["message"]


def test_title_limits(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    assert client.put(TEAMS, json={"title": "x" * 64}).status_code == 201
    for title in ("", "x" * 65):
        response = client.put(TEAMS, json={"title": title})
        assert response.status_code == 400
        assert response.json()["error"]["message"].startswith("title: must be")
    assert client.put(TEAMS, json={}).json()["error"] == {
        "code": 400,
        "message": "title: is required",
    }


def test_writes_need_admin(emulator: EmulatorHandle) -> None:
    team = _create(emulator, "Platform")["id"]
    for token in ("tok_kim", "tok_lin", "tok_sam", "tok_guest"):
        client = emulator.client(token)
        assert client.get(f"{TEAMS}/{team}").status_code == 200
        assert client.put(TEAMS, json={"title": "Nope"}).status_code == 403
        assert client.delete(f"{TEAMS}/{team}").status_code == 403
    assert emulator.client("tok_olga").get(f"{TEAMS}/{team}").status_code == 404


def test_member_teams_lists_one_members_teams(emulator: EmulatorHandle) -> None:
    with emulator.client() as client:
        alpha = client.put(TEAMS, json={"title": "Alpha", "members": ["u_lin"]}).json()
        client.put(TEAMS, json={"title": "Beta", "members": ["u_lin", "u_sam"]})
        client.put(TEAMS, json={"title": "Gamma", "members": ["u_sam"]})
        client.put(f"{TEAMS}/{alpha['id']}/members/u_lin", json={"role": "owner"})
        answer = client.get("/v1/orgs/org_acme/members/u_lin/teams")
        assert answer.status_code == 200
        check_response("GET", "/orgs/{organizationId}/members/{userId}/teams", answer)
        roles = {i["team"]["title"]: i["member"]["role"] for i in answer.json()["items"]}
        assert roles == {"Alpha": "owner", "Beta": "member"}
        filtered = client.get("/v1/orgs/org_acme/members/u_lin/teams", params={"title": "BET"})
        assert [i["team"]["title"] for i in filtered.json()["items"]] == ["Beta"]
        assert client.get("/v1/orgs/org_acme/members/u_nobody/teams").status_code == 404

"""Grants on collections, spaces and sites over real HTTP: invite, list, PATCH, DELETE,
cascades, bad bodies and pages (who can access: test_permissions_aggregate.py); every answer
is checked against production's contract (tests/contract/plugin.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from docsync.emulator.app import EmulatorConfig
from docsync.emulator.grants import KINDS
from tests.emulator_harness import SEED, EmulatorHandle, in_process

ORG = "/v1/orgs/org_acme"
KINDS_OF_RESOURCE = ("collection", "space", "site")


@dataclass
class Target:
    """A resource created for a test: where its grants and the resource itself live."""

    kind: str
    url: str  # the resource
    client: httpx.Client

    @property
    def grants(self) -> str:
        return f"{self.url}/permissions"

    def invite(self, status: int = 204, **body: Any) -> httpx.Response:
        response = self.client.post(self.grants, json=body)
        assert response.status_code == status, response.text
        return response

    def listed(self, principals: str, **params: Any) -> dict[str, Any]:
        """`{team or user id: permission}` of one list (all of it: limit 1000)."""
        response = self.client.get(f"{self.grants}/{principals}", params={"limit": 1000, **params})
        assert response.status_code == 200, response.text
        key = principals[:-1]
        return {item[key]["id"]: item["permission"] for item in response.json()["items"]}

    def aggregate(self, **params: Any) -> dict[str, Any]:
        response = self.client.get(f"{self.grants}/aggregate", params={"limit": 1000, **params})
        assert response.status_code == 200, response.text
        return {item["user"]["id"]: item["permission"] for item in response.json()["items"]}


def make(client: httpx.Client, kind: str, **body: Any) -> Target:
    """Create a collection, space or site in org_acme."""
    if kind == "site":
        site = client.post(f"{ORG}/sites", json={"title": "Docs", **body}).json()
        return Target(kind, f"{ORG}/sites/{site['id']}", client)
    created = client.post(f"{ORG}/{kind}s", json={"title": "Engineering", **body})
    assert created.status_code == 201, created.text
    return Target(kind, f"/v1/{kind}s/{created.json()['id']}", client)


def team(client: httpx.Client, title: str, members: list[str]) -> str:
    created = client.put(f"{ORG}/teams", json={"title": title, "members": members})
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


@pytest.fixture(params=KINDS_OF_RESOURCE)
def target(request: pytest.FixtureRequest, emulator: EmulatorHandle) -> Target:
    return make(emulator.client(), request.param)


def test_invite_then_list_and_reinvite(target: Target) -> None:
    writers = team(target.client, "Writers", ["u_lin"])
    target.invite(role="edit", teams=[writers], users=["u_sam", "u_guest", "u_sam"])
    assert target.listed("teams") == {writers: "edit"}
    assert target.listed("users") == {"u_sam": "edit", "u_guest": "edit"}
    target.invite(role="read", users=["u_sam"])  # an invite sets the role of an existing grant
    assert target.listed("users") == {"u_sam": "read", "u_guest": "edit"}
    assert target.listed("teams") == {writers: "edit"}


def test_role_change_and_removal(target: Target) -> None:
    writers = team(target.client, "Writers", ["u_lin"])
    other = team(target.client, "Others", [])
    target.invite(role="read", teams=[writers], users=["u_sam"])
    client = target.client
    for path in (f"teams/{writers}", "users/u_sam"):
        assert client.patch(f"{target.grants}/{path}", json={"role": "admin"}).status_code == 204
        assert client.patch(f"{target.grants}/{path}", json={}).status_code == 204  # no change
    assert target.listed("teams") == {writers: "admin"}
    assert target.listed("users") == {"u_sam": "admin"}
    for path in (f"teams/{other}", "teams/t_nope", "users/u_lin", "users/u_nobody"):
        refused = client.patch(f"{target.grants}/{path}", json={"role": "read"})
        assert refused.status_code == 404, refused.text
        assert "has no grant on" in refused.json()["error"]["message"]
    bad = client.patch(f"{target.grants}/users/u_sam", json={"role": "boss"})
    assert bad.status_code == 400 and bad.json()["error"]["message"].startswith("role: must be")
    if target.kind == "site":  # production's site PATCH takes a MemberRole, not null
        null = client.patch(f"{target.grants}/users/u_sam", json={"role": None})
        assert null.status_code == 400 and "got null" in null.json()["error"]["message"]
    for path in (f"teams/{writers}", "users/u_sam"):
        assert client.delete(f"{target.grants}/{path}").status_code == 205
        assert client.delete(f"{target.grants}/{path}").status_code == 204
    assert client.delete(f"{target.grants}/teams/t_nope").status_code == 204
    assert target.listed("teams") == {} and target.listed("users") == {}


BAD_BODIES = [
    ({}, 400, "role: is required"),
    ({"role": "edit"}, 400, "body: give teams, users or both"),
    ({"role": "edit", "teams": []}, 400, "teams: must have at least 1 item; got 0"),
    ({"role": "boss", "users": ["u_sam"]}, 400, "role: must be one of"),
    ({"role": "edit", "users": "u_sam"}, 400, "users: must be a list of strings"),
    ({"role": "edit", "users": [7]}, 400, "users[0]: must be a string"),
    ({"role": "edit", "groups": ["g"]}, 400, "body: give teams, users or both"),
    ({"role": "edit", "users": ["u_sam", "u_nobody"]}, 404, "users[1]: no user 'u_nobody'"),
    ({"role": "edit", "teams": ["t_nope"]}, 404, "teams[0]: no team 't_nope' in organization"),
    (
        {"role": "edit", "users": ["u_olga"]},
        400,
        "users[0]: user 'u_olga' is not a member of organization 'org_acme'",
    ),
]


@pytest.mark.parametrize(("body", "status", "message"), BAD_BODIES)
def test_bad_invites_are_refused_and_write_nothing(
    target: Target, body: dict[str, Any], status: int, message: str
) -> None:
    refused = target.invite(status, **body)
    assert refused.json()["error"]["message"].startswith(message), refused.text
    assert target.listed("users") == {}
    malformed = target.client.post(target.grants, content=b"[1]")
    assert malformed.status_code == 400


def test_a_null_role_is_a_guest_override_on_a_site_and_no_role_of_its_own_on_content(
    target: Target,
) -> None:
    writers = team(target.client, "Writers", ["u_lin"])
    if target.kind == "site":
        target.invite(role=None, users=["u_sam"])
        assert target.listed("users") == {"u_sam": None}
        assert target.aggregate()["u_sam"] is None  # no access, listed: sites list every member
        return
    # production's inviteToSpace/Collection and their PATCHes take MemberRoleOrGuest, and their
    # lists answer a MemberRole: a guest grant gives no role of its own, and is not listed
    target.invite(role="edit", teams=[writers], users=["u_sam", "u_kim"])
    target.invite(role=None, teams=[writers], users=["u_sam", "u_guest"])
    assert target.listed("users") == {"u_kim": "edit"} and target.listed("teams") == {}
    assert "u_guest" not in target.aggregate()  # a guest reaches it through a grant only
    patched = target.client.patch(f"{target.grants}/users/u_kim", json={"role": None})
    assert patched.status_code == 204, patched.text
    assert target.listed("users") == {}
    gone = target.client.patch(f"{target.grants}/users/u_kim", json={"role": None})
    assert gone.status_code == 404  # as any PATCH of a grant there is not


def test_who_may_read_and_change_grants(emulator: EmulatorHandle, target: Target) -> None:
    reader = emulator.client("tok_sam")  # read
    creator = emulator.client("tok_kim")  # create
    assert reader.get(f"{target.grants}/users").status_code == 200
    for client in (reader, creator):
        refused = client.post(target.grants, json={"role": "read", "users": ["u_sam"]})
        assert refused.status_code == 403, refused.text
        assert client.delete(f"{target.grants}/users/u_sam").status_code == 403
    outsider = emulator.client("tok_olga")
    assert outsider.get(f"{target.grants}/teams").status_code == 404
    unknown = target.grants.replace(target.url.rsplit("/", 1)[1], "nope")
    assert target.client.get(f"{unknown}/users").status_code == 404
    assert target.client.post(unknown, json={"role": "read", "users": ["u_sam"]}).status_code == 404


def test_grants_go_with_their_team_member_and_resource(
    emulator: EmulatorHandle, target: Target
) -> None:
    client = target.client
    writers = team(client, "Writers", ["u_lin"])
    target.invite(role="edit", teams=[writers], users=["u_sam", "u_lin"])
    assert client.delete(f"{ORG}/teams/{writers}").status_code == 204
    assert client.get(f"{target.grants}/teams").json() == {"items": [], "count": 0}
    assert client.delete(f"{ORG}/members/u_sam").status_code == 204
    assert client.get(f"{target.grants}/users").json()["count"] == 1
    assert target.listed("users") == {"u_lin": "edit"}
    assert client.delete(target.url).status_code == 205
    assert client.get(f"{target.grants}/users").status_code == 404
    if target.kind == "space":  # a restored space comes back without its grants
        assert client.post(f"{target.url}/restore").status_code == 200
        assert target.listed("users") == {}


def test_pages(target: Target) -> None:
    users = ["u_ada", "u_lin", "u_sam", "u_kim", "u_guest"]
    teams = [team(target.client, f"Team {i}", []) for i in range(3)]
    target.invite(role="read", users=users, teams=teams)
    for principals, expected in (("users", users), ("teams", teams), ("aggregate", users)):
        seen: list[str] = []
        params: dict[str, Any] = {"limit": 2}
        while True:
            page = target.client.get(f"{target.grants}/{principals}", params=params).json()
            assert page["count"] == len(expected) and len(page["items"]) <= 2
            key = "team" if principals == "teams" else "user"
            seen += [item[key]["id"] for item in page["items"]]
            if "next" not in page:
                break
            params["page"] = page["next"]["page"]
        assert sorted(seen) == sorted(expected)
        bad = target.client.get(f"{target.grants}/{principals}", params={"page": "nope"})
        assert bad.status_code == 404 and bad.json()["error"]["message"].startswith("page:")


def test_cascades_leave_no_grant_rows_and_lists_read_no_whole_table() -> None:
    with in_process(EmulatorConfig(seed=SEED)) as (client, state):
        store = state.store
        targets = [make(client, kind) for kind in KINDS_OF_RESOURCE]
        writers = team(client, "Writers", ["u_lin"])
        for target in targets:
            target.invite(role="edit", teams=[writers], users=["u_sam", "u_lin"])
        statements: list[str] = []
        store._conn.set_trace_callback(statements.append)
        for target in targets:
            assert target.listed("teams") and target.listed("users") and target.aggregate()
        client.delete(f"{ORG}/teams/{writers}")
        client.delete(f"{ORG}/members/u_sam")
        store._conn.set_trace_callback(None)
        scans = {
            sql
            for sql in statements
            if sql.split()[0].upper() in ("SELECT", "DELETE")
            and any(
                "SCAN docs" in str(step[3])
                for step in store._conn.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall()
            )
        }
        assert not scans, f"statements reading the whole table: {sorted(scans)}"
        with store.transaction() as tx:  # only the grants of u_lin are left, one per resource
            left = [(row.kind, row.data) for row in tx.rows(list(KINDS))]
        assert left == [("user-grant", {"user": "u_lin", "role": "edit"})] * 3
        for target in targets:
            assert client.delete(target.url).status_code == 205
        with store.transaction() as tx:
            assert tx.rows(list(KINDS)) == []


@pytest.mark.parametrize("kind", KINDS_OF_RESOURCE)
def test_production_mode_serves_grants_with_no_conflict_forgiven(
    production: EmulatorHandle, kind: str
) -> None:
    with production.client() as client:
        target = make(client, kind)
        writers = team(client, "Writers", ["u_lin"])
        target.invite(role="read", teams=[writers], users=["u_sam"])
        assert (
            client.patch(f"{target.grants}/users/u_sam", json={"role": "edit"}).status_code == 204
        )
        assert target.listed("users") == {"u_sam": "edit"}
        assert target.aggregate()["u_sam"] == "edit"
        assert client.delete(f"{ORG}/teams/{writers}").status_code == 205  # production's delete
        assert target.listed("teams") == {}
        assert client.delete(f"{target.grants}/users/u_sam").status_code == 205

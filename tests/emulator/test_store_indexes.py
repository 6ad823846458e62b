"""The emulator's indexes: a request reads what it answers, not the whole organization."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

import httpx
import pytest

from docsync.emulator import store_rows
from docsync.emulator.app import EmulatorConfig
from docsync.emulator.state import EmulatorState
from docsync.emulator.store import Store
from tests.emulator_harness import in_process

TEAMS = 6


def _seed(users: int) -> dict[str, Any]:
    people = [{"id": "u_ada", "email": "Ada@Acme.example", "token": "tok_ada"}] + [
        {"id": f"u{i}", "email": f"user{i}@acme.example", "token": f"tok{i}"} for i in range(users)
    ]
    members = [{"user": "u_ada", "role": "admin"}] + [
        {"user": f"u{i}", "role": "read"} for i in range(users)
    ]
    teams = [
        {
            "id": f"team{t}",
            "organization": "org_acme",
            "title": f"Team {t}",
            "members": [f"u{(t * 3 + k) % users}" for k in range(4)],
        }
        for t in range(TEAMS)
    ]
    return {
        "users": people,
        "organizations": [{"id": "org_acme", "title": "Acme", "members": members}],
        "teams": teams,
        "spaces": [{"id": "space1", "organization": "org_acme", "title": "Guides"}],
    }


def test_batch_reads() -> None:
    store = Store()
    with store.transaction() as tx:
        tx.insert("user", "u1", {"id": "u1", "email": "Émile@X.example", "token": "t1"})
        tx.insert("user", "u2", {"id": "u2", "email": "b@x.example", "token": "t2"})
        tx.insert("member", "o/u1", {"user": "u1"}, org="o")
        tx.insert("team-member", "a/u1", {"user": "u1"}, org="o", parent="a")
        tx.insert("team-member", "b/u1", {"user": "u1"}, org="o", parent="b")
        tx.insert("team-member", "b/u2", {"user": "u2"}, org="o", parent="b")
        tx.insert("team-member", "c/u2", {"user": "u2"}, org="p", parent="c")
        assert sorted(tx.get_many("user", ["u2", "u1", "u9", "u1"])) == ["u1", "u2"]
        assert [r.id for r in tx.by_user("team-member", "o", "u1")] == ["a/u1", "b/u1"]
        assert tx.count_by_user("team-member", "o", ["u1", "u2", "u3"]) == {"u1": 2, "u2": 1}
        assert tx.count("team-member", parent="b") == 2
        assert tx.user_by_token("t2") == {"id": "u2", "email": "b@x.example", "token": "t2"}
        assert tx.user_by_token("nope") is None
        assert [u["id"] for u in tx.users_by_email("émile@x.EXAMPLE")] == ["u1"]


def _served(users: int) -> AbstractContextManager[tuple[httpx.Client, EmulatorState]]:
    return in_process(EmulatorConfig(seed=_seed(users)))


def _rows_read(monkeypatch: pytest.MonkeyPatch, users: int) -> dict[str, int]:
    """Rows each single-resource request decodes, in an organization of `users` members."""
    counted = {"rows": 0}
    real = store_rows.decode

    def counting(values: tuple[Any, ...]) -> Any:
        counted["rows"] += 1
        return real(values)

    monkeypatch.setattr(store_rows, "decode", counting)
    base = "/v1/orgs/org_acme"
    requests = [
        ("GET", "/v1/user", None),
        ("GET", f"{base}/members/u3", None),
        ("GET", f"{base}/teams/team1/members", None),
        ("GET", f"{base}/members/u3/teams", None),
        ("PUT", f"{base}/teams", {"title": "New", "members": ["USER4@acme.example"]}),
        ("PUT", f"{base}/teams/team2/members", {"add": ["u7"], "remove": ["u6"]}),
        ("POST", "/v1/spaces/space1/permissions", {"role": "edit", "users": ["u4", "u5"]}),
        ("POST", "/v1/spaces/space1/permissions", {"role": "read", "teams": ["team1", "team3"]}),
        ("GET", "/v1/spaces/space1/permissions/users", None),
        ("GET", "/v1/spaces/space1/permissions/teams", None),
        ("PATCH", "/v1/spaces/space1/permissions/users/u4", {"role": "admin"}),
        ("DELETE", "/v1/spaces/space1/permissions/teams/team3", None),
        ("DELETE", f"{base}/members/u5", None),  # and its grant
        ("DELETE", f"{base}/teams/team1", None),  # and its grant
    ]
    read: dict[str, int] = {}
    with _served(users) as (client, _):
        for method, path, body in requests:
            before = counted["rows"]
            answer = client.request(method, path, json=body)
            assert answer.status_code < 300, (method, path, answer.text)
            read[f"{method} {path}"] = counted["rows"] - before
    return read


def test_single_resource_requests_do_not_grow_with_the_organization(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert _rows_read(monkeypatch, 300) == _rows_read(monkeypatch, 30)


def test_lists_answer_from_batch_reads_without_scanning_the_table() -> None:
    statements: list[str] = []
    base = "/v1/orgs/org_acme"
    with _served(30) as (client, state):
        conn = state.store._conn
        conn.set_trace_callback(statements.append)
        members = client.get(f"{base}/members", params={"limit": 1000, "sort": "name"})
        teams = client.get(f"{base}/teams")
        mine = client.get(f"{base}/members/u3/teams")
        team = client.put(f"{base}/teams", json={"title": "New", "members": ["u1"]})
        conn.set_trace_callback(None)
        assert [a.status_code for a in (members, teams, mine, team)] == [200, 200, 200, 201]
        by_id = {m["id"]: m for m in members.json()["items"]}
        assert len(by_id) == 31
        assert by_id["u3"]["teams"] == 2
        assert by_id["u1"]["user"]["email"] == "user1@acme.example"
        assert [t["members"] for t in teams.json()["items"]] == [4] * TEAMS
        assert [i["team"]["title"] for i in mine.json()["items"]] == ["Team 0", "Team 1"]
        scans = set()
        for sql in statements:
            if sql.split()[0].upper() in ("SELECT", "UPDATE", "DELETE", "INSERT"):
                plan = conn.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall()
                if any("SCAN docs" in str(step[3]) for step in plan):
                    scans.add(sql)
    assert not scans, f"statements reading the whole table: {sorted(scans)}"


def _structure_steps(sites: int) -> int:
    """SQLite VM steps of a site's structure read (after a write: nothing remembered), in an
    organization of `sites` sites of 3 sections x 2 site spaces each."""
    seed = _seed(30)
    seed["spaces"] = [
        {"id": f"sp{i}", "organization": "org_acme", "title": f"Space {i}"} for i in range(6)
    ]
    base = "/v1/orgs/org_acme/sites"
    with in_process(EmulatorConfig(seed=seed)) as (client, state):
        ids = []
        for s in range(sites):
            site = client.post(base, json={"title": f"Site {s}"}).json()["id"]
            ids.append(site)
            for k in range(3):
                section = client.post(f"{base}/{site}/sections", json={"spaceId": f"sp{k}"})
                body = {"spaceId": f"sp{k + 3}", "sectionId": section.json()["id"]}
                assert client.post(f"{base}/{site}/site-spaces", json=body).status_code == 201
        assert client.put("/v1/orgs/org_acme/teams", json={"title": "T"}).status_code == 201
        conn = state.store._conn
        steps = {"n": 0}

        def step() -> int:
            steps["n"] += 1
            return 0

        conn.set_progress_handler(step, 1)
        structure = client.get(f"{base}/{ids[0]}/structure")
        conn.set_progress_handler(None, 1)
    sections = structure.json()["structure"]
    assert [len(s["siteSpaces"]) for s in sections] == [2, 2, 2]
    return steps["n"]


def test_a_structure_read_does_not_grow_with_the_organization() -> None:
    # a step or two apart: sorting a level's rows by (position, random id) compares them in
    # another order; reading every site space of the organization would double the steps
    assert _structure_steps(12) < _structure_steps(2) * 1.1

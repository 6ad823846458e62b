"""State across restarts (`--db`) and under concurrent writes."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.emulator_harness import EmulatorHandle, start_emulator

TEAMS = "/v1/orgs/org_acme/teams"


def test_db_file_persists_and_is_seeded_once(tmp_path: Path) -> None:
    db = str(tmp_path / "state.db")
    with start_emulator(db=db) as first:
        client = first.client()
        assert client.put(TEAMS, json={"title": "Platform"}).status_code == 201
        client.patch("/v1/orgs/org_acme/members/u_lin", json={"role": "read"})
        client.delete("/v1/spaces/space_handbook")
    with start_emulator(db=db) as second:
        client = second.client()
        assert [t["title"] for t in client.get(TEAMS).json()["items"]] == ["Platform"]
        assert client.get("/v1/orgs/org_acme/members/u_lin").json()["role"] == "read"
        assert client.get("/v1/spaces/space_handbook").json()["deletedAt"]
    with start_emulator() as fresh:
        assert fresh.client().get(TEAMS).json()["count"] == 0


def test_fifty_concurrent_creates_make_fifty_teams(emulator: EmulatorHandle) -> None:
    def create(i: int) -> int:
        with emulator.client() as client:
            return client.put(TEAMS, json={"title": f"Team {i}"}).status_code

    with ThreadPoolExecutor(max_workers=50) as pool:
        statuses = list(pool.map(create, range(50)))
    assert statuses == [201] * 50
    items = emulator.client().get(TEAMS, params={"limit": 1000}).json()["items"]
    assert sorted(t["title"] for t in items) == sorted(f"Team {i}" for i in range(50))
    assert len({t["id"] for t in items}) == 50

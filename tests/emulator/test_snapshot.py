"""A snapshot as a seed (docsync.emulator.snapshot): what is not one is refused naming why, a
read no route loads names its path, and `docsync emulator --seed` serves one in production's
mode, saying whose token reads it."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from docsync.emulator.app import EmulatorConfig, create_app
from docsync.emulator.errors import SeedError
from docsync.emulator.seed import load_seed

RUN = "from docsync.cli import main; main()"
ORG = {"id": "org_x", "title": "X", "createdAt": "2026-01-01T00:00:00.000Z"}
MEMBER = {
    "id": "u_x",
    "role": "admin",
    "user": {"object": "user", "id": "u_x", "displayName": "X", "email": "x@x.example"},
    "joinedAt": "2026-01-01T00:00:00.000Z",
}


def snapshot(**reads: Any) -> dict[str, Any]:
    found = {"/v1/orgs": [ORG], "/v1/orgs/org_x/members": [MEMBER], **reads}
    document = {"format": "docsync-snapshot/1", "organization": "org_x", "user": "u_x"}
    return {"snapshot": {**document, "reads": found}}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "docsync-snapshot/0"}, "not a snapshot of this docsync (expected format"),
        ({"organization": ""}, "snapshot.organization: is required"),
        ({"user": 7}, "snapshot.user: must be a user id"),
        ({"reads": {"orgs": []}}, "snapshot.reads: must map API paths (/v1/...)"),
    ],
)
def test_what_is_not_a_snapshot_is_refused_naming_why(change: dict[str, Any], message: str) -> None:
    seed = snapshot()
    seed["snapshot"].update(change)
    with pytest.raises(SeedError, match=re.escape(message)):
        load_seed(seed)


def test_a_read_no_route_loads_is_refused_naming_its_path() -> None:
    seed = snapshot(**{"/v1/orgs/org_x/tomorrow": []})
    with pytest.raises(SeedError, match=r"no route of this emulator loads what /v1/orgs/org_x/"):
        create_app(EmulatorConfig(seed=seed, contract="production"))


def _answered(url: str, headers: dict[str, str]) -> httpx.Response:
    """The answer of a server that is starting (it prints its URL, then listens)."""
    deadline = time.monotonic() + 15
    while True:
        try:
            return httpx.get(url, headers=headers, timeout=2)
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_the_cli_serves_a_snapshot_in_productions_mode_with_its_readers_token(
    tmp_path: Path,
) -> None:
    path = tmp_path / "emulator-seed.json"
    path.write_text(json.dumps(snapshot()), "utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-c", RUN, "emulator", "--port", "0", "--seed", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().split()[2]
        assert proc.stdout.readline() == "snapshot of org_x: its reader's DOCSYNC_TOKEN=tok_u_x\n"
        headers = {"Authorization": "Bearer tok_u_x"}
        (org,) = _answered(f"{url}/v1/orgs", headers).json()["items"]
        assert (org["id"], org["title"], org["createdAt"]) == ("org_x", "X", ORG["createdAt"])
        space = {"title": "New", "emoji": "1f4d8"}  # production's mode: a relative location
        created = httpx.post(f"{url}/v1/orgs/org_x/spaces", headers=headers, json=space, timeout=10)
        assert created.json()["urls"]["location"].startswith("/spaces/")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

"""`docsync emulator` as a subprocess, and the seed format."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import yaml

from docsync.emulator.errors import SeedError
from docsync.emulator.seed import default_seed, load_seed, parse_seed
from tests.emulator_harness import SEED

RUN = "from docsync.cli import main; main()"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait(url: str, proc: subprocess.Popen[bytes]) -> httpx.Response:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        try:
            return httpx.get(url, headers={"Authorization": "Bearer tok_ada"}, timeout=1)
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError("the emulator did not answer within 15 s")


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_cli_serves_and_stops_on_signal(tmp_path: Path, stop: signal.Signals) -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            RUN,
            "emulator",
            "--port",
            str(port),
            "--seed",
            str(SEED),
            "--db",
            str(tmp_path / "e.db"),
            "--fault-seed",
            "3",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        answer = _wait(f"http://127.0.0.1:{port}/v1/orgs", proc)
        assert answer.status_code == 200 and answer.json()["items"][0]["id"] == "org_acme"
        proc.send_signal(stop)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.stdout is not None and b"http://127.0.0.1" in proc.stdout.read()


def test_cli_rejects_bad_options(tmp_path: Path) -> None:
    bad = tmp_path / "seed.yaml"
    bad.write_text("users: [{id: u}]\n")
    for args in (["--seed", str(bad)], ["--fail-429", "2"]):
        result = subprocess.run(
            [sys.executable, "-c", RUN, "emulator", *args], capture_output=True, timeout=30
        )
        assert result.returncode != 0
        assert b"Error" in result.stderr


def test_packaged_seed_is_the_example_seed() -> None:
    assert default_seed() == yaml.safe_load(SEED.read_text("utf-8"))
    assert load_seed(None) == load_seed(SEED)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- a", "a seed is a mapping"),
        ("users: [{id: u}]", "users[0]: token is required"),
        ("users: 3", "users must be a list"),
        ("sites: []", "unknown top-level keys"),
        ("organizations: [{id: o, title: O, members: [{user: ghost}]}]", "members[0]"),
        ("spaces: [{id: s, title: S, organization: nope}]", "organization must name"),
        ("{", "not valid YAML"),
    ],
)
def test_seed_errors_name_the_entry(text: str, message: str) -> None:
    with pytest.raises(SeedError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_seed(text, "seed.yaml")


def test_seed_extensions_collections_and_teams() -> None:
    seed = yaml.safe_load(SEED.read_text("utf-8"))
    seed["collections"] = [{"id": "col_dev", "organization": "org_acme", "title": "Dev"}]
    seed["spaces"].append(
        {"id": "space_api", "organization": "org_acme", "title": "API", "parent": "col_dev"}
    )
    seed["teams"] = [
        {"id": "team_core", "organization": "org_acme", "title": "Core", "members": ["u_ada"]}
    ]
    assert load_seed(seed) is seed
    seed["teams"][0]["members"] = ["u_ghost"]
    with pytest.raises(SeedError, match="members must name seeded user ids"):
        load_seed(seed)


def test_broken_seed_yaml_is_located() -> None:
    with pytest.raises(SeedError) as caught:
        parse_seed("users:\n  - {id: [\n", "seed.yaml")
    assert str(caught.value).startswith("seed.yaml:3:1: not valid YAML: ")
    assert "<unicode string>" not in str(caught.value)


def test_cli_busy_port_is_one_line_and_no_url() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-c", RUN, "emulator", "--port", str(port)],
            capture_output=True,
            timeout=30,
        )
    assert result.returncode == 1
    assert b"http://" not in result.stdout
    message = result.stderr.decode().strip()
    assert message.startswith(f"Error: cannot listen on 127.0.0.1:{port}: ")
    assert len(message.splitlines()) == 1 and "Traceback" not in message


def test_cli_port_zero_takes_a_free_port_and_prints_it() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", RUN, "emulator", "--port", "0", "--seed", str(SEED)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().decode()
        url = line.split()[2]
        assert url.startswith("http://127.0.0.1:") and not url.endswith(":0")
        answer = _wait(f"{url}/v1/orgs", proc)
        assert answer.status_code == 200
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

"""Fault injection over real HTTP: reproducible 429/5xx, dropped writes, rate limits, rules."""

from __future__ import annotations

import socket
import time
from urllib.parse import urlsplit

import httpx
import pytest

from docsync.emulator.faults import RATE_LIMIT_MESSAGE
from tests.emulator_harness import EmulatorHandle

TEAMS = "/v1/orgs/org_acme/teams"


def _statuses(emulator: EmulatorHandle, seed: int) -> list[int]:
    emulator.reset()
    emulator.set_faults(fail_429=0.25, fail_5xx=0.25, seed=seed)
    with emulator.client() as client:
        return [client.get(TEAMS).status_code for _ in range(40)]


def test_same_seed_gives_the_same_faults(emulator: EmulatorHandle) -> None:
    first = _statuses(emulator, 7)
    assert first == _statuses(emulator, 7)
    assert {200, 429} <= set(first) and set(first) & {500, 503}
    assert set(first) <= {200, 429, 500, 503}
    assert first != _statuses(emulator, 8)


def test_429_has_retry_after_and_production_message(emulator: EmulatorHandle) -> None:
    emulator.set_faults(fail_429=1.0, retry_after=3)
    response = emulator.client().get(TEAMS)
    assert response.status_code == 429 and response.headers["Retry-After"] == "3"
    assert response.json() == {"error": {"code": 429, "message": RATE_LIMIT_MESSAGE}}
    stats = emulator.stats()
    assert stats["faults"] == {"429": 1}
    assert stats["requests"] == {"GET /v1/orgs/{organizationId}/teams": 1}


def test_5xx_does_not_run_the_request(emulator: EmulatorHandle) -> None:
    emulator.set_faults(fail_5xx=1.0)
    response = emulator.client().put(TEAMS, json={"title": "Lost"})
    assert response.status_code in (500, 503) and response.json()["error"]["code"] in (500, 503)
    emulator.set_faults()
    assert emulator.client().get(TEAMS).json()["count"] == 0


def test_dropped_write_is_committed(emulator: EmulatorHandle) -> None:
    emulator.set_faults(drop_after_commit=1.0)
    with pytest.raises(httpx.TransportError):
        emulator.client().put(TEAMS, json={"title": "Committed"})
    assert emulator.client().get(TEAMS).status_code == 200  # reads are never dropped
    emulator.set_faults()
    titles = [t["title"] for t in emulator.client().get(TEAMS).json()["items"]]
    assert titles == ["Committed"]


def test_failed_writes_are_not_dropped(emulator: EmulatorHandle) -> None:
    emulator.set_faults(drop_after_commit=1.0)
    response = emulator.client().put(TEAMS, json={"title": ""})
    assert response.status_code == 400


def test_a_client_gone_before_its_request_was_read_is_not_answered(
    emulator: EmulatorHandle,
) -> None:
    url = urlsplit(emulator.url)
    with socket.create_connection((url.hostname, url.port)) as raw:
        raw.sendall(
            b"PUT " + TEAMS.encode() + b" HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok_ada\r\n"
            b'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"title": '
        )
        time.sleep(0.1)  # the emulator is waiting for the rest of the body
    emulator.wait_idle()  # no 500 traceback, no answer the contract checker would refuse
    assert emulator.client().get(TEAMS).json()["count"] == 0


def test_reset_waits_for_what_a_gone_client_sent(emulator: EmulatorHandle) -> None:
    emulator.set_faults(latency=500)
    with pytest.raises(httpx.TimeoutException):
        emulator.client().put(TEAMS, json={"title": "Late"}, timeout=0.1)
    emulator.reset()
    time.sleep(0.6)  # when "Late" would have landed had the reset not waited for it
    assert emulator.client().get(TEAMS).json()["count"] == 0


def test_rate_limit_budget_and_window(emulator: EmulatorHandle) -> None:
    emulator.set_faults(rate_limit=3, rate_window=60)
    client = emulator.client()
    answers = [client.get(TEAMS) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["2", "1", "0", "0"]
    assert all(a.headers["X-RateLimit-Limit"] == "3" for a in answers)
    reset = int(answers[0].headers["X-RateLimit-Reset"])
    assert 0 < reset - time.time() <= 61
    assert answers[3].json()["error"]["message"] == RATE_LIMIT_MESSAGE
    emulator.advance_clock(61)
    assert client.get(TEAMS).status_code == 200


def test_latency(emulator: EmulatorHandle) -> None:
    emulator.set_faults(latency=300)
    started = time.monotonic()
    emulator.client().get(TEAMS)
    assert time.monotonic() - started >= 0.3


def test_rule_fails_one_specific_request(emulator: EmulatorHandle) -> None:
    emulator.set_faults(rules=[{"method": "PUT", "path": "/teams$", "status": 500, "count": 1}])
    client = emulator.client()
    assert client.get(TEAMS).status_code == 200
    failed = client.put(TEAMS, json={"title": "A"})
    assert failed.status_code == 500 and failed.json()["error"]["message"] == "Injected failure"
    assert client.put(TEAMS, json={"title": "B"}).status_code == 201
    assert [t["title"] for t in client.get(TEAMS).json()["items"]] == ["B"]


def test_control_api(emulator: EmulatorHandle) -> None:
    emulator.set_faults(fail_5xx=1.0)
    assert httpx.get(f"{emulator.url}/_emulator/stats").status_code == 200  # never faulted
    current = httpx.get(f"{emulator.url}/_emulator/faults").json()
    assert current["fail_5xx"] == 1.0
    for body in ({"fail_429": 2}, {"bogus": 1}, {"latency": -1}, {"rules": [{"path": "("}]}):
        response = httpx.put(f"{emulator.url}/_emulator/faults", json=body)
        assert response.status_code == 400, body
    assert httpx.post(f"{emulator.url}/_emulator/clock", json={"advance": "x"}).status_code == 400
    bad_seed = httpx.post(f"{emulator.url}/_emulator/reset", json={"users": "nope"})
    assert bad_seed.status_code == 400
    emulator.reset()
    assert httpx.get(f"{emulator.url}/_emulator/faults").json()["fail_5xx"] == 0

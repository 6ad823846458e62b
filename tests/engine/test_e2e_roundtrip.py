"""Apply then plan is empty, for manifests covering every organization-level kind; exit codes;
request counts; confirmation; and the token and certificate never printed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.kit import (
    CERT,
    TOKEN,
    Docsync,
    apply_ok,
    assert_converged,
    cli_env,
    listed,
    requests_between,
)

MANIFESTS = Path(__file__).resolve().parent / "manifests"
FULL = MANIFESTS / "full"
CASES = {
    "everything": [FULL],
    "org-and-teams": [FULL / "org.yaml", FULL / "teams.yaml"],
    "content": [FULL / "content.yaml"],
    "teams-only": [MANIFESTS / "teams-only.yaml"],
    "settings-only": [MANIFESTS / "settings-only.yaml"],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_apply_then_plan_is_empty(docsync: Docsync, name: str) -> None:
    paths = CASES[name]
    before = docsync("plan", *paths, "--detailed-exitcode")
    assert before.exit_code == 2, before.output
    apply_ok(docsync, *paths)
    assert_converged(docsync, *paths)
    again = docsync("apply", *paths, "--auto-approve")
    assert again.exit_code == 0 and "No changes." in again.stdout


def test_everything_reaches_the_live_state(docsync: Docsync, emulator: EmulatorHandle) -> None:
    apply_ok(docsync, FULL)
    org = "/v1/orgs/org_acme"
    with emulator.client() as client:
        settings = client.get(org).json()
    assert settings["defaultRole"] == "read" and settings["inviteLinks"] is False
    roles = {m["user"]["email"]: m["role"] for m in listed(emulator, f"{org}/members")}
    assert roles["sam@acme.example"] == "create" and roles["guest@partner.example"] is None
    teams = {t["title"]: t["id"] for t in listed(emulator, f"{org}/teams")}
    assert sorted(teams) == ["Observers", "Platform", "Writers"]
    platform = listed(emulator, f"{org}/teams/{teams['Platform']}/members")
    assert {m["organization"]["id"]: m["team"]["role"] for m in platform} == {
        "u_ada": "member",
        "u_lin": "owner",
    }
    writers = listed(emulator, f"{org}/teams/{teams['Writers']}/members")
    assert {m["organization"]["id"]: m["team"]["role"] for m in writers} == {
        "u_kim": "member",
        "u_sam": "owner",
    }
    (okta,) = listed(emulator, f"{org}/saml")
    assert okta["defaultTeam"]["id"] == teams["Platform"]
    collections = {c["title"]: c for c in listed(emulator, f"{org}/collections")}
    assert collections["Deep"]["parent"] == collections["Internal"]["id"]
    assert collections["Internal"]["parent"] == collections["Developers"]["id"]
    spaces = {s["title"]: s for s in listed(emulator, f"{org}/spaces")}
    assert spaces["Archive"]["parent"] == collections["Deep"]["id"]
    assert spaces["Runbooks"]["editMode"] == "locked"
    assert not spaces["Loose Notes"].get("parent")
    assert [o["slug"] for o in listed(emulator, f"{org}/openapi")] == ["public-api"]
    assert sorted(t["title"] for t in listed(emulator, f"{org}/translations")) == [
        "French",
        "German",
    ]


def test_detailed_exitcode_is_one_on_error(docsync: Docsync, write: object) -> None:
    bad = MANIFESTS / "teams-only.yaml"
    result = docsync("plan", bad, "--detailed-exitcode", env={"DOCSYNC_TOKEN": "tok_wrong"})
    assert result.exit_code == 1, result.output
    assert "Error:" in result.stderr


def test_plan_without_detailed_exitcode_is_zero_with_changes(docsync: Docsync) -> None:
    result = docsync("plan", FULL)
    assert result.exit_code == 0, result.output
    assert "to create" in result.stdout and "No changes" not in result.stdout


def test_apply_without_terminal_refuses_and_changes_nothing(
    docsync: Docsync, emulator: EmulatorHandle
) -> None:
    before = emulator.stats()
    result = docsync("apply", FULL / "teams.yaml")
    assert result.exit_code == 1
    assert "--auto-approve" in result.stderr
    writes = [k for k in requests_between(before, emulator.stats()) if not k.startswith("GET")]
    assert writes == []
    assert listed(emulator, "/v1/orgs/org_acme/teams") == []


def test_plan_request_count_is_fixed(docsync: Docsync, emulator: EmulatorHandle) -> None:
    """One list call per kind (and per managed team's members): never one read per resource."""
    apply_ok(docsync, FULL)
    before = emulator.stats()
    result = docsync("plan", FULL, "-v")
    assert result.exit_code == 0, result.output
    made = requests_between(before, emulator.stats())
    # Who the token is, for the member guards.
    assert made.pop("GET /v1/user") == 1
    org = "GET /v1/orgs/{organizationId}"
    assert made == {
        "GET /v1/orgs": 1,
        f"{org}/members": 1,
        f"{org}/teams": 1,
        f"{org}/teams/{{teamId}}/members": 2,  # Platform and Writers write `members`
        f"{org}/saml": 1,
        f"{org}/collections": 1,
        f"{org}/spaces": 1,
        f"{org}/openapi": 1,
        f"{org}/translations": 1,
        f"{org}/sites": 1,  # settings may name a site as defaultContent
    }, made
    assert "plan: 12 requests (0 retries) in " in result.stderr
    assert "\n       2  GET /v1/orgs/{organizationId}/teams/{teamId}/members\n" in result.stderr
    assert "apply: about 0 requests" in result.stderr


def _console(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "docsync"
    return subprocess.run(
        [str(script), *args],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.slow
def test_console_script_apply_then_plan(emulator: EmulatorHandle) -> None:
    env = cli_env(emulator)
    paths = [str(FULL / "org.yaml"), str(FULL / "teams.yaml")]
    applied = _console(["apply", *paths, "--auto-approve"], env)
    assert applied.returncode == 0, applied.stderr
    assert "Apply finished: " in applied.stdout
    planned = _console(["plan", *paths, "--detailed-exitcode"], env)
    assert planned.returncode == 0, planned.stdout + planned.stderr


@pytest.mark.slow
def test_secrets_never_printed_even_with_vv(emulator: EmulatorHandle) -> None:
    env = cli_env(emulator)
    paths = [str(FULL)]
    runs = [
        _console(["plan", *paths, "-vv"], env),
        _console(["apply", *paths, "--auto-approve", "-vv"], env),
        _console(["plan", *paths, "-vv"], env),
        _console(["plan", *paths, "-vv"], {**env, "DOCSYNC_TOKEN": TOKEN + "x"}),
    ]
    assert runs[1].returncode == 0, runs[1].stderr
    assert "DEBUG" in runs[0].stderr  # -vv really is verbose
    assert runs[3].returncode == 1
    for run in runs:
        for secret in (TOKEN, CERT):
            assert secret not in run.stdout
            assert secret not in run.stderr

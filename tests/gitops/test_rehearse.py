"""Rehearsal (issue 42): a saved plan made against an emulator standing in for production (its
production mode) rehearses on a copy of it, a snapshot the emulator serves, then applies to it
and plans empty; a plan that breaks its promise rehearses red, naming the action; the copy is
the organization as docsync reads it, ids kept, and the organization is only ever read."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from docsync import snapshot
from docsync.api import ApiClient
from docsync.core.state import LiveState
from docsync.emulator.state import iso
from docsync.engine.planner import read_live
from docsync.kinds import KINDS
from docsync.manifest import load_manifests
from tests.contract.plugin import TALLY
from tests.emulator_harness import start_emulator
from tests.engine.rich import EXAMPLE as RICH
from tests.engine.rich import STAGES
from tests.engine.test_e2e_production_answers import SYNCED, seeded
from tests.gitops.bench_orgs import applied_seed, bench_org
from tests.kit import (
    ORG,
    REPO,
    EmulatorHandle,
    apply_ok,
    assert_converged,
    cli_env,
    cli_for,
    invoke,
    listed,
    yaml_text,
)

ACME = REPO / "examples" / "acme"
KEY = {"DOCSYNC_PLAN_KEY": "rehearsal-key-0123456789"}
KEPT = "Rehearsed: applies, next plan empty."


def _writes(emulator: EmulatorHandle) -> dict[str, int]:
    """The writes the emulator answered since its last reset, by route."""
    calls: dict[str, int] = emulator.stats()["requests"]
    return {call: n for call, n in calls.items() if not call.startswith("GET ")}


def _comparable(value: Any) -> Any:
    """What a read holds, without where it was answered from (URLs), activity and the parts
    a read keeps inside another (`_` slots); None for what is not an answer (a site's tree)."""
    if isinstance(value, dict):
        return {
            k: _comparable(v)
            for k, v in value.items()
            if k not in ("urls", "lastSeenAt") and not str(k).startswith("_")
        }
    if isinstance(value, list):
        return [_comparable(v) for v in value]
    return value if value is None or isinstance(value, str | int | float | bool) else None


def _read(url: str, token: str) -> LiveState:
    async def read() -> LiveState:
        async with ApiClient(url, token) as api:
            live, _ = await read_live(api, "org_acme", None, KINDS)
        return live

    return asyncio.run(read())


def _as_read(live: LiveState) -> dict[str, Any]:
    """Every resource docsync read: its id, fields and the parts read with it."""
    return {
        address: (
            r.id,
            r.fields,
            {k: _comparable(v) for k, v in r.raw.items() if k.startswith("_")},
        )
        for address, r in live.by_address.items()
    }


@pytest.mark.slow
def test_a_snapshot_reads_back_as_the_organization_read(
    production: EmulatorHandle, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every kind the rich example writes, in production's mode: what docsync reads of the copy
    is what it read of the organization, ids kept, once the manifests' secrets are put back;
    until then each secret is a placeholder, and none is in the snapshot."""
    monkeypatch.setenv("DOCSYNC_PLAN_KEY", KEY["DOCSYNC_PLAN_KEY"])
    docsync = cli_for(production, **KEY)
    for stage in STAGES:
        apply_ok(docsync, RICH, "--var", f"stage={stage}")
    exported = docsync(
        "export", "--org", "org_acme", "--format", "emulator-seed", "--out", tmp_path
    )
    assert exported.exit_code == 0, exported.output
    text = (tmp_path / "emulator-seed.json").read_text("utf-8")
    loaded = load_manifests([RICH], variables={"stage": STAGES[-1]})
    for secret in ("MIIC...demo", "demo-client-secret", "G-DEMO", "https://acme.example/login"):
        assert secret in loaded.secrets or secret in json.dumps(loaded.manifest.model_dump())
        assert secret not in text
    seed = json.loads(text)
    written = snapshot.texts(loaded.manifest.model_dump(mode="json"))
    restored = snapshot.restore(seed, [*written, *loaded.secrets])
    organization = _as_read(_read(production.url, "tok_ada"))
    with start_emulator(seed=restored, contract="production") as copy:
        assert _as_read(_read(copy.url, "tok_u_ada")) == organization
    with start_emulator(seed=seed, contract="production") as copy:
        unrestored = _as_read(_read(copy.url, "tok_u_ada"))
    saml = next(
        fields for address, (_, fields, _) in unrestored.items() if address.startswith("saml")
    )
    assert saml["certificate"].startswith("docsync-secret-")
    assert {a: i for a, (i, _, _) in unrestored.items()} == {
        a: i for a, (i, _, _) in organization.items()
    }


#: the examples whose plan from scratch rehearses green, then applies and plans empty, each with
#: the seed of the organization it is planned against (an example added to examples/ is one more
#: entry: none needs code of its own)
EXAMPLES: dict[str, tuple[Path, Path | None]] = {
    "acme": (ACME, None),
    "multilingual": (ACME.parent / "multilingual", ACME.parent / "multilingual-seed.yaml"),
}


@pytest.mark.parametrize("case", list(EXAMPLES.values()), ids=list(EXAMPLES))
def test_an_examples_plan_rehearses_green_then_applies_and_plans_empty(
    production: EmulatorHandle, tmp_path: Path, case: tuple[Path, Path | None]
) -> None:
    example, seed = case
    if seed is not None:
        production.reset(yaml.safe_load(seed.read_text("utf-8")))
    docsync = cli_for(production, **KEY)
    saved = tmp_path / "plan.json"
    assert docsync("plan", example, "--out", saved).exit_code == 0
    rehearsed = docsync("rehearse", "--plan", saved)
    assert rehearsed.exit_code == 0, rehearsed.output
    assert rehearsed.stdout.rstrip().endswith(KEPT)
    assert " 0 failed, 0 skipped." in rehearsed.stdout
    assert _writes(production) == {}  # the organization was only read
    markdown = docsync("rehearse", "--plan", saved, "--format", "markdown")
    assert markdown.stdout.startswith("**Rehearsed: applies, next plan empty**"), markdown.output
    applied = docsync("apply", "--plan", saved)
    assert applied.exit_code == 0 and "0 failed, 0 skipped" in applied.stdout, applied.output
    assert_converged(docsync, example)


def test_a_plan_production_would_not_keep_rehearses_red_naming_the_action(
    production: EmulatorHandle, tmp_path: Path
) -> None:
    """The hand-made case: a site that writes `agentsContext`, the API description's field,
    which production's site does not have. Planned against production it is an update; applied
    there it goes through (production ignores a field its body does not name), and the next
    plan is that update again, for ever. The rehearsal says so before production sees it."""
    docsync = cli_for(production, **KEY)
    apply_ok(docsync, ACME)
    before = _writes(production)
    manifests = tmp_path / "manifests"
    manifests.mkdir()
    for source in ACME.glob("*.yaml"):
        text = source.read_text("utf-8")
        if source.name == "sites.yaml":
            text = text.replace(
                "    visibility: share-link\n",
                "    visibility: share-link\n    agentsContext: included\n",
            )
        (manifests / source.name).write_text(text, "utf-8")
    saved = tmp_path / "plan.json"
    assert docsync("plan", manifests, "--out", saved).exit_code == 0
    rehearsed = docsync("rehearse", "--plan", saved, "--format", "markdown")
    assert rehearsed.exit_code == 1, rehearsed.output
    assert rehearsed.stdout.startswith(
        "**Rehearsed: applies, but the next plan still changes 1 thing(s)**"
    )
    assert '- `update site["Handbook"] (agentsContext)`' in rehearsed.stdout
    assert '[1/1] ok      update site["Handbook"]' in rehearsed.stderr
    assert _writes(production) == before
    # what a copy checked as production is sent: a field production's document does not name
    (sent,) = TALLY.expected()
    assert "agentsContext" in str(sent), sent


def test_a_write_production_refuses_rehearses_red_naming_the_action(
    production: EmulatorHandle, tmp_path: Path
) -> None:
    """Demoting the organization's only admin: the lockout rail refuses the plan (red, nothing
    applied); forced past it, production refuses the write (409), and the rehearsal names it."""
    docsync = cli_for(production, **KEY)
    manifest = tmp_path / "org.yaml"
    manifest.write_text(
        "organization: org_acme\nmembers:\n  - {email: ada@acme.example, role: edit}\n"
    )
    saved = tmp_path / "plan.json"
    assert docsync("plan", manifest, "--force", "--out", saved).exit_code == 0
    refused = docsync("rehearse", "--plan", saved)
    assert refused.exit_code == 1, refused.output
    assert "Rehearsed: refused before anything was applied." in refused.stdout
    assert "Refused: " in refused.stdout and "admin" in refused.stdout
    forced = docsync("rehearse", "--plan", saved, "--force", "--format", "markdown")
    assert forced.exit_code == 1, forced.output
    assert forced.stdout.startswith("**Rehearsed: does not apply (0 done, 1 failed, 0 skipped)**")
    line = next(line for line in forced.stdout.splitlines() if line.startswith("- `failed"))
    assert line.startswith('- `failed update member["ada@acme.example"]: ')
    assert "409" in line and "last admin" in line
    assert _writes(production) == {}


def test_a_stale_plan_is_refused_as_apply_refuses_it(
    production: EmulatorHandle, tmp_path: Path
) -> None:
    docsync = cli_for(production, **KEY)
    saved = tmp_path / "plan.json"
    assert docsync("plan", ACME, "--out", saved).exit_code == 0
    with production.client() as client:
        assert client.put(f"{ORG}/teams", json={"title": "Writers"}).status_code == 201
    rehearsed = docsync("rehearse", "--plan", saved)
    assert rehearsed.exit_code == 1, rehearsed.output
    assert 'team["Writers"]: created since the plan was made' in rehearsed.stdout
    assert "Rehearsed: refused before anything was applied." in rehearsed.stdout


def test_a_pseudonymized_snapshot_holds_no_email_and_still_rehearses(
    production: EmulatorHandle, tmp_path: Path
) -> None:
    docsync = cli_for(production, **KEY)
    apply_ok(docsync, ACME)
    writers = next(t["id"] for t in listed(production, f"{ORG}/teams") if t["title"] == "Writers")
    with production.client() as client:  # the plan creates it again, with members by email
        assert client.delete(f"{ORG}/teams/{writers}").status_code == 205
    exported = docsync(
        "export",
        "--org",
        "org_acme",
        "--format",
        "emulator-seed",
        "--pseudonymize",
        "--out",
        tmp_path,
    )
    assert exported.exit_code == 0, exported.output
    seed = tmp_path / "emulator-seed.json"
    text = seed.read_text("utf-8")
    emails = {m["user"]["email"] for m in listed(production, f"{ORG}/members")}
    assert emails and not any(email in text for email in emails)
    reads = json.loads(text)["snapshot"]["reads"]
    members = {m["id"]: m["user"]["email"] for m in reads[f"{ORG}/members"]}
    assert all(re.fullmatch(r"m-[0-9a-f]{16}@pseudonym\.example", e) for e in members.values())
    for path, answer in reads.items():  # a team's members are the same pseudonyms
        if path.endswith("/members") and "/teams/" in path:
            for item in answer:
                assert item["organization"]["user"]["email"] == members[item["organization"]["id"]]
    saved = tmp_path / "plan.json"
    assert docsync("plan", ACME, "--out", saved).exit_code == 0
    rehearsed = docsync("rehearse", "--plan", saved, "--seed", seed)
    assert rehearsed.exit_code == 0, rehearsed.output
    assert 'ok      create team["Writers"]' in rehearsed.stdout
    assert rehearsed.stdout.rstrip().endswith(KEPT)


def test_what_is_not_a_snapshot_of_the_plans_organization_is_refused(
    production: EmulatorHandle, tmp_path: Path
) -> None:
    docsync = cli_for(production, **KEY)
    saved = tmp_path / "plan.json"
    assert docsync("plan", ACME, "--out", saved).exit_code == 0
    seed = REPO / "examples" / "emulator-seed.yaml"
    refused = docsync("rehearse", "--plan", saved, "--seed", seed)
    assert refused.exit_code == 1
    assert "is an emulator seed, not a snapshot of an organization" in refused.stderr
    other = tmp_path / "other.json"
    exported = docsync("export", "--org", "org_acme", "--format", "emulator-seed")
    document = json.loads(exported.stdout)
    document["snapshot"]["organization"] = "org_other"
    other.write_text(json.dumps(document), "utf-8")
    refused = docsync("rehearse", "--plan", saved, "--seed", other)
    assert refused.exit_code == 1
    assert "the snapshot is of organization 'org_other', the saved plan of 'org_acme'" in (
        refused.stderr
    )


@pytest.mark.slow
def test_a_snapshot_of_a_3k_organization_rehearses_green_then_applies_and_plans_empty(
    production: EmulatorHandle, tmp_path: Path
) -> None:
    org = bench_org(3000)
    # the organization as its manifest's apply leaves it (tests/gitops/test_bench_orgs.py), as
    # docsync reads it: what is rehearsed is the change that follows
    production.reset(applied_seed(org, iso(datetime.now(UTC))))
    docsync = cli_for(production, **KEY)
    manifest = org.manifest()
    path = tmp_path / "org.yaml"
    path.write_text(yaml_text(manifest, sort_keys=False), "utf-8")
    assert_converged(docsync, path)
    for member in manifest["members"][1:21]:  # a change: roles, a team, a site of two sections
        member["role"] = "comment"
    manifest["teams"].append({"title": "Rehearsed", "members": [manifest["members"][1]["email"]]})
    spaces = [space["title"] for space in manifest["spaces"][:2]]
    manifest["sites"].append(
        {
            "title": "Rehearsed site",
            "sections": [
                {"title": f"Part {k}", "siteSpaces": [{"space": space, "path": "p"}]}
                for k, space in enumerate(spaces)
            ],
        }
    )
    path.write_text(yaml_text(manifest, sort_keys=False), "utf-8")
    saved = tmp_path / "plan.json"
    planned = docsync("plan", path, "--out", saved)
    assert planned.exit_code == 0 and "Plan: 6 to create, 20 to update" in planned.stdout
    rehearsed = docsync("rehearse", "--plan", saved)  # on a snapshot of what the plan reads
    assert rehearsed.exit_code == 0, rehearsed.output
    assert "26 done, 0 failed, 0 skipped" in rehearsed.stdout
    assert rehearsed.stdout.rstrip().endswith(KEPT)
    applied = docsync("apply", "--plan", saved)
    assert applied.exit_code == 0 and "26 done, 0 failed, 0 skipped" in applied.stdout
    assert_converged(docsync, path)


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "kill-9"])
def test_no_copy_outlives_its_rehearsal(
    production: EmulatorHandle,
    tmp_path: Path,
    stop: signal.Signals,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C during the apply on the copy ends the rehearsal as an interrupted apply ends
    (130, nothing started after it), kill -9 ends the process: either way the copy, which
    lives in the process, answers no more."""
    org = bench_org(1000)
    production.reset(org.seed())
    members = [{"email": m["email"], "role": "comment"} for m in org.seed()["users"][1:]]
    manifest = tmp_path / "org.yaml"
    manifest.write_text(yaml.safe_dump({"organization": "org_acme", "members": members}), "utf-8")
    env = {**os.environ, **cli_env(production), **KEY}
    saved = tmp_path / "plan.json"
    with monkeypatch.context() as here:  # planned in-process: the rehearsal's process is checked
        here.chdir(tmp_path)
        assert invoke(env, "plan", manifest, "--out", saved).exit_code == 0
    command = [sys.executable, "-c", "from docsync.cli import main; main()"]
    rehearsing = subprocess.Popen(
        [*command, "rehearse", "--plan", saved, "-v"],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert rehearsing.stderr is not None and rehearsing.stdout is not None
    copy = next(line for line in rehearsing.stderr if line.startswith("The copy: ")).split()[2]
    assert next(line for line in rehearsing.stdout if line.startswith("Applying its"))
    rehearsing.send_signal(stop)
    out, _ = rehearsing.communicate(timeout=60)
    if stop == signal.SIGINT:
        assert rehearsing.returncode == 130, out
        assert "Rehearsed: interrupted (" in out and "not started)." in out
    else:
        assert rehearsing.returncode == -signal.SIGKILL
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{copy}/v1/orgs", timeout=2)


def test_a_plan_that_reads_no_member_rehearses_as_an_admin_standing_in(
    production: EmulatorHandle, tmp_path: Path
) -> None:
    """Manifests that name no member read none, so the snapshot holds no one: the copy is used
    by an admin standing in for the apply token's user, whom no plan of it reads."""
    docsync = cli_for(production, **KEY)
    manifest = tmp_path / "content.yaml"
    manifest.write_text("organization: org_acme\nspaces:\n  - {title: Rehearsed, emoji: 1f4d8}\n")
    saved = tmp_path / "plan.json"
    assert docsync("plan", manifest, "--out", saved).exit_code == 0
    rehearsed = docsync("rehearse", "--plan", saved)
    assert rehearsed.exit_code == 0, rehearsed.output
    assert "as member docsync-rehearsal:" in rehearsed.stdout
    assert 'ok      create space["Rehearsed"]' in rehearsed.stdout
    assert rehearsed.stdout.rstrip().endswith(KEPT)


def test_paths_beside_the_plan_must_be_its_own_manifests(
    production: EmulatorHandle, tmp_path: Path
) -> None:
    docsync = cli_for(production, **KEY)
    saved = tmp_path / "plan.json"
    assert docsync("plan", ACME, "--out", saved).exit_code == 0
    assert docsync("rehearse", ACME, "--plan", saved).exit_code == 0
    other = docsync("rehearse", ACME / "teams.yaml", "--plan", saved)
    assert other.exit_code == 2
    assert "a saved plan is rehearsed with its own manifests (leave PATH out)" in other.stderr


def test_a_space_synced_through_the_older_integration_stays_so_on_the_copy(
    production: EmulatorHandle, tmp_path: Path
) -> None:
    """Production's state the document does not describe (a space's Git Sync through the older
    GitHub integration) is kept by a snapshot, as the seed's `spaces[].gitSync` keeps it."""
    production.reset(seeded(SYNCED))
    docsync = cli_for(production, **KEY)
    exported = docsync("export", "--org", "org_acme", "--format", "emulator-seed")
    assert exported.exit_code == 0, exported.output
    with production.client() as client:
        answered = client.get("/v1/spaces/space_api").json()
    seed = json.loads(exported.stdout)
    with start_emulator(seed=seed, contract="production") as copy, copy.client("tok_u_ada") as read:
        copied = read.get("/v1/spaces/space_api").json()
    assert copied["gitSync"] == answered["gitSync"]
    assert "installationId" not in copied["gitSync"]
    assert _comparable(copied) == _comparable(answered)

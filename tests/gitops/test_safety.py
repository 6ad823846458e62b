"""Safety rails: each refused, then allowed with --force; `protect: true` never; and
`--detailed-exitcode` (0 no changes, 2 changes, 1 error, usage errors included)."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest
import yaml

from docsync.api import ApiClient
from docsync.core.model import Action, FieldChange, Plan
from docsync.core.state import LiveResource, LiveState
from docsync.engine import run
from docsync.engine.safety import SafetyPolicy, check, deletion_threshold, lockout
from docsync.manifest import LoadedManifest, load_manifests
from tests.emulator_harness import EmulatorHandle
from tests.gitops.conftest import HAS_ME, NO_ME, SEED, Cli, reset, write

TEAMS = [f"Team {i:02}" for i in range(10)]


def teams_manifest(keep: list[str]) -> str:
    return "organization: org_acme\nprune: [teams]\nteams:\n" + "".join(
        f"  - {{title: {t}}}\n" for t in keep
    )


def seed_ten_teams(emulator: EmulatorHandle) -> None:
    seed = yaml.safe_load(yaml.safe_dump(SEED))
    seed["teams"] = [
        {"id": f"team_{i:02}", "organization": "org_acme", "title": t} for i, t in enumerate(TEAMS)
    ]
    emulator.reset(seed)


def test_deletion_threshold_refused_then_forced(
    cli: Cli, acme: EmulatorHandle, in_tmp: Path
) -> None:
    seed_ten_teams(acme)
    path = write(in_tmp / "t.yaml", teams_manifest(TEAMS[:6]))  # deletes 4 of 10
    for command in (["plan"], ["apply", "--auto-approve"]):
        result = cli(*command, path)
        assert result.exit_code == 1, result.output
        assert "deletes or replaces 4 of 10 team resources (40%)" in result.stderr
        assert "more than the 30% allowed" in result.stderr and "--force" in result.stderr
    result = cli("apply", path, "--auto-approve", "--force")
    assert result.exit_code == 0, result.output
    assert "Warning: forced past a safety rail" in result.stderr
    assert cli("plan", path, "--detailed-exitcode").exit_code == 0


def test_deletion_threshold_boundaries() -> None:
    live = LiveState({"id": "org_acme"})
    for i in range(10):
        live.add(LiveResource("team", f"t{i}", f"T{i}", f'team["T{i}"]', f"T{i}", {}))
    policy = SafetyPolicy()

    def deleting(n: int, kind: str = "team") -> Plan:
        return Plan("org_acme", [Action("delete", kind, f'{kind}["T{i}"]') for i in range(n)])

    assert deletion_threshold(deleting(3), live, policy) == []  # 30% is not more than 30%
    assert len(deletion_threshold(deleting(4), live, policy)) == 1
    few = LiveState({"id": "org_acme"})
    for i in range(9):
        few.add(LiveResource("team", f"t{i}", f"T{i}", f'team["T{i}"]', f"T{i}", {}))
    assert deletion_threshold(deleting(9), few, policy) == []  # fewer than 10 exist


def test_a_share_of_zero_means_none_however_few_exist() -> None:
    """`--max-delete-share 0` reads as "no deletes": it held only from 10 live resources on."""
    live = LiveState({"id": "org_acme"})
    for i in range(3):
        live.add(LiveResource("team", f"t{i}", f"T{i}", f'team["T{i}"]', f"T{i}", {}))
    deleting = Plan("org_acme", [Action("delete", "team", 'team["T0"]')])
    updating = Plan("org_acme", [Action("update", "team", 'team["T1"]')])
    none = SafetyPolicy.from_manifest(None, max_delete_share=0.0)
    assert deletion_threshold(deleting, live, none) == [
        "the plan deletes or replaces 1 of 3 team resources, and the share allowed is 0 (none)"
    ]
    assert deletion_threshold(updating, live, none) == []
    frozen = SafetyPolicy(update_share=0.0)
    assert deletion_threshold(updating, live, frozen) == [
        "the plan updates 1 of 3 team resources, and the share allowed is 0 (none)"
    ]
    assert deletion_threshold(deleting, live, SafetyPolicy(delete_share=0.1)) == []


def test_removing_another_member_is_refused_only_when_the_token_user_is_unknown(
    cli: Cli, acme: EmulatorHandle, in_tmp: Path
) -> None:
    path = write(
        in_tmp / "m.yaml",
        "organization: org_acme\nmembers: [{email: sam@acme.example, state: absent}]\n",
    )
    result = cli("apply", path, "--auto-approve")
    if HAS_ME:  # the token is ada's: removing sam locks nobody out
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 1, result.output
    assert 'member["sam@acme.example"]' in result.stderr and "GET /v1/user" in result.stderr
    result = cli("apply", path, "--auto-approve", "--force")
    assert result.exit_code == 0, result.output


def test_the_last_admin_is_refused_then_forced_past_the_rail(
    cli: Cli, acme: EmulatorHandle, in_tmp: Path
) -> None:
    path = write(
        in_tmp / "a.yaml",
        "organization: org_acme\nmembers: [{email: ada@acme.example, role: edit}]\n",
    )
    result = cli("plan", path)
    assert result.exit_code == 1
    assert "without an admin" in result.stderr
    forced = cli("plan", path, "--force", "--detailed-exitcode")
    assert forced.exit_code == 2, forced.output  # the emulator itself still refuses it (409)
    assert "Warning: forced past a safety rail: the plan leaves" in forced.stderr


def test_disabling_sso_is_refused_then_forced(cli: Cli, acme: EmulatorHandle, in_tmp: Path) -> None:
    reset(acme, sso=True)
    path = write(in_tmp / "s.yaml", "organization: org_acme\nsettings: {sso: false}\n")
    result = cli("apply", path, "--auto-approve")
    assert result.exit_code == 1
    assert "settings: disables SSO enforcement" in result.stderr
    assert cli("apply", path, "--auto-approve", "--force").exit_code == 0


@pytest.mark.xfail(not HAS_ME, reason=NO_ME, strict=True)
def test_enforcing_sso_while_the_token_user_is_no_sso_member_is_refused(
    cli: Cli, acme: EmulatorHandle, in_tmp: Path
) -> None:
    path = write(in_tmp / "s.yaml", "organization: org_acme\nsettings: {sso: true}\n")
    result = cli("plan", path)
    assert result.exit_code == 1
    assert "enforces SSO while the API token's user is not an SSO member" in result.stderr
    assert cli("plan", path, "--force").exit_code == 0


@pytest.mark.xfail(not HAS_ME, reason=NO_ME, strict=True)
def test_removing_the_saml_provider_of_an_sso_token_user_is_refused(
    cli: Cli, acme: EmulatorHandle, in_tmp: Path
) -> None:
    """No `members:` in the manifest: the rail must read the members anyway."""
    seed = yaml.safe_load(yaml.safe_dump(SEED))
    seed["organizations"][0]["members"][0]["sso"] = True
    acme.reset(seed)
    with acme.client() as client:
        assert client.post("/v1/orgs/org_acme/saml", json={"label": "Okta"}).is_success
    path = write(in_tmp / "p.yaml", "organization: org_acme\nprune: [saml]\n")
    result = cli("plan", path)
    assert result.exit_code == 1
    assert "signs in with SSO" in result.stderr
    assert cli("plan", path, "--force").exit_code == 0


@pytest.mark.xfail(not HAS_ME, reason=NO_ME, strict=True)
def test_removing_the_token_users_own_membership_names_it(
    cli: Cli, acme: EmulatorHandle, in_tmp: Path
) -> None:
    path = write(
        in_tmp / "m.yaml",
        "organization: org_acme\nmembers:\n  - {email: lin@acme.example, role: admin}\n"
        "  - {email: ada@acme.example, state: absent}\n",
    )
    result = cli("plan", path)
    assert result.exit_code == 1
    assert "is the API token's own user" in result.stderr


def test_sso_rails_read_the_members_even_without_a_members_section(
    acme: EmulatorHandle, in_tmp: Path
) -> None:
    """Without the members (and GET /v1/user) the SSO and SAML rails cannot see the token user."""

    for text in ("settings: {sso: true}\n", "prune: [saml]\n"):
        loaded = load_manifests([write(in_tmp / "x.yaml", "organization: org_acme\n" + text)])

        async def fetched(loaded: LoadedManifest) -> set[str]:
            env = {"DOCSYNC_TOKEN": "tok_ada"}
            async with ApiClient.from_options(acme.url, 4, env) as api:
                _, live = await run.plan(api, loaded)
            return live.fetched

        assert "member" in asyncio.run(fetched(loaded)), text


def _live_with_me(sso_member: bool) -> LiveState:
    live = LiveState({"id": "org_acme"})
    for uid, role in (("u_ada", "admin"), ("u_lin", "admin")):
        raw = {"id": uid, "role": role, "sso": sso_member and uid == "u_ada"}
        live.add(LiveResource("member", uid, uid, f'member["{uid}"]', uid, {"role": role}, raw))
    live.me = "u_ada"
    return live


def test_lockout_rules_when_the_token_user_is_known() -> None:
    def actions(*items: Action) -> Plan:
        return Plan("org_acme", list(items))

    own = Action("delete", "member", 'member["u_ada"]', live_id="u_ada")
    other = Action("delete", "member", 'member["u_lin"]', live_id="u_lin")
    enforce = Action("update", "settings", "settings", [FieldChange("sso", False, True)])
    saml = Action("delete", "saml", 'saml["Okta"]')
    assert any("token's own user" in p for p in lockout(actions(own), _live_with_me(False)))
    assert lockout(actions(other), _live_with_me(False)) == []
    assert lockout(actions(enforce), _live_with_me(True)) == []
    assert any("not an SSO member" in p for p in lockout(actions(enforce), _live_with_me(False)))
    assert lockout(actions(saml), _live_with_me(False)) == []
    assert any("signs in with SSO" in p for p in lockout(actions(saml), _live_with_me(True)))
    forced = check(actions(own), _live_with_me(False), SafetyPolicy(force=True))
    assert len(forced) == 1


def test_protect_is_refused_even_with_force(cli: Cli, acme: EmulatorHandle, in_tmp: Path) -> None:
    site = "organization: org_acme\nsites: [{title: Blog, type: %s, protect: true}]\n"
    assert cli("apply", write(in_tmp / "s.yaml", site % "basic"), "--auto-approve").exit_code == 0
    cases = {
        "t.yaml": "organization: org_acme\n"
        "teams: [{title: Legacy, state: absent, protect: true}]\n",
        "s.yaml": site % "premium",  # a type change replaces the site
    }
    for name, text in cases.items():
        path = write(in_tmp / name, text)
        for command in (["plan", "--force"], ["apply", "--auto-approve", "--force"]):
            result = cli(*command, path)
            assert result.exit_code == 1, result.output
            assert "protect" in result.stderr and "Traceback" not in result.output
    with acme.client() as client:
        teams = client.get("/v1/orgs/org_acme/teams").json()["items"]
    assert "Legacy" in {t["title"] for t in teams}


# -- --detailed-exitcode -----------------------------------------------------------------------
def test_detailed_exitcode_zero_two_one(cli: Cli, acme: EmulatorHandle, in_tmp: Path) -> None:
    same = write(in_tmp / "same.yaml", "organization: org_acme\nteams: [{title: Platform}]\n")
    more = write(in_tmp / "more.yaml", "organization: org_acme\nteams: [{title: New}]\n")
    assert cli("plan", same, "--detailed-exitcode").exit_code == 0
    assert cli("plan", more, "--detailed-exitcode").exit_code == 2
    assert cli("plan", more).exit_code == 0  # without the flag, changes are a success
    for fmt in ("markdown", "json"):
        assert cli("plan", more, "--detailed-exitcode", "--format", fmt).exit_code == 2
    bad = write(in_tmp / "bad.yaml", "organization: org_acme\nteams: [{titel: X}]\n")
    assert cli("plan", bad, "--detailed-exitcode").exit_code == 1
    gone = write(in_tmp / "gone.yaml", "organization: org_nowhere\n")
    assert cli("plan", gone, "--detailed-exitcode").exit_code == 1
    wrong = cli("plan", more, "--detailed-exitcode", env={"DOCSYNC_TOKEN": "tok_wrong"})
    assert wrong.exit_code == 1


@pytest.mark.parametrize(
    "args",
    [["missing.yaml"], ["same.yaml", "--format", "xml"], ["same.yaml", "--no-such-option"]],
)
def test_usage_errors_exit_one_not_two_with_detailed_exitcode(
    cli: Cli, in_tmp: Path, args: list[str]
) -> None:
    """Click exits 2 on usage errors, which CI would read as "changes present"."""
    write(in_tmp / "same.yaml", "organization: org_acme\n")
    assert cli("plan", "--detailed-exitcode", *args).exit_code == 1
    assert cli("plan", *args).exit_code == 2  # click's own code without the flag


def test_the_deletion_threshold_is_set_by_the_manifest_and_the_command_line(
    cli: Cli, acme: EmulatorHandle, in_tmp: Path
) -> None:
    seed_ten_teams(acme)
    text = teams_manifest(TEAMS[:6])  # deletes 4 of 10
    write(in_tmp / "t.yaml", text + "safety: {kinds: {teams: {max_delete_share: 0.4}}}\n")
    assert cli("plan", "t.yaml").exit_code == 0
    result = cli("plan", "t.yaml", "--max-delete-share", "35%")  # wins over the manifest
    assert result.exit_code == 1 and "more than the 35% allowed" in result.stderr
    write(in_tmp / "t.yaml", text + "safety: {max_delete_share: 0.1, min_existing: 11}\n")
    assert cli("plan", "t.yaml").exit_code == 0  # fewer than 11 teams exist
    write(in_tmp / "t.yaml", text)
    assert cli("plan", "t.yaml", "--max-delete-share", "0.5").exit_code == 0
    bad = cli("plan", "t.yaml", "--max-delete-share", "150%")
    assert bad.exit_code == 2 and "between 0 and 1" in bad.stderr
    write(in_tmp / "t.yaml", text + "safety: {max_delete_share: 2}\n")
    result = cli("validate", "t.yaml")
    assert result.exit_code == 1 and "t.yaml:10:28: safety.max_delete_share" in result.stderr


def test_an_update_threshold_is_off_unless_set() -> None:
    live = LiveState({"id": "org_acme"})
    for i in range(10):
        live.add(LiveResource("team", f"t{i}", f"T{i}", f'team["T{i}"]', f"T{i}", {}))
    updating = Plan("org_acme", [Action("update", "team", f'team["T{i}"]') for i in range(6)])
    assert deletion_threshold(updating, live, SafetyPolicy()) == []
    loaded = load_manifests_text(
        "organization: org_acme\nsafety: {max_update_share: 0.5, kinds: {saml: {}}}\n"
    )
    policy = SafetyPolicy.from_manifest(loaded.manifest.safety)
    assert deletion_threshold(updating, live, policy) == [
        "the plan updates 6 of 10 team resources (60%), more than the 50% allowed"
    ]
    assert policy.limits("saml").update_share == 0.5  # a kind's block starts from the rest


def load_manifests_text(text: str) -> LoadedManifest:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.yaml"
        path.write_text(text, encoding="utf-8")
        return load_manifests([str(path)])

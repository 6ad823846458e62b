"""The CI example copied into a new repository with examples/acme as its manifests, run as
GitHub would run it (tests/gitops/actions_runner.py), through the docsync Action (this
checkout's action.yml, its steps expanded), against the emulator's two organizations,
with the secrets and variable files the example documents: a pull request plans both
environments with the read-only plan token, rehearses each plan on a copy of its organization
and comments each plan headed by what the rehearsal found; its merge applies the reviewed (and
rehearsed) plans with the apply token of each protected environment, staging first, after
which both organizations match the manifests. A fork's pull request gets a comment and no
plan."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.gitops.actions_runner import Event, Hub, JobRun, machine_env
from tests.gitops.ci import BIN, REPO, copy_into, missing, node
from tests.gitops.conftest import STAGING
from tests.kit import cli_for, listed

#: The secrets docsync.yml's header documents: repository secrets for the read-only jobs,
#: and each environment's own apply token. sam is a read-only member, ada an admin.
REPOSITORY_SECRETS = {
    "DOCSYNC_PLAN_TOKEN_STAGING": "tok_sam",
    "DOCSYNC_PLAN_TOKEN_PRODUCTION": "tok_sam",
    "DOCSYNC_PLAN_KEY": "k-0123456789abcdef",
    "OKTA_CERT_STAGING": "MIIC-staging-certificate",
    "OKTA_CERT_PRODUCTION": "MIIC-production-certificate",
}
ENVIRONMENT_SECRETS = {
    "staging": {"DOCSYNC_TOKEN": "tok_ada"},
    "production": {"DOCSYNC_TOKEN": "tok_ada"},
}
#: examples/acme names org_acme unless its `organization` variable says otherwise
VAR_FILES = {"staging": f"organization: {STAGING}\n", "production": "organization: org_acme\n"}
PULL = {"number": 7, "head": {"repo": {"full_name": "acme/docs"}}}


@pytest.fixture
def hub(staging_and_production: EmulatorHandle, tmp_path: Path) -> Hub:
    if not (BIN / "docsync").exists():
        missing("this environment's docsync command is not there")
    repository = copy_into(tmp_path / "repo", REPO / "examples" / "acme", VAR_FILES)
    return Hub(
        repo=repository,
        workdir=tmp_path / "runs",
        secrets=REPOSITORY_SECRETS,
        environments=ENVIRONMENT_SECRETS,
        # The one difference from GitHub's runners: this machine's API is the emulator.
        machine=machine_env(BIN, tmp_path, DOCSYNC_API_URL=staging_and_production.url),
        node=node(),
    )


def outcomes(runs: list[JobRun]) -> list[tuple[str, Any, str]]:
    return [(r.job, r.environment or r.matrix.get("environment"), r.outcome) for r in runs]


def comments(hub: Hub, number: int) -> dict[str, str]:
    """The pull request's comments by their hidden marker."""
    found = {}
    for comment in hub.state.get("comments", {}).get(str(number), []):
        marker = comment["body"].rsplit("<!-- ", 1)[1].split(" -->")[0]
        found[marker] = comment["body"]
    return found


def teams(emulator: EmulatorHandle, org: str) -> set[str]:
    return {t["title"] for t in listed(emulator, f"/v1/orgs/{org}/teams")}


@pytest.mark.slow
def test_a_copy_of_the_example_plans_reviews_and_applies_staging_then_production(
    hub: Hub, staging_and_production: EmulatorHandle
) -> None:
    emulator = staging_and_production
    pull = Event("pull_request", {"pull_request": PULL}, ref="refs/pull/7/merge", sha="pr7head")
    planned = hub.run("docsync.yml", pull)
    assert outcomes(planned) == [("plan", "staging", "success"), ("plan", "production", "success")]
    action = [
        ("actions/setup-python", "success"),
        ("Install docsync from the action's commit", "success"),
        ("Run docsync", "success"),
    ]
    for run in planned:  # the read-only token; the text plan in the job's log
        assert run.env["DOCSYNC_TOKEN"] == "tok_sam"
        planning, rehearsing = [s for s in run.steps if s.name == "Run docsync"]
        assert '+ create team["Platform"]' in planning.stdout
        # the saved plan applied to a copy of the organization, which only was read
        assert '[29/29] ok      publish site["Developer Docs"]' in rehearsing.stderr
        # The Action's steps ran inside the job's steps "Plan" then "Rehearse", each after them.
        assert [(s.name.split("@")[0], s.outcome) for s in run.steps] == [
            ("actions/checkout", "success"),
            *action,
            ("Keep the reviewed plan", "skipped"),  # a plan is kept once rehearsed
            ("Write the comment", "success"),
            ("Post the plan as one sticky comment", "success"),
            ("Fail when docsync failed", "skipped"),
            ("Plan", "success"),
            *action,
            ("Keep the reviewed plan", "success"),
            ("Write the comment", "success"),
            ("Post the plan as one sticky comment", "success"),
            ("Fail when docsync failed", "skipped"),
            ("Rehearse", "success"),
            ("Say how to apply this run's plans", "skipped"),
        ]
    posted = comments(hub, 7)
    assert set(posted) == {"docsync-plan:staging", "docsync-plan:production"}
    for body in posted.values():  # the plan, headed by what its rehearsal found
        assert body.startswith("**Rehearsed: applies, next plan empty** (on a copy of Acme")
    assert f"### docsync plan for Acme (staging) ({STAGING})" in posted["docsync-plan:staging"]
    artifact = "[artifact `docsync-plan-7-production`](https://github.com/acme/docs/actions/runs"
    assert f"{artifact}/4242/artifacts/2)" in posted["docsync-plan:production"]
    names = [a["name"] for a in hub.state["artifacts"]]
    assert names == ["docsync-plan-7-staging", "docsync-plan-7-production"]
    assert teams(emulator, STAGING) == teams(emulator, "org_acme") == set()  # nothing applied

    hub.state["pulls"] = {"m3rg3": [{"number": 7, "merged_at": "2026-11-25T10:00:00Z"}]}
    merged = hub.run("docsync.yml", Event("push", sha="m3rg3"))
    assert outcomes(merged) == [("apply", "staging", "success"), ("apply", "production", "success")]
    for run in merged:  # each environment's own apply token, and its reviewed plan
        assert run.env["DOCSYNC_TOKEN"] == "tok_ada"
        applied = run.step("Run docsync").stdout  # the plan being applied, then its outcome
        assert '+ create team["Platform"]' in applied and "0 failed, 0 skipped" in applied
        assert run.summary.startswith("### docsync plan for Acme")  # and in the job's summary
    assert teams(emulator, STAGING) == teams(emulator, "org_acme") == {"Platform", "Writers"}
    for environment, var_file in (
        ("staging", "vars/staging.yaml"),
        ("production", "vars/production.yaml"),
    ):
        cert = REPOSITORY_SECRETS[f"OKTA_CERT_{environment.upper()}"]
        docsync = cli_for(emulator, OKTA_CERT=cert)
        converged = docsync("plan", hub.repo / "manifests", "--var-file", hub.repo / var_file)
        assert "No changes." in converged.stdout, converged.output


def test_a_fork_gets_a_comment_and_never_a_plan(hub: Hub) -> None:
    fork = {"number": 9, "head": {"repo": {"full_name": "someone/docs"}}}
    assert hub.run("docsync.yml", Event("pull_request", {"pull_request": fork})) == []
    commented = hub.run("docsync.yml", Event("pull_request_target", {"pull_request": fork}))
    assert outcomes(commented) == [("fork", None, "success")]
    (body,) = comments(hub, 9).values()
    assert "**docsync has not planned this pull request.** It comes from a fork" in body
    assert "Run workflow with `pull_request` set to 9" in body
    again = hub.run("docsync.yml", Event("pull_request_target", {"pull_request": fork}))
    assert outcomes(again) == [("fork", None, "success")] and len(comments(hub, 9)) == 1

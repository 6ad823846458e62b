"""The shell steps of the CI example and of the docsync Action one at a time, as GitHub runs them
(`bash -eo pipefail`), against the emulator, on the paths the whole run (test_ci_run.py) does
not take: a failed plan, drift told from no drift and from an error, an apply without a
reviewed plan, and the comment of a 3,000-action plan, which stays under GitHub's limit and
names what the artifact holds."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from docsync.render.budget import DEFAULT_BUDGET, GITHUB_LIMIT
from docsync.render.json import render_json
from tests.emulator_harness import EmulatorHandle
from tests.gitops.actions_standins import run_shell
from tests.gitops.big_plans import migration
from tests.gitops.ci import BIN, action_step, missing, step
from tests.gitops.conftest import TOKEN, write
from tests.kit import ORG

MANIFEST = """\
organization: org_acme
teams:
  - {title: Platform, members: [ada@acme.example]}
  - {title: Writers}
"""


def run_step(
    emulator: EmulatorHandle, where: Path, script: str, **env: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, str], str]:
    """A `run:` script as the runner runs it, in `where` (the checkout) against the emulator."""
    environ = {
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(where),
        "DOCSYNC_API_URL": emulator.url,
        "DOCSYNC_TOKEN": TOKEN,
        "DOCSYNC_ENVIRONMENT": "production",
        "NO_COLOR": "1",
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_REPOSITORY": "acme/docs",
        "GITHUB_RUN_ID": "4242",
    }
    return run_shell(script, where, {**environ, **env})


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A repository checkout: manifests/ (one team to create against the GitOps seed) and the
    production environment's variable file."""
    if not (BIN / "docsync").exists():
        missing("this environment's docsync command is not there")
    repository = tmp_path / "checkout"  # the step's output and summary files go beside it
    (repository / "manifests").mkdir(parents=True)
    (repository / "vars").mkdir()
    write(repository / "manifests" / "teams.yaml", MANIFEST)
    write(repository / "vars" / "production.yaml", "{}\n")
    return repository


#: the environment the docsync Action gives its "Run docsync" step for the plan job's inputs
PLAN = {
    "COMMAND": "plan",
    "PATHS": "manifests/",
    "VAR_FILES": "vars/production.yaml",
    "PLAN_FILE": "plan.json",
    "AUTO_APPROVE": "false",
}
RUN = action_step("Run docsync")["run"]
COMMENT = action_step("Write the comment")["run"]


def comment_env(**given: str) -> dict[str, str]:
    """The "Write the comment" step's environment: the plan's outputs and the inputs."""
    return {
        "COMMAND": "plan",
        "PLANNED": "",
        "PLAN_FILE": "",
        "MARKDOWN_FILE": "",
        "ARTIFACT": "",
        "ARTIFACT_URL": "",
        "ENVIRONMENT": "production",
        **given,
    }


def test_a_failed_plan_puts_its_error_in_the_comment_keeps_no_artifact_and_fails(
    acme: EmulatorHandle, checkout: Path
) -> None:
    write(checkout / "manifests" / "teams.yaml", "organization: org_acme\nteams: {bogus: 1}\n")
    done, outputs, _ = run_step(acme, checkout, RUN, **PLAN)
    assert done.returncode == 0 and outputs == {"exitcode": "1", "failed": "true"}
    assert "::error title=docsync plan failed::docsync plan exited 1 (see the log)" in done.stdout
    assert not (checkout / "plan.md").exists()
    done, written, summary = run_step(acme, checkout, COMMENT, **comment_env())
    assert done.returncode == 0, done.stderr
    text = Path(written["file"]).read_text("utf-8")
    assert text.startswith("**docsync plan failed:**\n\n```\n") and "teams.yaml" in text
    assert text.endswith("<!-- docsync-plan:production -->\n") and "artifact" not in text
    assert summary == text
    keep = action_step("Keep the reviewed plan")["if"]
    assert "steps.run.outputs.planned == 'true'" in keep
    assert "(inputs.command == 'plan' || steps.run.outputs.rehearsed == 'true')" in keep
    fail = action_step("Fail when docsync failed")
    assert (fail["if"], fail["run"]) == ("steps.run.outputs.failed == 'true'", "exit 1")


def test_a_plan_saves_the_plan_and_its_whole_markdown_and_the_comment_names_the_artifact(
    acme: EmulatorHandle, checkout: Path
) -> None:
    done, outputs, _ = run_step(acme, checkout, RUN, **PLAN)
    assert done.returncode == 0, done.stderr
    assert outputs == {
        "exitcode": "2",
        "planned": "true",
        "plan-file": "plan.json",
        "markdown-file": "plan.md",
        "has-changes": "true",
    }
    assert '+ create team["Writers"]' in done.stderr + done.stdout
    whole = (checkout / "plan.md").read_text("utf-8")
    assert whole.startswith("### docsync plan for Acme (org_acme)") and "Left out" not in whole
    artifact = {"ARTIFACT": "docsync-plan-run-4242-production", "ARTIFACT_URL": "u"}
    planned = {"PLANNED": "true", "PLAN_FILE": "plan.json", "MARKDOWN_FILE": "plan.md"}
    done, written, _ = run_step(acme, checkout, COMMENT, **comment_env(**planned, **artifact))
    assert done.returncode == 0, done.stderr
    assert (
        Path(written["file"])
        .read_text("utf-8")
        .endswith(
            "Environment `production` · the text plan: the log of "
            "[this run](https://github.com/acme/docs/actions/runs/4242)\n"
            "· the reviewed plan: [artifact `docsync-plan-run-4242-production`](u)\n"
            "<!-- docsync-plan:production -->\n"
        )
    )
    # Run workflow planning main: the summary says how to apply exactly these plans.
    said = step("plan", "Say how to apply this run's plans")
    assert said["if"] == "env.PR == '' && steps.rehearse.outputs.artifact-url != ''"
    done, _, summary = run_step(acme, checkout, said["run"], PR="")
    assert done.returncode == 0, done.stderr
    assert summary.endswith("Run workflow on main with plan_run `4242`.\n")


def test_a_rehearsal_that_breaks_the_promise_heads_the_comment_keeps_no_plan_and_fails(
    acme: EmulatorHandle, checkout: Path
) -> None:
    """The plan made, then the organization changed by hand: the rehearsal refuses the stale
    plan, as apply would; the comment says so above the plan, and nothing is kept to apply."""
    done, _, _ = run_step(acme, checkout, RUN, **PLAN)
    assert done.returncode == 0, done.stderr
    with acme.client() as client:
        assert client.put(f"{ORG}/teams", json={"title": "Writers"}).status_code == 201
    done, outputs, _ = run_step(acme, checkout, RUN, **{**PLAN, "COMMAND": "rehearse"})
    assert done.returncode == 0, done.stderr
    assert outputs == {
        "exitcode": "1",
        "planned": "true",
        "plan-file": "plan.json",
        "markdown-file": "plan.md",
        "rehearsed": "false",
        "failed": "true",
    }
    assert "::error title=docsync rehearse failed::docsync rehearse exited 1" in done.stdout
    planned = {"PLANNED": "true", "PLAN_FILE": "plan.json", "MARKDOWN_FILE": "plan.md"}
    env = comment_env(COMMAND="rehearse", **planned)
    done, written, _ = run_step(acme, checkout, COMMENT, **env)
    assert done.returncode == 0, done.stderr
    text = Path(written["file"]).read_text("utf-8")
    assert text.startswith(
        "**Rehearsed: refused before anything was applied** (Acme (org_acme), read before any "
        "copy was made)."
    )
    assert 'team["Writers"]: created since the plan was made' in text
    assert "\n### docsync plan for Acme (org_acme)" in text and "artifact" not in text


def test_a_3000_action_plans_comment_stays_under_the_limit_and_names_the_artifact(
    acme: EmulatorHandle, checkout: Path
) -> None:
    write(checkout / "plan.json", render_json(migration()))
    env = comment_env(
        PLANNED="true",
        PLAN_FILE="plan.json",
        MARKDOWN_FILE="plan.md",
        ARTIFACT="docsync-plan-7-production",
        ARTIFACT_URL="https://github.com/acme/docs/actions/runs/4242/artifacts/9",
    )
    done, written, _ = run_step(acme, checkout, COMMENT, **env)
    assert done.returncode == 0, done.stderr
    comment = Path(written["file"]).read_text("utf-8")
    assert len(comment) < GITHUB_LIMIT
    assert len(comment.split("\nEnvironment `production`")[0]) <= DEFAULT_BUDGET
    assert (
        "**The whole plan: [artifact `docsync-plan-7-production`]"
        "(https://github.com/acme/docs/actions/runs/4242/artifacts/9): `plan.md`, this plan "
        "whole, and `plan.json`, for `docsync show plan.json`.**"
    ) in comment
    assert "the changes of **2,797 of 3,000 action(s)**" in comment


def test_the_drift_check_tells_drift_from_no_drift_from_an_error(
    acme: EmulatorHandle, checkout: Path
) -> None:
    issue = step("drift", "Open, update or close the drift issue")["env"]
    assert issue == {
        "DRIFT": "${{ steps.drift.outputs.has-changes }}",
        "PLAN_MARKDOWN": "${{ steps.drift.outputs.comment-file }}",
    }
    done, outputs, _ = run_step(acme, checkout, RUN, **PLAN)
    assert done.returncode == 0, done.stderr
    assert (outputs["exitcode"], outputs["has-changes"]) == ("2", "true")
    assert '+ create team["Writers"]' in done.stdout
    applied = run_step(
        acme, checkout, 'docsync apply --plan plan.json --var-file "vars/production.yaml"'
    )[0]
    assert applied.returncode == 0, applied.stderr
    done, outputs, _ = run_step(acme, checkout, RUN, **PLAN)
    assert done.returncode == 0 and outputs["has-changes"] == "false", done.stderr
    # An error (exit 1) fails the Action and is never read as drift.
    done, outputs, _ = run_step(acme, checkout, RUN, **PLAN, DOCSYNC_TOKEN="tok_nobody")
    assert done.returncode == 0 and outputs == {"exitcode": "1", "failed": "true"}
    assert "::error title=docsync plan failed::docsync plan exited 1 (see the log)" in done.stdout


def test_without_a_reviewed_plan_the_apply_job_stops_and_says_why(
    acme: EmulatorHandle, checkout: Path
) -> None:
    script = step("apply", "Stop when there is no reviewed plan")["run"]
    why = (
        "the artifact docsync-plan-7-production was not found (expired after its retention "
        "days, or its plan failed)"
    )
    done, _, summary = run_step(
        acme, checkout, script, WHY=why, ARTIFACT="docsync-plan-7-production"
    )
    assert done.returncode == 1
    title = "::error title=docsync: no reviewed plan, nothing applied to production::"
    assert f"{title}{why}\n" in done.stdout
    assert summary.startswith(
        "### docsync: no reviewed plan, nothing applied to production\n\n" + why
    )
    assert "docsync never applies a plan nobody reviewed" in summary
    done, _, summary = run_step(acme, checkout, script, WHY="", ARTIFACT="docsync-plan-7-staging")
    assert done.returncode == 1
    assert "the artifact docsync-plan-7-staging could not be downloaded" in summary

"""The github-script steps of the CI example and of the docsync Action, run by node against a
fake GitHub (fake_github.cjs): one sticky comment per environment, the reviewed plan found by
its artifact's name, one drift issue per environment opened, updated and closed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.gitops.actions_standins import FAKE_GITHUB
from tests.gitops.ci import action_step, node, step
from tests.gitops.conftest import write

CONTEXT = {
    "repo": {"owner": "acme", "repo": "docs"},
    "serverUrl": "https://github.com",
    "runId": 4242,
    "issue": {"number": 7},
    "eventName": "push",
    "ref": "refs/heads/main",
    "sha": "c0ffee",
}


def github_script(
    where: Path, job: str, name: str, state: dict[str, Any], **env: str
) -> dict[str, Any]:
    """The step's script run as github-script runs it: its calls, outputs and the state after.
    `job` "action" names a step of the docsync Action."""
    found = action_step(name) if job == "action" else step(job, name)
    write(where / "script.js", found["with"]["script"])
    write(
        where / "state.json",
        json.dumps({**state, "context": {**CONTEXT, **state.get("context", {})}}),
    )
    done = subprocess.run(
        [node(), str(FAKE_GITHUB), "script.js", "state.json"],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        env={"PATH": "/usr/bin:/bin", **env},
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


STICKY = "Post the plan as one sticky comment"


def test_each_environment_keeps_one_comment_updated_on_every_push(tmp_path: Path) -> None:
    state: dict[str, Any] = {"comments": {"7": [{"id": 1, "body": "a person's comment"}]}}
    for environment, plan in [("staging", "A"), ("production", "B"), ("staging", "C")]:
        body = tmp_path / f"comment-{environment}.md"
        write(body, f"plan {plan}\n<!-- docsync-plan:{environment} -->\n")
        env = {"COMMENT_FILE": str(body), "PR": "7"}
        state = github_script(tmp_path, "action", STICKY, state, **env)["state"]
    bodies = [c["body"] for c in state["comments"]["7"]]
    assert bodies == [
        "a person's comment",
        "plan C\n<!-- docsync-plan:staging -->\n",
        "plan B\n<!-- docsync-plan:production -->\n",
    ]


FIND = "Find the reviewed plan"


def artifact(name: str, run: int, expired: bool = False) -> dict[str, Any]:
    return {"id": run, "name": name, "expired": expired, "workflow_run": {"id": run}}


def find(where: Path, context: dict[str, Any], plan_run: str = "", **state: Any) -> Any:
    result = github_script(
        where,
        "apply",
        FIND,
        {"context": context, **state},
        DOCSYNC_ENVIRONMENT="production",
        PLAN_RUN=plan_run,
    )
    return result["outputs"]


def test_a_merge_finds_its_pull_requests_newest_plan_of_the_environment(tmp_path: Path) -> None:
    pulls = {"c0ffee": [{"number": 5, "merged_at": None}, {"number": 7, "merged_at": "2026"}]}
    artifacts = [
        artifact("docsync-plan-7-production", 100),
        artifact("docsync-plan-7-staging", 101),
        artifact("docsync-plan-7-production", 102),
        artifact("docsync-plan-7-production", 103, expired=True),
    ]
    found = find(tmp_path, {}, pulls=pulls, artifacts=artifacts)
    assert found == {"artifact": "docsync-plan-7-production", "run": "102"}
    assert find(tmp_path, {}, pulls={}) == {
        "why": "commit c0ffee is not the merge of a pull request"
    }
    gone = find(tmp_path, {}, pulls=pulls, artifacts=artifacts[3:])
    assert gone == {
        "artifact": "docsync-plan-7-production",
        "why": "the artifact docsync-plan-7-production was not found (expired after its "
        "retention days, or its plan failed)",
    }


def test_a_plan_is_applied_by_hand_from_main_only_and_by_its_runs_id(tmp_path: Path) -> None:
    by_hand = {"eventName": "workflow_dispatch"}
    artifacts = [artifact("docsync-plan-run-9876-production", 9876)]
    assert find(tmp_path, by_hand, "9876", artifacts=artifacts) == {
        "artifact": "docsync-plan-run-9876-production",
        "run": "9876",
    }
    forged = [artifact("docsync-plan-run-9876-production", 5555)]  # another run, same name
    assert "was not found" in find(tmp_path, by_hand, "9876", artifacts=forged)["why"]
    assert find(tmp_path, by_hand, "latest")["why"] == (
        'plan_run "latest" is not a run id (the number in the run\'s URL)'
    )
    branch = {**by_hand, "ref": "refs/heads/feature"}
    assert find(tmp_path, branch, "9876") == {
        "why": "a plan is applied from main only, not from refs/heads/feature"
    }


DRIFT = "Open, update or close the drift issue"
MARKER = "<!-- docsync-drift:production -->"


def drift(where: Path, issues: list[dict[str, Any]], drifted: bool) -> dict[str, Any]:
    plan = write(where / "comment.md", "### docsync plan\n\n+ create team Writers\n")
    env = {
        "DRIFT": str(drifted).lower(),
        "DOCSYNC_ENVIRONMENT": "production",
        "PLAN_MARKDOWN": str(plan),
    }
    return github_script(where, "drift", DRIFT, {"issues": issues}, **env)


def test_drift_opens_one_issue_per_environment_with_the_plan(tmp_path: Path) -> None:
    others = [
        {"number": 3, "state": "open", "labels": ["docsync-drift"], "body": "a person's issue"},
        {
            "number": 4,
            "state": "open",
            "labels": ["docsync-drift"],
            "body": MARKER,
            "pull_request": {},
        },
        {
            "number": 5,
            "state": "open",
            "labels": ["docsync-drift"],
            "body": "<!-- docsync-drift:staging -->",
        },
    ]
    result = drift(tmp_path, others, drifted=True)
    ((_, listed), (name, args)) = result["calls"]
    assert listed == {"owner": "acme", "repo": "docs", "state": "open", "labels": "docsync-drift"}
    assert name == "issues.create" and args["labels"] == ["docsync-drift"]
    assert args["title"] == "docsync: production drifted from its manifests"
    assert args["body"].startswith(MARKER + "\nproduction no longer matches")
    assert "https://github.com/acme/docs/actions/runs/4242" in args["body"]
    assert args["body"].endswith("\n\n### docsync plan\n\n+ create team Writers\n")


def test_drift_updates_the_open_issue_then_closes_it_when_it_ends(tmp_path: Path) -> None:
    issue = {"number": 12, "state": "open", "labels": ["docsync-drift"], "body": f"{MARKER}\nold"}
    ((_, _), (name, args)) = drift(tmp_path, [issue], drifted=True)["calls"]
    assert name == "issues.update" and args["issue_number"] == 12 and "state" not in args
    ended = drift(tmp_path, [issue], drifted=False)
    (_, (comment, said), (close, closed)) = ended["calls"]
    assert comment == "issues.createComment" and said["body"].startswith("No drift any more")
    assert (close, closed["state"]) == ("issues.update", "closed")
    assert ended["state"]["issues"][0]["state"] == "closed"
    assert len(drift(tmp_path, [], drifted=False)["calls"]) == 1  # the list, nothing else

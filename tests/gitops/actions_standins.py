"""What stands in for the actions the CI example uses (tests/gitops/actions_runner.py): checkout
copies the repository, setup-python does nothing (this environment's docsync is on PATH),
upload- and download-artifact keep files in the world's state, github-script runs under node
against fake_github.cjs over that same state (comments, issues, artifacts, pull requests)."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FAKE_GITHUB = Path(__file__).with_name("fake_github.cjs")
SERVER, REPOSITORY = "https://github.com", "acme/docs"


@dataclass
class Event:
    name: str
    payload: dict[str, Any] = field(default_factory=dict)
    inputs: dict[str, str] = field(default_factory=dict)
    ref: str = "refs/heads/main"
    sha: str = "c0ffee"


@dataclass
class StepRun:
    name: str
    outcome: str  # success, failure, skipped
    outputs: dict[str, str]
    stdout: str = ""
    stderr: str = ""


@dataclass
class World:
    """What GitHub holds around the runs: the repository's files, the runner machine's
    environment, and the state the API answers from (comments per pull request, issues,
    artifacts, the pull requests of a commit)."""

    repo: Path
    #: the runner machine's environment (PATH, HOME and what else the test's runner sets)
    machine: dict[str, str]
    node: str
    state: dict[str, Any] = field(default_factory=dict)

    def action(
        self,
        uses: str,
        given: dict[str, Any],
        name: str,
        env: dict[str, str],
        github: dict[str, Any],
        workspace: Path,
        event: Event,
    ) -> StepRun:
        """The step `uses:` stands for, done here."""
        action = uses.split("@")[0]
        if action == "actions/setup-python":
            return StepRun(name, "success", {})
        if action == "actions/checkout":
            shutil.copytree(self.repo, workspace, dirs_exist_ok=True)
            return StepRun(name, "success", {})
        if action == "actions/upload-artifact":
            return self._upload(given, name, github["run_id"], workspace)
        if action == "actions/download-artifact":
            found = [
                a
                for a in self.state.get("artifacts", [])
                if a["name"] == given["name"] and str(a["workflow_run"]["id"]) == given["run-id"]
            ]
            if not found:
                return StepRun(name, "failure", {}, stderr=f"no artifact {given['name']}")
            for path, text in found[-1]["files"].items():
                (workspace / given.get("path", ".") / path).write_text(text, "utf-8")
            return StepRun(name, "success", {})
        if action == "actions/github-script":
            return self._script(given["script"], name, env, github, workspace, event)
        raise AssertionError(f"the runner has no stand-in for {uses}")

    def _upload(self, given: dict[str, Any], name: str, run: str, workspace: Path) -> StepRun:
        files = {path: (workspace / path).read_text("utf-8") for path in given["path"].split()}
        artifacts = self.state.setdefault("artifacts", [])
        number = len(artifacts) + 1
        artifacts.append(
            {
                "id": number,
                "name": given["name"],
                "expired": False,
                "workflow_run": {"id": int(run)},
                "files": files,
            }
        )
        url = f"{SERVER}/{REPOSITORY}/actions/runs/{run}/artifacts/{number}"
        return StepRun(name, "success", {"artifact-id": str(number), "artifact-url": url})

    def _script(
        self,
        script: str,
        name: str,
        env: dict[str, str],
        github: dict[str, Any],
        workspace: Path,
        event: Event,
    ) -> StepRun:
        context = {
            "repo": {"owner": "acme", "repo": "docs"},
            "serverUrl": SERVER,
            "runId": int(github["run_id"]),
            "eventName": event.name,
            "ref": event.ref,
            "sha": event.sha,
            "payload": event.payload,
            "issue": {"number": (event.payload.get("pull_request") or {}).get("number")},
        }
        (workspace.parent / "script.js").write_text(script, "utf-8")
        state = workspace.parent / "state.json"
        state.write_text(json.dumps({**self.state, "context": context}), "utf-8")
        done = subprocess.run(
            [self.node, str(FAKE_GITHUB), str(workspace.parent / "script.js"), str(state)],
            cwd=workspace,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
            env={**self.machine, **env, **github_env(github)},
        )
        if done.returncode != 0:
            return StepRun(name, "failure", {}, done.stdout, done.stderr)
        result = json.loads(done.stdout)
        self.state = {k: v for k, v in result["state"].items() if k != "context"}
        return StepRun(name, "success", result["outputs"], json.dumps(result["calls"]))


def run_shell(
    script: str, workspace: Path, env: dict[str, str], cwd: str | None = None
) -> tuple[subprocess.CompletedProcess[str], dict[str, str], str]:
    """A `run:` script as a runner runs it (`bash -eo pipefail`, in the workspace unless `cwd`
    says where): the result, the key=value lines it wrote to GITHUB_OUTPUT and what it added to
    the job summary (both files beside the workspace, as RUNNER_TEMP is)."""
    output, summary = workspace.parent / "github-output", workspace.parent / "step-summary"
    output.write_text("", "utf-8")
    summary.write_text("", "utf-8")
    temp = workspace.parent / "runner-temp"
    temp.mkdir(exist_ok=True)
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
        cwd=cwd or workspace,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={
            **env,
            "GITHUB_OUTPUT": str(output),
            "GITHUB_STEP_SUMMARY": str(summary),
            "GITHUB_WORKSPACE": str(workspace),
            "RUNNER_TEMP": str(temp),
        },
    )
    outputs = dict(line.split("=", 1) for line in output.read_text("utf-8").splitlines())
    return done, outputs, summary.read_text("utf-8")


def github_env(github: dict[str, Any]) -> dict[str, str]:
    """The GITHUB_* variables of a step."""
    return {
        "GITHUB_SERVER_URL": SERVER,
        "GITHUB_REPOSITORY": REPOSITORY,
        "GITHUB_RUN_ID": github["run_id"],
        "GITHUB_REF": github["ref"],
        "GITHUB_SHA": github["sha"],
        "GITHUB_EVENT_NAME": github["event_name"],
    }

"""A GitHub Actions runner for the CI example, on this machine: a workflow's jobs run for an
event in the order of their `needs`, matrix legs in order, reusable workflows of the repository
followed; each `run:` step under `bash -eo pipefail` in a fresh workspace, with the workflow's,
job's and step's `env` evaluated (tests/gitops/actions_expr.py), GITHUB_OUTPUT and the job
summary read back; `if:`, `continue-on-error` and `steps.*` as GitHub has them; secrets from
the repository's and the job's environment's. The docsync Action (`OWNER/docsync@<commit>`) is
this checkout's action.yml, a composite action whose steps run here as GitHub runs them (its
`inputs` with their defaults, its own `steps.*`, `github.action_path`, `working-directory`, its
`outputs`); its install step stands for this environment's docsync, already on PATH. The other
actions stand in (tests/gitops/actions_standins.py).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import Any

from tests.gitops.actions_expr import Status, condition, interpolate, text_of
from tests.gitops.actions_standins import (
    REPOSITORY,
    SERVER,
    Event,
    StepRun,
    World,
    github_env,
    run_shell,
)
from tests.gitops.ci import REPO
from tests.kit import yaml_data

__all__ = ["Event", "Hub", "JobRun", "StepRun", "machine_env"]

#: how the CI example names the docsync Action: the repository, pinned by commit
DOCSYNC_ACTION = re.compile(r"^[\w.-]+/docsync@[0-9a-f]{40}$")


@dataclass
class JobRun:
    job: str
    matrix: dict[str, Any]
    environment: str | None
    outcome: str
    steps: list[StepRun]
    summary: str
    workspace: Path
    #: the job's environment as its steps start with it (workflow's and job's `env`)
    env: dict[str, str]

    def step(self, name: str) -> StepRun:
        (found,) = [s for s in self.steps if s.name == name]
        return found


@dataclass
class Hub(World):
    """The world of tests/gitops/actions_standins.py, with the repository's secrets and its
    environments' secrets, and the job runs so far."""

    workdir: Path = Path()
    secrets: dict[str, str] = field(default_factory=dict)
    environments: dict[str, dict[str, str]] = field(default_factory=dict)
    next_run: int = 4242
    runs: list[JobRun] = field(default_factory=list)
    #: where the docsync Action's action.yml is: this checkout
    action_repo: Path = REPO

    def run(self, workflow: str, event: Event) -> list[JobRun]:
        """Every job of `.github/workflows/<workflow>` that the event starts, in order."""
        run_id, self.next_run = self.next_run, self.next_run + 1
        flow = _load(self.repo / ".github" / "workflows" / workflow)
        github = {
            "event_name": event.name,
            "event": {**event.payload, "inputs": event.inputs},
            "ref": event.ref,
            "sha": event.sha,
            "repository": REPOSITORY,
            "run_id": str(run_id),
            "server_url": SERVER,
            "token": "ghs_fake_job_token",
        }
        start = len(self.runs)
        self._jobs(flow, {"github": github, "inputs": event.inputs}, run_id, event)
        return self.runs[start:]

    def _jobs(self, flow: dict[str, Any], base: dict[str, Any], run_id: int, event: Event) -> bool:
        results: dict[str, str] = {}
        for job_id, job in flow["jobs"].items():
            needs = job.get("needs", [])
            needs = [needs] if isinstance(needs, str) else needs
            ok = all(results.get(n) == "success" for n in needs)
            contexts = {**base, "needs": {n: {"result": results.get(n)} for n in needs}}
            status = _status(failed=not ok)
            if not condition(str(job.get("if", "success()")), contexts, status):
                results[job_id] = "skipped"
                continue
            if "uses" in job:
                called = _load(self.repo / job["uses"])
                inputs = {
                    name: spec.get("default", "")
                    for name, spec in called["on"]["workflow_call"].get("inputs", {}).items()
                }
                inputs.update(
                    {k: text_of(interpolate(v, contexts, status)) for k, v in job["with"].items()}
                )
                nested = {**base, "inputs": inputs}
                done = self._jobs(called, nested, run_id, event)
                results[job_id] = "success" if done else "failure"
                continue
            results[job_id] = "success"
            for matrix in _legs(job):
                leg = self._job(flow, job_id, job, {**contexts, "matrix": matrix}, run_id, event)
                if leg.outcome != "success":
                    results[job_id] = "failure"
                    if job.get("strategy", {}).get("fail-fast", True):
                        break  # the legs after it are cancelled
        return all(r in ("success", "skipped") for r in results.values())

    def _job(
        self,
        flow: dict[str, Any],
        job_id: str,
        job: dict[str, Any],
        contexts: dict[str, Any],
        run_id: int,
        event: Event,
    ) -> JobRun:
        workspace = self.workdir / f"{run_id}-{job_id}-{len(self.runs)}"
        workspace.mkdir(parents=True)
        status = _status(failed=False)
        environment = job.get("environment")
        if environment is not None:
            environment = text_of(interpolate(environment, contexts, status))
        secrets = {**self.secrets, **self.environments.get(environment or "", {})}
        ctx: dict[str, Any] = {**contexts, "secrets": secrets, "env": {}, "steps": {}}
        for level in (flow.get("env", {}), job.get("env", {})):
            ctx["env"] = {**ctx["env"], **_evaluated(level, ctx, status)}
        run = JobRun(job_id, ctx["matrix"], environment, "success", [], "", workspace, ctx["env"])
        self.runs.append(run)
        for step in job["steps"]:
            status = _status(failed=run.outcome != "success")
            name = step.get("name") or step.get("uses") or step["run"]
            if not condition(str(step.get("if", "success()")), ctx, status):
                run.steps.append(StepRun(name, "skipped", {}))
                done = run.steps[-1]
            else:
                env = {**ctx["env"], **_evaluated(step.get("env", {}), ctx, status)}
                done = self._step(step, name, env, ctx, status, run, event)
                run.steps.append(done)
            if done.outcome == "failure" and not step.get("continue-on-error"):
                run.outcome = "failure"
            if "id" in step:
                conclusion = "success" if step.get("continue-on-error") else done.outcome
                ctx["steps"][step["id"]] = {
                    "outputs": done.outputs,
                    "outcome": done.outcome,
                    "conclusion": done.outcome if done.outcome == "skipped" else conclusion,
                }
        return run

    def _step(
        self,
        step: dict[str, Any],
        name: str,
        env: dict[str, str],
        ctx: dict[str, Any],
        status: dict[str, Status],
        run: JobRun,
        event: Event,
    ) -> StepRun:
        given = {k: interpolate(v, ctx, status) for k, v in step.get("with", {}).items()}
        github = ctx["github"]
        if "run" in step:
            return self._shell(step["run"], name, env, github, run)
        if DOCSYNC_ACTION.match(step["uses"]):
            return self._composite(given, name, env, ctx, run, event)
        return self.action(step["uses"], given, name, env, github, run.workspace, event)

    def _composite(
        self,
        given: dict[str, Any],
        name: str,
        env: dict[str, str],
        ctx: dict[str, Any],
        run: JobRun,
        event: Event,
    ) -> StepRun:
        """The docsync Action's steps, each recorded in the job's steps after the ones before;
        the step itself fails when one of them does, with the action's outputs."""
        action = _load(self.action_repo / "action.yml")
        github = {**ctx["github"], "action_path": str(self.action_repo)}
        outer: dict[str, Any] = {"github": github, "env": env}
        inputs = {
            key: text_of(interpolate(spec.get("default", ""), outer, _status(failed=False)))
            for key, spec in action["inputs"].items()
        }
        unknown = set(given) - set(inputs)
        assert not unknown, f"the docsync Action has no input {sorted(unknown)}"
        inputs.update({key: text_of(value) for key, value in given.items()})
        local: dict[str, Any] = {**outer, "inputs": inputs, "steps": {}}
        failed = False
        for step in action["runs"]["steps"]:
            status = _status(failed=failed)
            inner = step.get("name") or step["uses"]
            if not condition(str(step.get("if", "success()")), local, status):
                run.steps.append(StepRun(inner, "skipped", {}))
                done = run.steps[-1]
            else:
                step_env = {**env, **_evaluated(step.get("env", {}), local, status)}
                step_env["GITHUB_ACTION_PATH"] = str(self.action_repo)
                if step.get("id") == "install":  # this environment's docsync is on PATH
                    done = StepRun(inner, "success", {})
                elif "run" in step:
                    cwd = text_of(interpolate(step.get("working-directory", ""), local, status))
                    done = self._shell(step["run"], inner, step_env, github, run, cwd or None)
                else:
                    with_ = {k: interpolate(v, local, status) for k, v in step["with"].items()}
                    done = self.action(
                        step["uses"], with_, inner, step_env, github, run.workspace, event
                    )
                run.steps.append(done)
            failed = failed or done.outcome == "failure"
            if "id" in step:
                local["steps"][step["id"]] = {"outputs": done.outputs, "outcome": done.outcome}
        outputs = {
            key: text_of(interpolate(spec["value"], local, _status(failed=failed)))
            for key, spec in action.get("outputs", {}).items()
        }
        return StepRun(name, "failure" if failed else "success", outputs)

    def _shell(
        self,
        script: str,
        name: str,
        env: dict[str, str],
        github: dict[str, Any],
        run: JobRun,
        cwd: str | None = None,
    ) -> StepRun:
        environ = {**self.machine, **env, **github_env(github)}
        done, outputs, summary = run_shell(script, run.workspace, environ, cwd)
        run.summary += summary
        outcome = "success" if done.returncode == 0 else "failure"
        return StepRun(name, outcome, outputs, done.stdout, done.stderr)


def _load(path: Path) -> dict[str, Any]:
    flow: dict[Any, Any] = yaml_data(path.read_text("utf-8"))
    if True in flow:  # YAML 1.1 reads the key `on` as true
        flow["on"] = flow.pop(True)
    return flow


def _status(*, failed: bool) -> dict[str, Status]:
    return {
        "success": lambda: not failed,
        "failure": lambda: failed,
        "always": lambda: True,
        "cancelled": lambda: False,
    }


def _evaluated(
    env: dict[str, Any], ctx: dict[str, Any], status: dict[str, Status]
) -> dict[str, str]:
    return {name: text_of(interpolate(value, ctx, status)) for name, value in env.items()}


def _legs(job: dict[str, Any]) -> list[dict[str, Any]]:
    """The matrix's combinations in GitHub's order (axes, then `include` entries)."""
    matrix = dict(job.get("strategy", {}).get("matrix", {}))
    include = matrix.pop("include", [])
    axes = [[(name, value) for value in values] for name, values in matrix.items()]
    legs = [dict(combination) for combination in product(*axes)] if axes else []
    return legs + list(include) if legs or include else [{}]


def machine_env(bin_dir: Path, home: Path, **extra: str) -> dict[str, str]:
    """A runner machine's environment: this docsync on PATH first."""
    return {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "HOME": str(home), **extra}

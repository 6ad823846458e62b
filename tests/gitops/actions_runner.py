"""A GitHub Actions runner for the CI example, on this machine: a workflow's jobs run for an
event in the order of their `needs`, matrix legs in order, reusable workflows of the repository
followed; each `run:` step under `bash -eo pipefail` in a fresh workspace, with the workflow's,
job's and step's `env` evaluated (tests/gitops/actions_expr.py), GITHUB_OUTPUT and the job
summary read back; `if:`, `continue-on-error` and `steps.*` as GitHub has them; secrets from
the repository's and the job's environment's. `pip install "$DOCSYNC_PACKAGE"` is this
environment's docsync, already on PATH; the actions stand in (tests/gitops/actions_standins.py).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import Any

import yaml

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

__all__ = ["Event", "Hub", "JobRun", "StepRun", "machine_env"]

INSTALL = 'pip install "$DOCSYNC_PACKAGE"'


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
            if step["run"].strip() == INSTALL:  # this environment's docsync is on PATH already
                return StepRun(name, "success", {})
            return self._shell(step["run"], name, env, github, run)
        return self.action(step["uses"], given, name, env, github, run.workspace, event)

    def _shell(
        self, script: str, name: str, env: dict[str, str], github: dict[str, Any], run: JobRun
    ) -> StepRun:
        environ = {**self.machine, **env, **github_env(github)}
        done, outputs, summary = run_shell(script, run.workspace, environ)
        run.summary += summary
        outcome = "success" if done.returncode == 0 else "failure"
        return StepRun(name, outcome, outputs, done.stdout, done.stderr)


def _load(path: Path) -> dict[str, Any]:
    flow: dict[Any, Any] = yaml.safe_load(path.read_text("utf-8"))
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

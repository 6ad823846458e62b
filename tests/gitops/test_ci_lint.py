"""actionlint finds nothing in the CI example's two files nor in the docsync Action, and finds what
is broken in each. actionlint lints workflows, not an action's metadata: the Action's steps are
linted as the job of a workflow called with the Action's inputs (`${{ inputs.* }}`, `steps.*`,
`github.action_path` and the pinned actions' inputs read as GitHub reads them there)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.gitops.ci import REPO, WORKFLOW, WORKFLOWS, action, missing, node
from tests.gitops.conftest import write

ACTIONLINT = REPO / "scripts" / "actionlint.cjs"
ACTIONLINT_WASM = REPO / ".cache" / "actionlint" / "package" / "main.wasm"


def actionlint(*files: Path) -> subprocess.CompletedProcess[str]:
    found = node()
    if not ACTIONLINT_WASM.is_file():
        missing("actionlint is not in .cache/actionlint/: run bash scripts/actionlint.sh")
    return subprocess.run(
        [found, str(ACTIONLINT), *map(str, files)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def action_as_workflow() -> str:
    """The docsync Action's steps as the one job of a workflow that is called with its inputs."""
    composite = action()
    inputs: dict[str, Any] = {
        name: {"type": "string", "required": bool(spec.get("required")), "default": ""}
        for name, spec in composite["inputs"].items()
    }
    for spec in inputs.values():
        if spec["required"]:
            del spec["default"]
    flow = {
        "name": "the docsync Action's steps",
        "on": {"workflow_call": {"inputs": inputs}},
        "jobs": {"action": {"runs-on": "ubuntu-latest", "steps": composite["runs"]["steps"]}},
    }
    return yaml.safe_dump(flow, sort_keys=False, width=1000)


@pytest.fixture(scope="module")
def linted(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """One run of actionlint (node starts once) over the example's files, the Action's steps,
    a broken copy of one workflow and of the Action, and a file that is not YAML, last
    (actionlint stops there)."""
    tmp = tmp_path_factory.mktemp("actionlint")
    steps = write(tmp / "action.yml", action_as_workflow())
    broken_action = action_as_workflow().replace(
        "steps.run.outputs.planned", "steps.runs.outputs.planned"
    )
    assert broken_action.count("steps.runs.") == 2
    broken_action_path = write(tmp / "broken-action.yml", broken_action)
    text = WORKFLOW.read_text("utf-8")
    broken = text.replace("inputs.plan_run ==", "inputs.plan_rn ==").replace(
        "  pull_request:\n", "  pull_requests:\n", 1
    )
    broken = broken.replace(
        "steps.rehearse.outputs.artifact-url", "steps.rehearsed.outputs.artifact-url"
    )
    assert broken.count("plan_rn") == 1 and "rehearsed.outputs" in broken
    assert "pull_requests" in broken
    path = write(tmp / "docsync.yml", broken)
    files = (*WORKFLOWS, steps, path, broken_action_path, write(tmp / "bad.yml", "jobs: [\n"))
    return actionlint(*files), path


def test_actionlint_finds_nothing_in_the_workflows(
    linted: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    done, path = linted
    lines = done.stdout.splitlines()
    for workflow in (*map(str, WORKFLOWS), str(path.parent / "action.yml")):
        assert not [line for line in lines if line.startswith(f"{workflow}:")], workflow
        assert workflow not in done.stderr  # linted, not refused


def test_actionlint_refuses_a_broken_workflow(
    linted: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    done, path = linted
    findings = [line for line in done.stdout.splitlines() if line.startswith(f"{path}:")]
    assert len(findings) == 3, done.stdout
    assert 'unknown Webhook event "pull_requests"' in findings[0]
    assert 'property "plan_rn" is not defined' in findings[1]
    assert 'property "rehearsed" is not defined' in findings[2]
    broken_action = path.parent / "broken-action.yml"
    in_action = [line for line in done.stdout.splitlines() if line.startswith(f"{broken_action}:")]
    assert len(in_action) == 2 and all('property "runs" is not defined' in f for f in in_action)
    assert done.stdout.splitlines() == findings + in_action  # the real files: nothing
    assert done.returncode == 2 and "bad.yml: not linted" in done.stderr

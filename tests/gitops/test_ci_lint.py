"""actionlint finds nothing in the CI example's two files, and finds what is broken in one."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.gitops.ci import REPO, WORKFLOW, WORKFLOWS, missing, node
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


@pytest.fixture(scope="module")
def linted(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """One run of actionlint (node starts once) over the example's files, a broken copy of
    one, and a file that is not YAML, last (actionlint stops there)."""
    tmp = tmp_path_factory.mktemp("actionlint")
    text = WORKFLOW.read_text("utf-8")
    broken = text.replace("inputs.plan_run ==", "inputs.plan_rn ==").replace(
        "  pull_request:\n", "  pull_requests:\n", 1
    )
    broken = broken.replace("steps.keep.outputs.artifact-url", "steps.kept.outputs.artifact-url")
    assert broken.count("plan_rn") == 1 and "kept" in broken and "pull_requests" in broken
    path = write(tmp / "docsync.yml", broken)
    return actionlint(*WORKFLOWS, path, write(tmp / "bad.yml", "jobs: [\n")), path


def test_actionlint_finds_nothing_in_the_workflows(
    linted: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    done, _ = linted
    lines = done.stdout.splitlines()
    for workflow in map(str, WORKFLOWS):
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
    assert 'property "kept" is not defined' in findings[2]
    assert done.stdout.splitlines() == findings  # the example's own files: nothing
    assert done.returncode == 2 and "bad.yml: not linted" in done.stderr

"""actionlint finds nothing in the CI example's two files, and finds what is broken in one."""

from __future__ import annotations

import subprocess
from pathlib import Path

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


def test_actionlint_finds_nothing_in_the_workflows() -> None:
    linted = actionlint(*WORKFLOWS)
    assert (linted.returncode, linted.stdout, linted.stderr) == (0, "", "")


def test_actionlint_refuses_a_broken_workflow(tmp_path: Path) -> None:
    text = WORKFLOW.read_text("utf-8")
    broken = text.replace("inputs.plan_run ==", "inputs.plan_rn ==").replace(
        "  pull_request:\n", "  pull_requests:\n", 1
    )
    broken = broken.replace("steps.keep.outputs.artifact-url", "steps.kept.outputs.artifact-url")
    assert broken.count("plan_rn") == 1 and "kept" in broken and "pull_requests" in broken
    path = write(tmp_path / "docsync.yml", broken)
    linted = actionlint(path)
    assert linted.returncode == 1
    findings = linted.stdout.splitlines()
    assert len(findings) == 3, linted.stdout
    assert 'unknown Webhook event "pull_requests"' in findings[0]
    assert 'property "plan_rn" is not defined' in findings[1]
    assert 'property "kept" is not defined' in findings[2]
    assert all(f.startswith(f"{path}:") for f in findings)
    unreadable = actionlint(write(tmp_path / "bad.yml", "jobs: [\n"))
    assert unreadable.returncode == 2 and "not linted" in unreadable.stderr

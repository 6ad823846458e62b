"""examples/ci/github-actions.yml and .pre-commit-hooks.yaml: well-formed, and every docsync
command in them is one the CLI accepts."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import click
import pytest
import yaml

from docsync.cli import main

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / "examples" / "ci" / "github-actions.yml"


def workflow() -> dict[Any, Any]:
    data: dict[Any, Any] = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    return data


def docsync_commands(text: str) -> list[list[str]]:
    """Each `docsync ...` invocation of a shell script (line continuations joined)."""
    text = text.replace("\\\n", " ")
    found = []
    for match in re.finditer(r"(?:^|[;&|]\s*|\s)docsync\s+([^\n|>]*)", text):
        words = shlex.split(match.group(1))
        if words and words[0] in main.list_commands(click.Context(main)):  # type: ignore[attr-defined]
            found.append(words)
    return found


def check_options(words: list[str]) -> None:
    command = main.get_command(click.Context(main), words[0])  # type: ignore[attr-defined]
    assert command is not None
    known = {opt for p in command.params if isinstance(p, click.Option) for opt in p.opts}
    for word in words[1:]:
        if word.startswith("--"):
            assert word.split("=")[0] in known, f"docsync {words[0]} has no {word}"


def test_the_workflow_plans_pull_requests_and_applies_the_reviewed_plan() -> None:
    flow = workflow()
    triggers = flow[True] if True in flow else flow["on"]  # YAML 1.1 reads `on` as true
    assert set(triggers) == {"pull_request", "push"}
    assert triggers["push"]["branches"] == ["main"]
    assert flow["env"]["DOCSYNC_TOKEN"] == "${{ secrets.DOCSYNC_TOKEN }}"
    plan, apply = flow["jobs"]["plan"], flow["jobs"]["apply"]
    plan_text = yaml.safe_dump(plan["steps"], width=1000)
    apply_text = yaml.safe_dump(apply["steps"], width=1000)
    assert "--format markdown --out plan.json" in plan_text.replace("\\\n", " ")
    assert "GITHUB_STEP_SUMMARY" in plan_text
    assert "updateComment" in plan_text and "<!-- docsync-plan -->" in plan_text
    assert "actions/upload-artifact" in plan_text
    assert "docsync apply --plan plan.json" in apply_text
    assert "docsync plan manifests/ --out plan.json" in apply_text  # no reviewed plan: plan again


def test_every_docsync_command_in_the_workflow_is_valid() -> None:
    commands = []
    for job in workflow()["jobs"].values():
        for step in job["steps"]:
            commands += docsync_commands(step.get("run", ""))
    assert {c[0] for c in commands} == {"plan", "apply"}
    for words in commands:
        check_options(words)


def test_the_pre_commit_hook_runs_docsync_validate() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text("utf-8"))
    (hook,) = hooks
    assert hook["id"] == "docsync-validate"
    assert hook["entry"] == "docsync validate" and hook["language"] == "python"
    assert re.search(hook["files"], "manifests/org.yaml")
    assert re.search(hook["files"], "manifests/teams.yaml.j2")
    assert not re.search(hook["files"], "README.md")


def test_the_workflow_installs_this_project_at_a_commit_of_its_history() -> None:
    flow = workflow()
    package = flow["env"]["DOCSYNC_PACKAGE"]
    match = re.fullmatch(r"docsync-iac @ git\+https://\S+/docsync@([0-9a-f]{40})", package)
    assert match, f"not a pinned git URL of docsync-iac: {package}"
    for job in flow["jobs"].values():
        installs = [s["run"] for s in job["steps"] if "pip install" in s.get("run", "")]
        assert installs == ['pip install "$DOCSYNC_PACKAGE"']
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: cannot look the pinned commit up")
    pinned = subprocess.run(
        ["git", "-C", str(REPO), "merge-base", "--is-ancestor", match.group(1), "HEAD"], check=False
    )
    assert pinned.returncode == 0, f"commit {match.group(1)} is not in this branch's history"

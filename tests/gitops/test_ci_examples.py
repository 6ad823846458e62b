"""examples/ci/github-actions.yml and .pre-commit-hooks.yaml: actionlint finds nothing in the
workflow, every docsync command in it is one the CLI accepts (here and at the pinned commit), its
shell steps and github-script steps do what docs/gitops.md says when run (bash against the
emulator, node against a mock GitHub), and the pre-commit `rev` the docs show exists."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import click
import pytest
import yaml

from docsync.cli import main
from tests.contract.document import in_ci
from tests.emulator_harness import EmulatorHandle
from tests.gitops.conftest import TOKEN, write

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / "examples" / "ci" / "github-actions.yml"
ACTIONLINT = REPO / "scripts" / "actionlint.cjs"
ACTIONLINT_WASM = REPO / ".cache" / "actionlint" / "package" / "main.wasm"
GITOPS_DOC = REPO / "docs" / "gitops.md"
BIN = Path(sys.executable).parent  # where this environment's `docsync` command is
MANIFEST = """\
organization: org_acme
teams:
  - {title: Platform, members: [ada@acme.example]}
  - {title: Writers}
"""


def missing(reason: str) -> None:
    """Skip the calling test with a loud reason, or fail it under CI=true."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: a missing test tool fails the run)")
    pytest.skip(f"!!! {reason} !!!")


def workflow() -> dict[Any, Any]:
    data: dict[Any, Any] = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    return data


def triggers() -> dict[str, Any]:
    flow = workflow()
    found: dict[str, Any] = flow[True] if True in flow else flow["on"]  # YAML 1.1: `on` is true
    return found


def step(job: str, name: str) -> dict[str, Any]:
    (found,) = [s for s in workflow()["jobs"][job]["steps"] if s.get("name") == name]
    return found


def docsync_commands(text: str) -> list[list[str]]:
    """Each `docsync ...` invocation of a shell script (line continuations joined): at the start
    of a line or after `;`, `&`, `|`, `{`, `(`, not in the text of an echo."""
    text = text.replace("\\\n", " ")
    found = []
    for match in re.finditer(r"(?:^|[;&|{(])[ \t]*docsync\s+([^\n|>#]*)", text, re.M):
        words = shlex.split(match.group(1))
        if words:
            found.append(words)
    return found


def workflow_commands() -> list[list[str]]:
    commands = []
    for job in workflow()["jobs"].values():
        for each in job["steps"]:
            commands += docsync_commands(each.get("run", ""))
    return commands


#: Prints {command: [option, ...]} of the `docsync` importable first on sys.path.
OPTIONS_PROBE = """
import json, sys
import click
import docsync
from docsync.cli import main
assert docsync.__file__.startswith(sys.argv[1]), docsync.__file__
ctx = click.Context(main)
print(json.dumps({name: [o for p in main.get_command(ctx, name).params
                         if isinstance(p, click.Option) for o in p.opts]
                  for name in main.list_commands(ctx)}))
"""


def cli_options() -> dict[str, set[str]]:
    """{command: its options} of this checkout's docsync."""
    ctx = click.Context(main)
    found = {}
    for name in main.list_commands(ctx):  # type: ignore[attr-defined]
        command = main.get_command(ctx, name)  # type: ignore[attr-defined]
        found[name] = {o for p in command.params if isinstance(p, click.Option) for o in p.opts}
    return found


def unknown(commands: list[list[str]], options: dict[str, set[str]]) -> list[str]:
    """What in `commands` the CLI described by `options` would not accept."""
    wrong = []
    for words in commands:
        if words[0] not in options:
            wrong.append(f"docsync has no command {words[0]}")
            continue
        for word in words[1:]:
            if word.startswith("--") and word.split("=")[0] not in options[words[0]]:
                wrong.append(f"docsync {words[0]} has no {word}")
    return wrong


def git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(REPO), *args], capture_output=True, text=True, check=False
    )


def in_git_checkout() -> None:
    if not (REPO / ".git").exists() or shutil.which("git") is None:
        pytest.skip("!!! not a git checkout: cannot look the pinned commit up !!!")


def pinned_commit() -> str:
    package = workflow()["env"]["DOCSYNC_PACKAGE"]
    match = re.fullmatch(r"docsync-iac @ git\+https://\S+/docsync@([0-9a-f]{40})", package)
    assert match, f"not a pinned git URL of docsync-iac: {package}"
    return match.group(1)


# --- what the workflow says -------------------------------------------------------------


def test_the_workflow_plans_reviews_applies_replans_and_checks_drift() -> None:
    on = triggers()
    assert set(on) == {"pull_request", "push", "workflow_dispatch", "schedule"}
    assert on["push"]["branches"] == ["main"]
    assert on["workflow_dispatch"]["inputs"]["plan_run"]["default"] == ""
    assert [list(entry) for entry in on["schedule"]] == [["cron"]]
    flow = workflow()
    assert flow["env"]["DOCSYNC_TOKEN"] == "${{ secrets.DOCSYNC_TOKEN }}"
    jobs = flow["jobs"]
    assert set(jobs) == {"plan", "replan", "apply", "drift"}
    plan_text = yaml.safe_dump(jobs["plan"]["steps"], width=1000)
    assert "docsync plan manifests/ --out plan.json --detailed-exitcode" in plan_text
    assert "docsync show plan.json --format markdown > plan.md" in plan_text
    assert "updateComment" in plan_text and "<!-- docsync-plan -->" in plan_text
    assert "actions/upload-artifact" in plan_text
    drift = step("drift", "Plan main's manifests against the organization")["run"]
    assert "docsync plan manifests/ --out plan.json --detailed-exitcode" in drift
    assert jobs["drift"]["permissions"] == {"contents": "read", "issues": "write"}


def test_the_apply_job_applies_only_a_reviewed_plan_found_by_the_workflow_file_name() -> None:
    apply = workflow()["jobs"]["apply"]
    names = [s.get("name") for s in apply["steps"]]
    download = step("apply", "Download the reviewed plan")
    assert download["uses"].startswith("dawidd6/action-download-artifact@")
    assert download["with"]["workflow"] == "${{ steps.source.outputs.workflow }}"
    assert "github.workflow" not in json.dumps(download)  # the display name: never found
    assert download["continue-on-error"] is True
    stop = step("apply", "Stop when there is no reviewed plan")
    assert stop["if"] == "steps.download.outcome != 'success'"
    # After the stop, nothing runs on failure, and no step plans: no silent fall-through.
    after = apply["steps"][names.index(stop["name"]) + 1 :]
    assert all("if" not in s for s in after)
    scripts = "\n".join(s.get("run", "") for s in apply["steps"])
    assert [c[:2] for c in docsync_commands(scripts)] == [
        ["show", "plan.json"],
        ["show", "plan.json"],
        ["apply", "--plan"],
    ]


def test_every_docsync_command_in_the_workflow_is_valid() -> None:
    commands = workflow_commands()
    assert sorted(c[0] for c in commands) == ["apply"] + ["plan"] * 3 + ["show"] * 5
    assert unknown(commands, cli_options()) == []


def test_the_option_check_refuses_what_the_cli_does_not_accept() -> None:
    commands = docsync_commands("docsync plan x --frobnicate\n docsync shwo plan.json")
    assert unknown(commands, cli_options()) == [
        "docsync plan has no --frobnicate",
        "docsync has no command shwo",
    ]


def test_the_pre_commit_hook_runs_docsync_validate() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text("utf-8"))
    (hook,) = hooks
    assert hook["id"] == "docsync-validate"
    assert hook["entry"] == "docsync validate" and hook["language"] == "python"
    assert re.search(hook["files"], "manifests/org.yaml")
    assert re.search(hook["files"], "manifests/teams.yaml.j2")
    assert not re.search(hook["files"], "README.md")


def test_the_workflow_installs_this_project_at_a_commit_of_its_history() -> None:
    pinned = pinned_commit()
    for job in workflow()["jobs"].values():
        installs = [s["run"] for s in job["steps"] if "pip install" in s.get("run", "")]
        assert installs == ['pip install "$DOCSYNC_PACKAGE"']
    in_git_checkout()
    found = git("merge-base", "--is-ancestor", pinned, "HEAD")
    assert found.returncode == 0, f"commit {pinned} is not in this branch's history"


def test_the_pinned_commit_accepts_every_docsync_command_of_the_workflow(tmp_path: Path) -> None:
    in_git_checkout()
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", pinned_commit(), "docsync"],
        capture_output=True,
        check=True,
    )
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(tmp_path, filter="data")
    probe = subprocess.run(
        [sys.executable, "-c", OPTIONS_PROBE, str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        check=False,
    )
    assert probe.returncode == 0, probe.stderr
    options = {name: set(opts) for name, opts in json.loads(probe.stdout).items()}
    assert unknown(workflow_commands(), options) == []


def documented_pre_commit_config() -> dict[str, Any]:
    text = GITOPS_DOC.read_text("utf-8")
    block = re.search(r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", text, re.S)
    assert block, "docs/gitops.md shows no .pre-commit-config.yaml"
    config: dict[str, Any] = yaml.safe_load(block.group(1))
    return config


def test_the_documented_pre_commit_rev_is_a_commit_that_has_the_hook() -> None:
    (repo,) = documented_pre_commit_config()["repos"]
    rev, ids = str(repo["rev"]), {hook["id"] for hook in repo["hooks"]}
    assert re.fullmatch(r"[0-9a-f]{40}", rev), f"rev {rev} is not a full commit sha"
    in_git_checkout()
    assert git("merge-base", "--is-ancestor", rev, "HEAD").returncode == 0, (
        f"rev {rev} is not a commit of this repository's history"
    )
    shown = git("show", f"{rev}:.pre-commit-hooks.yaml")
    assert shown.returncode == 0, f"commit {rev} has no .pre-commit-hooks.yaml"
    assert ids <= {hook["id"] for hook in yaml.safe_load(shown.stdout)}


# --- actionlint -------------------------------------------------------------------------


def actionlint(*files: Path) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    if node is None:
        missing("node is not installed: actionlint (a WebAssembly build) needs it")
    if not ACTIONLINT_WASM.is_file():
        missing("actionlint is not in .cache/actionlint/: run bash scripts/actionlint.sh")
    assert node is not None
    return subprocess.run(
        [node, str(ACTIONLINT), *map(str, files)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_actionlint_finds_nothing_in_the_workflow() -> None:
    linted = actionlint(WORKFLOW)
    assert (linted.returncode, linted.stdout, linted.stderr) == (0, "", "")


def test_actionlint_refuses_a_broken_workflow(tmp_path: Path) -> None:
    text = WORKFLOW.read_text("utf-8")
    broken = text.replace("inputs.plan_run ==", "inputs.plan_rn ==").replace(
        "  pull_request:\n", "  pull_requests:\n", 1
    )
    broken = broken.replace("steps.source.outputs.why", "steps.sauce.outputs.why")
    assert broken.count("plan_rn") == 1 and "sauce" in broken and "pull_requests" in broken
    path = write(tmp_path / "docsync.yml", broken)
    linted = actionlint(path)
    assert linted.returncode == 1
    findings = linted.stdout.splitlines()
    assert len(findings) == 3, linted.stdout
    assert 'unknown Webhook event "pull_requests"' in findings[0]
    assert 'property "plan_rn" is not defined' in findings[1]
    assert 'property "sauce" is not defined' in findings[2]
    assert all(f.startswith(f"{path}:") for f in findings)
    unreadable = actionlint(write(tmp_path / "bad.yml", "jobs: [\n"))
    assert unreadable.returncode == 2 and "not linted" in unreadable.stderr


# --- the shell steps, run as GitHub runs them, against the emulator ---------------------


def run_step(
    emulator: EmulatorHandle, where: Path, script: str, **env: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, str], str]:
    """A `run:` script under `bash -eo pipefail` in `where`: the result, GITHUB_OUTPUT's
    key=value lines and the job summary written."""
    output, summary = where / "github-output", where / "step-summary"
    output.write_text("", "utf-8")
    summary.write_text("", "utf-8")
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={
            "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
            "HOME": os.environ.get("HOME", str(where)),
            "DOCSYNC_API_URL": emulator.url,
            "DOCSYNC_TOKEN": TOKEN,
            "NO_COLOR": "1",
            "GITHUB_OUTPUT": str(output),
            "GITHUB_STEP_SUMMARY": str(summary),
            "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_REPOSITORY": "acme/docs",
            "GITHUB_RUN_ID": "4242",
            **env,
        },
    )
    outputs = dict(line.split("=", 1) for line in output.read_text("utf-8").splitlines())
    return done, outputs, summary.read_text("utf-8")


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A repository checkout with manifests/ (one team to create against the GitOps seed)."""
    if shutil.which("bash") is None or not (BIN / "docsync").exists():
        missing("bash or this environment's docsync command is not there")
    (tmp_path / "manifests").mkdir()
    write(tmp_path / "manifests" / "teams.yaml", MANIFEST)
    return tmp_path


def test_the_pull_request_plan_logs_the_text_plan_and_comments_the_markdown(
    acme: EmulatorHandle, checkout: Path
) -> None:
    script = step("plan", "Plan")["run"]
    done, outputs, summary = run_step(acme, checkout, script, PR="7")
    assert done.returncode == 0, done.stderr
    assert outputs == {"exitcode": "2"}
    assert "docsync will make these changes to organization" in done.stdout  # the job log
    assert '+ create team["Writers"]' in done.stdout
    comment = (checkout / "plan.md").read_text("utf-8")
    shown = subprocess.run(
        [str(BIN / "docsync"), "show", "plan.json", "--format", "markdown"],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=True,
    )
    assert comment.startswith(shown.stdout)
    assert comment.endswith(
        "Text plan: the log of [this run](https://github.com/acme/docs/actions/runs/4242). "
        "Reviewed plan: artifact `docsync-plan-7`.\n<!-- docsync-plan -->\n"
    )
    assert summary == comment


def test_a_failed_pull_request_plan_puts_its_error_in_the_comment_and_fails_later(
    acme: EmulatorHandle, checkout: Path
) -> None:
    write(checkout / "manifests" / "teams.yaml", "organization: org_acme\nteams: {bogus: 1}\n")
    done, outputs, _ = run_step(acme, checkout, step("plan", "Plan")["run"], PR="7")
    assert done.returncode == 0 and outputs == {"exitcode": "1"}
    comment = (checkout / "plan.md").read_text("utf-8")
    assert comment.startswith("**docsync plan failed:**\n\n```\n")
    assert "teams.yaml" in comment
    upload = step("plan", "Keep the reviewed plan")["if"]
    assert "exitcode == '0'" in upload and "exitcode == '2'" in upload  # no artifact of a failure
    assert step("plan", "Fail when the plan failed")["run"] == "exit 1"


def test_the_drift_check_tells_drift_from_no_drift_from_an_error(
    acme: EmulatorHandle, checkout: Path
) -> None:
    script = step("drift", "Plan main's manifests against the organization")["run"]
    done, outputs, summary = run_step(acme, checkout, script)
    assert done.returncode == 0, done.stderr
    assert outputs == {"drift": "true"}
    assert '+ create team["Writers"]' in done.stdout
    assert summary == (checkout / "drift.md").read_text("utf-8")
    assert 'team["Writers"]' in summary
    applied = run_step(acme, checkout, "docsync apply --plan plan.json")[0]
    assert applied.returncode == 0, applied.stderr
    (checkout / "drift.md").unlink()
    done, outputs, summary = run_step(acme, checkout, script)
    assert done.returncode == 0 and outputs == {"drift": "false"} and summary == ""
    assert not (checkout / "drift.md").exists()
    # An error (exit 1) fails the job and is never read as drift.
    done, outputs, _ = run_step(acme, checkout, script, DOCSYNC_TOKEN="tok_nobody")
    assert done.returncode == 1 and outputs == {}
    assert "::error title=docsync drift check failed::docsync plan exited 1" in done.stdout


def test_without_a_reviewed_plan_the_apply_job_stops_and_says_why(
    acme: EmulatorHandle, checkout: Path
) -> None:
    script = step("apply", "Stop when there is no reviewed plan")["run"]
    done, _, summary = run_step(acme, checkout, script, WHY="", ARTIFACT="docsync-plan-7")
    assert done.returncode == 1
    why = (
        "the artifact docsync-plan-7 was not found "
        "(expired after its retention days, or its plan failed)"
    )
    assert f"::error title=docsync: no reviewed plan, nothing applied::{why}\n" in done.stdout
    assert summary.startswith("### docsync: no reviewed plan, nothing applied\n\n" + why)
    assert "docsync never applies a plan nobody reviewed" in summary
    done, _, summary = run_step(
        acme, checkout, script, WHY="commit abc is not the merge of a pull request", ARTIFACT=""
    )
    assert done.returncode == 1 and "commit abc is not the merge of a pull request" in summary


def test_the_apply_job_shows_the_reviewed_plan_then_applies_exactly_it(
    acme: EmulatorHandle, checkout: Path
) -> None:
    planned = run_step(acme, checkout, step("plan", "Plan")["run"], PR="7")[0]
    assert planned.returncode == 0, planned.stderr
    shown, _, summary = run_step(
        acme, checkout, step("apply", "Show the plan being applied")["run"]
    )
    assert shown.returncode == 0, shown.stderr
    assert '+ create team["Writers"]' in shown.stdout and 'team["Writers"]' in summary
    applied = run_step(acme, checkout, step("apply", "Apply")["run"])[0]
    assert applied.returncode == 0, applied.stderr
    with acme.client() as client:
        teams = client.get("/v1/orgs/org_acme/teams").json()["items"]
    assert "Writers" in {team["title"] for team in teams}


# --- the github-script steps, run by node against a mock GitHub -------------------------

#: Runs a github-script `script` as actions/github-script does (an async function of github,
#: context, core and require), with a GitHub whose answers come from a JSON state; prints the
#: calls made and the outputs set.
MOCK_GITHUB = r"""
const fs = require("node:fs");
const [script, statePath] = process.argv.slice(2);
const state = JSON.parse(fs.readFileSync(statePath, "utf8"));
const calls = [];
const outputs = {};
const api = (name) => async (args) => {
  calls.push([name, args]);
  return {data: (state.answers || {})[name] ?? {}};
};
const github = {
  paginate: async (method, args) => (await method(args)).data,
  rest: {
    issues: Object.fromEntries(["listForRepo", "create", "update", "createComment",
      "listComments", "updateComment"].map((m) => [m, api(`issues.${m}`)])),
    repos: {
      listPullRequestsAssociatedWithCommit: api("repos.listPullRequestsAssociatedWithCommit"),
    },
  },
};
const core = {setOutput: (key, value) => { outputs[key] = value; }};
const context = {repo: {owner: "acme", repo: "docs"}, serverUrl: "https://github.com",
  runId: 4242, issue: {number: 7}, ...state.context};
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
new AsyncFunction("github", "context", "core", "require", fs.readFileSync(script, "utf8"))(
  github, context, core, require,
).then(() => console.log(JSON.stringify({calls, outputs})));
"""


def github_script(
    where: Path, name: str, job: str, state: dict[str, Any], **env: str
) -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        missing("node is not installed: the github-script steps are run by it")
    assert node is not None
    write(where / "script.js", step(job, name)["with"]["script"])
    write(where / "state.json", json.dumps(state))
    write(where / "mock.cjs", MOCK_GITHUB)
    done = subprocess.run(
        [node, "mock.cjs", "script.js", "state.json"],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        env={"PATH": os.environ["PATH"], **env},
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


DRIFT_ISSUE = "Open, update or close the drift issue"
MARKER = "<!-- docsync-drift -->"


def drift(where: Path, open_issues: list[dict[str, Any]], drifted: bool) -> list[list[Any]]:
    write(where / "drift.md", "### docsync plan\n\n+ create team Writers\n")
    state = {"answers": {"issues.listForRepo": open_issues}}
    result = github_script(where, DRIFT_ISSUE, "drift", state, DRIFT=str(drifted).lower())
    calls: list[list[Any]] = result["calls"]
    assert calls[0] == [
        "issues.listForRepo",
        {"owner": "acme", "repo": "docs", "state": "open", "labels": "docsync-drift"},
    ]
    return calls[1:]


def test_drift_opens_one_issue_with_the_plan(tmp_path: Path) -> None:
    unrelated = [
        {"number": 3, "body": "a person's issue with the label"},
        {"number": 4, "body": MARKER, "pull_request": {}},
    ]
    ((name, args),) = drift(tmp_path, unrelated, drifted=True)
    assert name == "issues.create"
    assert args["labels"] == ["docsync-drift"]
    assert args["title"] == "docsync: the organization drifted from its manifests"
    assert args["body"].startswith(MARKER + "\nThe organization no longer matches")
    assert "https://github.com/acme/docs/actions/runs/4242" in args["body"]
    assert args["body"].endswith("\n\n### docsync plan\n\n+ create team Writers\n")


def test_drift_updates_the_open_issue_instead_of_opening_a_second(tmp_path: Path) -> None:
    issue = {"number": 12, "body": f"{MARKER}\nolder plan"}
    ((name, args),) = drift(tmp_path, [issue], drifted=True)
    assert name == "issues.update" and args["issue_number"] == 12
    assert args["body"].endswith("+ create team Writers\n") and "state" not in args


def test_no_drift_closes_the_open_issue_and_leaves_none_alone(tmp_path: Path) -> None:
    issue = {"number": 12, "body": f"{MARKER}\nolder plan"}
    comment, close = drift(tmp_path, [issue], drifted=False)
    assert comment[0] == "issues.createComment" and comment[1]["issue_number"] == 12
    assert comment[1]["body"].startswith("No drift any more")
    assert close == [
        "issues.update",
        {"owner": "acme", "repo": "docs", "issue_number": 12, "state": "closed"},
    ]
    assert drift(tmp_path, [], drifted=False) == []


SOURCE = "Find the reviewed plan"
WORKFLOW_REF = "acme/docs/.github/workflows/docsync.yml@refs/heads/main"


def source(where: Path, context: dict[str, Any], pulls: Any = None, plan_run: str = "") -> Any:
    state = {"context": context, "answers": {"repos.listPullRequestsAssociatedWithCommit": pulls}}
    result = github_script(
        where, SOURCE, "apply", state, GITHUB_WORKFLOW_REF=WORKFLOW_REF, PLAN_RUN=plan_run
    )
    return result["outputs"]


def test_a_merge_finds_its_pull_requests_plan_by_the_workflow_file_name(tmp_path: Path) -> None:
    push = {"eventName": "push", "ref": "refs/heads/main", "sha": "c0ffee"}
    pulls = [{"number": 5, "merged_at": None}, {"number": 7, "merged_at": "2026-11-23T10:00:00Z"}]
    assert source(tmp_path, push, pulls) == {
        "workflow": "docsync.yml",
        "pr": "7",
        "artifact": "docsync-plan-7",
    }
    alone = source(tmp_path, push, [])
    assert alone == {
        "workflow": "docsync.yml",
        "why": "commit c0ffee is not the merge of a pull request",
    }


def test_a_plan_is_applied_by_hand_from_main_only_and_by_run_id(tmp_path: Path) -> None:
    by_hand = {"eventName": "workflow_dispatch", "ref": "refs/heads/main", "sha": "c0ffee"}
    assert source(tmp_path, by_hand, plan_run="9876") == {
        "workflow": "docsync.yml",
        "run": "9876",
        "artifact": "docsync-plan-run-9876",
    }
    assert source(tmp_path, by_hand, plan_run="latest")["why"] == (
        'plan_run "latest" is not a run id (the number in the run\'s URL)'
    )
    branch = {**by_hand, "ref": "refs/heads/feature"}
    assert source(tmp_path, branch, plan_run="9876") == {
        "workflow": "docsync.yml",
        "why": "a plan is applied from main only, not from refs/heads/feature",
    }

"""What the CI example and the docsync Action say, read as data: the example's triggers and
jobs, least privilege (no job that runs a pull request's code holds the apply token, which lives
in a protected environment; each job asks for its own permissions; a fork's pull request runs
nothing of the fork; the Action installs docsync from its own commit, running nothing of the
checkout), every action pinned by commit with its release, the Action given only inputs it has,
the secrets read documented, and every docsync command one the CLI accepts."""

from __future__ import annotations

import re

import click

from docsync.cli import main
from tests.gitops.ci import (
    ACTION,
    APPLY,
    PINNED,
    REPO,
    WORKFLOW,
    WORKFLOWS,
    action,
    action_step,
    all_jobs,
    docsync_commands,
    docsync_steps,
    job,
    load,
    step,
    workflow_commands,
)

#: The actions the example uses, at the commits their tags named when checked (in mirrors of
#: the actions' repositories): a change of pin is a change of this table.
VERIFIED = {
    "actions/checkout": ("3d3c42e5aac5ba805825da76410c181273ba90b1", "v7.0.1"),
    "actions/setup-python": ("5fda3b95a4ea91299a34e894583c3862153e4b97", "v7.0.0"),
    "actions/upload-artifact": ("bbbca2ddaa5d8feaa63e36b76fdaad77386f024f", "v7.0.0"),
    "actions/download-artifact": ("3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c", "v8.0.1"),
    "actions/github-script": ("ed597411d8f924073f98dfc5c65a23a2325f34cd", "v8.0.0"),
}
ENVIRONMENTS = [
    {"environment": "staging", "secrets": "STAGING"},
    {"environment": "production", "secrets": "PRODUCTION"},
]


def test_the_workflow_plans_reviews_applies_staging_then_production_and_checks_drift() -> None:
    on = load()["on"]
    assert set(on) == {
        "pull_request",
        "pull_request_target",
        "push",
        "workflow_dispatch",
        "schedule",
    }
    assert on["push"]["branches"] == ["main"]
    assert {k: v["default"] for k, v in on["workflow_dispatch"]["inputs"].items()} == {
        "pull_request": "",
        "plan_run": "",
    }
    assert set(load()["jobs"]) == {"plan", "fork", "apply-staging", "apply-production", "drift"}
    for name in ("plan", "drift"):
        assert job(name)["strategy"]["matrix"] == {"include": ENVIRONMENTS}
    staging, production = job("apply-staging"), job("apply-production")
    assert staging["uses"] == production["uses"] == "./.github/workflows/docsync-apply.yml"
    assert staging["with"]["environment"] == "staging" and "needs" not in staging
    assert production["with"]["environment"] == "production"
    assert production["needs"] == "apply-staging"  # production only once staging took its plan
    plan = step("plan", "Plan")["with"]
    assert plan["command"] == "plan" and plan["comment"] == "true" and "artifact" not in plan
    assert plan["var-files"] == "vars/${{ matrix.environment }}.yaml"
    # the plan is kept for its apply by the rehearsal, once it kept the plan's promise
    rehearse = step("plan", "Rehearse")["with"]
    assert rehearse["command"] == "rehearse" and rehearse["comment"] == "true"
    assert rehearse["var-files"] == plan["var-files"]
    assert "format('docsync-plan-{0}-{1}', env.PR, matrix.environment)" in rehearse["artifact"]
    drift = step("drift", "Plan main's manifests against the organization")["with"]
    assert (drift["command"], drift["var-files"]) == ("plan", plan["var-files"])
    applied = step("apply", "Apply")["with"]
    assert applied == {
        "command": "apply",
        "plan-file": "plan.json",
        "var-files": "vars/${{ inputs.environment }}.yaml",
    }
    # The Action saves the plan and its whole Markdown, keeps both, and comments.
    run = action_step("Run docsync")["run"]
    assert '--out "$PLAN_FILE" --detailed-exitcode' in run
    assert 'docsync show "$PLAN_FILE" --format markdown --max-chars 0 > "$markdown"' in run
    assert action_step("Keep the reviewed plan")["with"]["path"].splitlines() == [
        "${{ steps.run.outputs.plan-file }}",
        "${{ steps.run.outputs.markdown-file }}",
    ]


def test_the_workflows_give_the_action_only_inputs_it_has_and_every_one_it_needs() -> None:
    inputs = action()["inputs"]
    required = {name for name, spec in inputs.items() if spec.get("required")}
    assert required == {"command"}
    steps = docsync_steps()
    assert [name for name, _ in steps] == ["plan", "plan", "drift", "apply"]
    for name, entry in steps:
        assert set(entry["with"]) <= set(inputs), name
        assert required <= set(entry["with"]), name


def test_no_job_that_runs_pull_request_code_holds_the_apply_token() -> None:
    """The apply token is the secret DOCSYNC_TOKEN of an environment: only the apply job of
    docsync-apply.yml reads it, and that job names its environment. docsync.yml never reads
    it: its plan job (a pull request's code) reads a plan token of its own."""
    assert "secrets.DOCSYNC_TOKEN" not in WORKFLOW.read_text("utf-8")
    assert "DOCSYNC_TOKEN" not in load()["env"]
    apply = job("apply")
    assert apply["environment"] == "${{ inputs.environment }}"
    assert apply["env"]["DOCSYNC_TOKEN"] == "${{ secrets.DOCSYNC_TOKEN }}"
    assert APPLY.read_text("utf-8").count("secrets.DOCSYNC_TOKEN") == 1
    for name in ("plan", "drift"):
        token = job(name)["env"]["DOCSYNC_TOKEN"]
        assert token == "${{ secrets[format('DOCSYNC_PLAN_TOKEN_{0}', matrix.secrets)] }}"
        assert "environment" not in job(name)


def test_each_job_asks_for_the_permissions_it_needs_only() -> None:
    assert load()["permissions"] == {} == load(APPLY)["permissions"]
    reads = {"contents": "read", "actions": "read", "pull-requests": "read"}
    assert {name: each["permissions"] for name, each in all_jobs()} == {
        "plan": {"contents": "read", "pull-requests": "write"},
        "fork": {"pull-requests": "write"},
        "apply-staging": reads,
        "apply-production": reads,
        "drift": {"contents": "read", "issues": "write"},
        "apply": reads,
    }


def test_a_forks_pull_request_runs_nothing_of_the_fork() -> None:
    """pull_request_target runs main's file with a write token: only the fork job answers it,
    and it checks nothing out, runs no shell and reads no secret; the plan job skips forks."""
    for name, each in all_jobs():
        admits = "pull_request_target" in str(each.get("if", ""))
        assert admits == (name == "fork"), name
    fork = job("fork")
    assert "github.event.pull_request.head.repo.full_name != github.repository" in fork["if"]
    assert [s["uses"].split("@")[0] for s in fork["steps"]] == ["actions/github-script"]
    assert not re.search(r"secrets[.[]", str(fork))
    assert "${{" not in fork["steps"][0]["with"]["script"]
    assert "head.repo.full_name == github.repository" in job("plan")["if"]


def test_every_action_is_pinned_by_commit_with_its_release_in_a_comment() -> None:
    """The actions of the workflows and of the docsync Action; docsync itself is pinned at
    its release commit (tests/gitops/test_ci_release.py checks which)."""
    docsync = set()
    for path in (*WORKFLOWS, ACTION):
        for line in path.read_text("utf-8").splitlines():
            if "uses:" not in line or "uses: ./" in line or line.lstrip().startswith("#"):
                continue
            pinned = PINNED.match(line)
            assert pinned, f"{path.name}: not pinned by commit with its version: {line.strip()}"
            name, commit, version = pinned.groups()
            if name == "OWNER/docsync":
                docsync.add((commit, version))
            else:
                assert VERIFIED[name] == (commit, version), line
    assert len(docsync) == 1, docsync  # one release, everywhere


def test_checkouts_leave_no_credentials_and_nothing_checked_out_runs_at_the_install() -> None:
    """docsync is installed by the Action, from the Action's own commit, in the Action's
    directory: nothing of a pull request's checkout can run there (a `venv.py` at its root
    would, were `python -m venv` run in the workspace). The workflows install nothing."""
    for name, each in all_jobs():
        steps = each.get("steps", [])
        assert not [s for s in steps if "pip" in s.get("run", "")], name
        uses = [s.get("uses", "").split("@")[0] for s in steps]
        if "actions/checkout" in uses:
            checkout = steps[uses.index("actions/checkout")]
            assert checkout["with"]["persist-credentials"] is False, name
    install = action_step("Install docsync from the action's commit")
    assert install["working-directory"] == "${{ github.action_path }}"
    assert 'python" -m pip install --quiet --disable-pip-version-check .\n' in install["run"]
    others = [s for s in action()["runs"]["steps"] if s.get("name") != install["name"]]
    assert not [s for s in others if "pip" in s.get("run", "")]


def secrets_read() -> set[str]:
    """Every secret the two files read, per environment where the name takes a suffix."""
    names: set[str] = set()
    for path in WORKFLOWS:
        text = path.read_text("utf-8")
        names |= set(re.findall(r"secrets\.([A-Z_]+)", text))
        for prefix in re.findall(r"secrets\[format\('([A-Z_]+)\{0\}'", text):
            names |= {prefix + suffix for suffix in ("STAGING", "PRODUCTION")}
    return names


def test_every_secret_read_is_documented_in_the_header_and_the_docs() -> None:
    header = WORKFLOW.read_text("utf-8").split("\nname:")[0]
    documented = set(re.findall(r"^#   ([A-Z_]+(?:, [A-Z_]+)*):", header, re.M))
    names = {name for line in documented for name in line.split(", ")}
    assert (
        secrets_read()
        == names
        == {
            "DOCSYNC_PLAN_TOKEN_STAGING",
            "DOCSYNC_PLAN_TOKEN_PRODUCTION",
            "DOCSYNC_PLAN_KEY",
            "OKTA_CERT_STAGING",
            "OKTA_CERT_PRODUCTION",
            "DOCSYNC_TOKEN",
        }
    )
    gitops = (REPO / "docs" / "gitops.md").read_text("utf-8")
    for name in names:
        assert f"`{name}`" in gitops, name


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


def test_every_docsync_command_in_the_workflows_is_valid() -> None:
    commands = workflow_commands()
    assert sorted(c[0] for c in commands) == [
        *["apply"] * 2,
        "plan",
        "rehearse",
        *["show"] * 4,
        "validate",
    ]
    assert unknown(commands, cli_options()) == []


def test_the_option_check_refuses_what_the_cli_does_not_accept() -> None:
    commands = docsync_commands("docsync plan x --frobnicate\n docsync shwo plan.json")
    assert unknown(commands, cli_options()) == [
        "docsync plan has no --frobnicate",
        "docsync has no command shwo",
    ]

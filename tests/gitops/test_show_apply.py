"""`docsync show` (offline, saved or JSON plans, clear errors), `apply --format json` (done,
failed and skipped with ids; stdout is the document alone) and the apply prompt on stderr."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from docsync.cli import main
from docsync.cli.apply import confirm
from docsync.core.errors import ApplyRefused
from docsync.core.model import Action, Plan
from docsync.engine.apply_json import apply_document
from docsync.engine.executor import ActionResult, ApplyReport
from tests.emulator_harness import EmulatorHandle
from tests.gitops.conftest import Cli, write

MANIFEST = """\
organization: org_acme
teams:
  - {title: Platform, members: [ada@acme.example]}
  - {title: Writers}
"""
#: `show` never reads the organization: no token, and nothing listening at the URL.
OFFLINE = {"DOCSYNC_API_URL": "http://127.0.0.1:9", "DOCSYNC_TOKEN": "", "NO_COLOR": "1"}


def show(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["show", *map(str, args)], env=OFFLINE)
    return result.exit_code, result.stdout, result.stderr


def test_show_renders_a_json_plan_too_headed_by_the_organization_id(cli: Cli, in_tmp: Path) -> None:
    write(in_tmp / "m.yaml", MANIFEST)
    planned = cli("plan", "m.yaml", "--format", "json")
    assert planned.exit_code == 0, planned.output
    write(in_tmp / "plan.json", planned.stdout)
    code, out, _ = show("plan.json", "--format", "json")
    assert code == 0 and out == planned.stdout
    code, out, _ = show("plan.json")
    assert code == 0
    assert out.startswith("docsync will make these changes to organization org_acme:\n")
    assert '  + create team["Writers"]  (m.yaml:4:5)\n' in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "plan.json: not a plan file: not JSON (line 1, column 1: expecting value)"),
        ("", "plan.json: empty, not a plan (`docsync plan --out FILE` saves one)"),
        ('{"teams": []}', "plan.json: neither a saved plan (`docsync plan --out FILE`) nor"),
        (
            '{"format_version": 1, "organization": "org_acme"}',
            "plan.json: not a plan this docsync can show: at docsync_version: Field required",
        ),
        ('{"format": "docsync-saved-plan/2"}', "plan.json: a damaged saved plan"),
    ],
    ids=["not-json", "empty", "not-a-plan", "damaged-plan", "damaged-saved-plan"],
)
def test_show_of_a_file_that_is_no_plan_is_a_clear_error(
    in_tmp: Path, content: str, message: str
) -> None:
    write(in_tmp / "plan.json", content)
    code, out, err = show("plan.json")
    assert code == 1 and out == ""
    assert err.startswith(f"Error: {message}"), err
    assert "Traceback" not in err


def test_apply_format_json_prints_what_was_done_with_ids(
    cli: Cli, acme: EmulatorHandle, in_tmp: Path
) -> None:
    write(in_tmp / "m.yaml", MANIFEST)
    result = cli("apply", "m.yaml", "--auto-approve", "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)  # stdout is the document alone
    assert document["ok"] is True
    assert document["summary"] == {"done": 1, "failed": 0, "skipped": 0}  # Platform is seeded
    with acme.client() as client:
        teams = client.get("/v1/orgs/org_acme/teams").json()["items"]
    ids = {team["title"]: team["id"] for team in teams}
    done = {entry["address"]: entry for entry in document["done"]}
    assert done['team["Writers"]']["id"] == ids["Writers"]
    assert done['team["Writers"]']["verb"] == "create"
    assert [a["key"] for a in document["plan"]["actions"]] == ['create team["Writers"]']
    # What people read went to stderr: the plan, the progress, the summary line.
    assert 'create team["Writers"]' in result.stderr
    assert "Apply finished: 1 done, 0 failed, 0 skipped." in result.stderr


def test_apply_document_lists_failed_and_skipped_actions_with_their_errors() -> None:
    made = Action("create", "team", 'team["A"]')
    broken = Action("update", "team", 'team["B"]', live_id="t_b")
    waiting = Action("delete", "team", 'team["C"]', live_id="t_c", depends_on=[broken.key])
    report = ApplyReport(
        results=[
            ActionResult(made, "done", 0.25),
            ActionResult(broken, "failed", 0.5, error="409 Conflict: title taken"),
            ActionResult(waiting, "skipped", error=f"skipped: {broken.key} failed"),
        ],
        ids={'team["A"]': "t_a", 'team["B"]': "t_b", 'team["C"]': "t_c"},
    )
    document = apply_document(Plan("org_acme", [made, broken, waiting]), report)
    assert document["ok"] is False
    assert document["summary"] == {"done": 1, "failed": 1, "skipped": 1}
    assert document["done"] == [
        {
            "key": 'create team["A"]',
            "verb": "create",
            "kind": "team",
            "address": 'team["A"]',
            "id": "t_a",
            "seconds": 0.25,
        }
    ]
    assert document["failed"][0]["id"] == "t_b"
    assert document["failed"][0]["error"] == "409 Conflict: title taken"
    assert document["skipped"][0]["error"] == 'skipped: update team["B"] failed'


@pytest.mark.parametrize(("answer", "applies"), [("yes\n", True), ("y\n", False)])
def test_the_apply_prompt_is_on_stderr(
    monkeypatch: pytest.MonkeyPatch, answer: str, applies: bool
) -> None:
    """stdout may be a file of results (`--format json > out.json`): the question is not."""
    runner = CliRunner()
    with runner.isolation(input=answer) as (out, err, _):
        monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
        if applies:
            confirm(auto_approve=False)
        else:
            with pytest.raises(ApplyRefused, match="apply cancelled: nothing was changed"):
                confirm(auto_approve=False)
        assert out.getvalue() == b""
        assert b"Apply these changes? Only 'yes' is accepted" in err.getvalue()

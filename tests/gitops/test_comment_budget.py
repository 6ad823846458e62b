"""A big plan stays reviewable from its pull request: past the comment budget the comment keeps
the summary, every destructive or audience-changing action and the access tables, counts what
it left out per kind and verb, and names where the whole plan is (the run's artifact, and the
command that renders it whole); `--max-chars 0` renders it whole."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from docsync.cli import main
from docsync.render.budget import DEFAULT_BUDGET, GITHUB_LIMIT
from docsync.render.json import render_json
from docsync.render.markdown import render_markdown
from tests.gitops.big_plans import migration
from tests.gitops.conftest import Cli, write

ARTIFACT = "[artifact `docsync-plan-7-production`](https://github.com/acme/docs/actions/runs/42/artifacts/9)"


def left_out(text: str) -> dict[tuple[str, str], int]:
    """The note's table: (verb, kind) -> count, read back from the Markdown."""
    note = text[text.index("#### Left out of this comment") :]
    header, *rows = [line.strip() for line in note.splitlines() if line.strip().startswith("|")]
    verbs = [cell.strip() for cell in header.strip("|").split("|")][1:]
    found = {}
    for row in rows[1:]:  # past the |---| line
        kind, *cells = [cell.strip() for cell in row.strip("|").split("|")]
        for verb, cell in zip(verbs, cells, strict=True):
            if cell and kind != "**all**":
                found[(verb, kind)] = int(cell.replace(",", ""))
    return found


def test_a_3000_action_plan_comment_stays_under_the_budget_and_names_the_artifact() -> None:
    plan = migration()
    assert len(plan.actions) == 3_000
    text = render_markdown(plan, title="Acme (org_acme)", whole_plan=ARTIFACT)
    assert len(text) <= DEFAULT_BUDGET < GITHUB_LIMIT
    assert "**Plan: 2490 to create, 360 to update, 30 to unpublish, 120 to delete**" in text
    risky = [a for a in plan.actions if a.verb == "delete" or a.audience_change]
    assert len(risky) == 150
    careful = text[text.index("#### Needs a careful look") : text.index("#### Access")]
    for action in risky:
        assert f"`{action.address}`" in careful
    tables = re.findall(r"^`(space\[\"Space \d+\"\])`$", text, re.M)
    assert len(tables) == 20 and "| member ada@acme.example | admin | admin | = |" in text
    note = text[text.index("#### Left out of this comment") :]
    assert f"**The whole plan: {ARTIFACT}.**" in note
    assert "(every flagged action is named above)" in note
    # Exactly the actions whose changes are not shown, per kind and verb.
    shown = re.findall(r"^<details><summary>.*?<b>(\w+)</b> <code>(\w+)\[", text, re.M)
    counted = left_out(text)
    every: dict[tuple[str, str], int] = {}
    for action in plan.actions:
        every[(action.verb, action.kind)] = every.get((action.verb, action.kind), 0) + 1
    for verb, kind in shown:
        every[(verb, kind)] -= 1
    assert counted == {key: count for key, count in every.items() if count}
    total = sum(counted.values())
    assert f"the changes of **{total:,} of 3,000 action(s)**" in note
    assert total + len(shown) == 3_000


def test_without_a_budget_the_whole_plan_is_rendered() -> None:
    plan = migration()
    whole = render_markdown(plan, title="Acme (org_acme)", budget=0)
    assert len(whole) > GITHUB_LIMIT
    assert whole.count("<details><summary>") == 3_000
    assert "Left out" not in whole


def saved_json(tmp_path: Path) -> Path:
    path = tmp_path / "plan.json"
    path.write_text(render_json(migration()), "utf-8")
    return path


def show(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["show", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def test_show_cuts_at_max_chars_and_names_the_whole_plan(tmp_path: Path) -> None:
    path = saved_json(tmp_path)
    code, out, _ = show(path, "--format", "markdown")
    assert code == 0 and len(out) <= DEFAULT_BUDGET
    assert f"**The whole plan: `docsync show {path} --format markdown --max-chars 0`.**" in out
    code, out, _ = show(
        path, "--format", "markdown", "--max-chars", "20000", "--whole-plan", ARTIFACT
    )
    assert code == 0 and len(out) <= 20_000 and f"**The whole plan: {ARTIFACT}.**" in out
    code, out, _ = show(path, "--format", "markdown", "--max-chars", "0")
    assert code == 0 and out.count("<details><summary>") == 3_000


def test_the_budget_options_are_refused_where_they_mean_nothing(tmp_path: Path) -> None:
    path = saved_json(tmp_path)
    code, _, err = show(path, "--max-chars", "0")
    assert code == 2 and "--max-chars shape the Markdown plan: add --format markdown" in err
    code, _, err = show(path, "--format", "json", "--whole-plan", "x")
    assert code == 2 and "--whole-plan shape the Markdown plan" in err
    code, _, err = show(path, "--format", "markdown", "--max-chars", "100")
    assert code == 2 and "give at least 4000, or 0 for no limit" in err
    assert json.loads(show(path, "--format", "json")[1])["format_version"] == 1


def test_plan_cuts_its_markdown_and_names_the_saved_plan_to_render_whole(
    cli: Cli, in_tmp: Path
) -> None:
    teams = "".join(f"  - {{title: Team {i:03}, members: [ada@acme.example]}}\n" for i in range(80))
    write(in_tmp / "m.yaml", f"organization: org_acme\nteams:\n{teams}")
    options = ("--format", "markdown", "--max-chars", "4000")
    planned = cli("plan", "m.yaml", *options, "--out", "plan.json")
    assert planned.exit_code == 0, planned.output
    assert len(planned.stdout) <= 4000
    whole = "**The whole plan: `docsync show plan.json --format markdown --max-chars 0`.**"
    assert whole in planned.stdout
    left = re.search(r"^  \| team \| (\d+) \|$", planned.stdout, re.M)
    details = re.findall(r"^<details><summary><b>create</b>", planned.stdout, re.M)
    assert left and int(left[1]) + len(details) == 80
    shown = cli("show", "plan.json", *options)
    assert shown.stdout == planned.stdout
    refused = cli("plan", "m.yaml", "--max-chars", "0", "--detailed-exitcode")
    assert refused.exit_code == 1  # a usage error, never read as "changes present"
    assert "--max-chars shape the Markdown plan: add --format markdown" in refused.stderr

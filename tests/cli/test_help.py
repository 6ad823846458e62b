"""`--help` reads whole: each command's summary in `docsync --help` is a sentence, not cut;
`apply` documents its template variables as `plan` does, and says what a saved plan needs."""

from __future__ import annotations

import click
from click.testing import CliRunner

from docsync.cli import main
from docsync.cli.commands import COMMANDS


def _help(*args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--help"], terminal_width=80)
    assert result.exit_code == 0, result.output
    return result.output


def test_every_command_summary_reads_whole() -> None:
    listing = _help().split("Commands:\n")[1]
    summaries = {}
    for line in listing.splitlines():
        name, _, summary = line.strip().partition(" ")
        summaries[name] = summary.strip()
    assert set(summaries) == set(COMMANDS)
    for name, summary in summaries.items():
        assert not summary.endswith("...") and summary.endswith("."), (name, summary)


def _option_help(command: str, option: str) -> str | None:
    ctx = click.Context(main)
    found = main.get_command(ctx, command)  # type: ignore[attr-defined]
    (param,) = [p for p in found.params if option in getattr(p, "opts", ())]
    return getattr(param, "help", None)


def test_apply_documents_variables_as_plan_does_and_what_a_saved_plan_needs() -> None:
    for option in ("--var", "--var-file"):
        assert _option_help("apply", option) == _option_help("plan", option)
    text = " ".join(_help("apply").split())
    for needed in ("directory", "--var/--var-file", "env() variables", "DOCSYNC_PLAN_KEY"):
        assert needed in text.split("Options:")[0], needed
    assert "DOCSYNC_PLAN_KEY" in str(_option_help("apply", "--plan"))

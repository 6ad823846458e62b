"""`docsync apply`: plan, confirm, then carry the plan out along its dependency graph."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import click

from docsync.cli import main
from docsync.cli.api_options import api_options, make_client
from docsync.cli.options import common_options, load_from_options, manifest_options, setup_output
from docsync.cli.plan import org_title, report_requests
from docsync.engine import run
from docsync.engine.errors import ApplyRefused
from docsync.engine.executor import ActionResult, ApplyReport
from docsync.manifest import LoadedManifest
from docsync.render.text import Painter, render_plan

_MARKS = {"done": ("ok", "green"), "failed": ("FAILED", "red"), "skipped": ("skipped", "yellow")}


def confirm(auto_approve: bool) -> None:
    """Never prompts without a terminal: CI must say --auto-approve."""
    if auto_approve:
        return
    if not sys.stdin.isatty():
        raise ApplyRefused(
            "refusing to apply without confirmation: there is no terminal to ask on. "
            "Review the plan above and pass --auto-approve to apply it."
        )
    answer = click.prompt(
        "Apply these changes? Only 'yes' is accepted", default="", show_default=False
    )
    if answer.strip() != "yes":
        raise ApplyRefused("apply cancelled: nothing was changed")


async def plan_and_apply(
    loaded: LoadedManifest,
    api_url: str | None,
    parallelism: int,
    color: bool,
    auto_approve: bool,
    verbose: int,
) -> ApplyReport | None:
    paint = Painter(color)

    def progress(result: ActionResult) -> None:
        word, style = _MARKS[result.outcome]
        action = result.action
        line = f"  {paint(word.ljust(7), style)} {action.verb} {action.address}"
        if result.outcome == "done":
            line += paint(f"  ({result.seconds:.2f} s)", "dim")
        elif result.error:
            line += f": {result.error}"
        click.echo(line)

    async with make_client(api_url, parallelism) as api:
        plan, live = await run.plan(api, loaded)
        click.echo(render_plan(plan, color=color, title=org_title(live)), nl=False)
        if plan.empty:
            return None
        await asyncio.to_thread(confirm, auto_approve)
        click.echo("Applying:")
        report = await run.apply(api, plan, live, parallelism=parallelism, on_result=progress)
        if verbose:
            report_requests(api.stats, "plan and apply")
        return report


@main.command("apply")
@manifest_options
@api_options
@common_options
@click.option(
    "--auto-approve", is_flag=True, help="Apply without asking (required without a terminal)."
)
def apply_command(
    paths: tuple[str, ...],
    var: tuple[str, ...],
    var_file: tuple[str, ...],
    api_url: str | None,
    parallelism: int,
    verbose: int,
    no_color: bool,
    auto_approve: bool,
    **_: Any,
) -> None:
    """Change the organization to match the manifests."""
    color = setup_output(verbose, no_color)
    loaded = load_from_options(paths, var, var_file)
    report = asyncio.run(plan_and_apply(loaded, api_url, parallelism, color, auto_approve, verbose))
    if report is None:
        return
    click.echo(f"Apply finished: {report.summary()}.")
    if not report.ok:
        sys.exit(1)

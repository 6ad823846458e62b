"""`docsync apply`: plan (or take a saved, reviewed plan), confirm, then carry it out along its
dependency graph."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

import click

from docsync.cli import main
from docsync.cli.api_options import api_options, api_session, force_option
from docsync.cli.options import (
    common_options,
    load_from_options,
    setup_output,
    variable_options,
)
from docsync.cli.plan import org_title, report_requests
from docsync.cli.plan_options import plan_shape_options
from docsync.cli.signals import doing
from docsync.core.errors import ApplyRefused

if TYPE_CHECKING:
    from docsync.cli.interrupts import Interrupts
    from docsync.core.model import Plan
    from docsync.engine.executor import ActionResult, ApplyReport
    from docsync.engine.saved import SavedPlan
    from docsync.manifest import LoadedManifest
    from docsync.render.text import Painter

_MARKS = {
    "done": ("ok", "green"),
    "failed": ("FAILED", "red"),
    "skipped": ("skipped", "yellow"),
    "not started": ("not started", "yellow"),
}


def confirm(auto_approve: bool) -> None:
    """Never prompts without a terminal: CI must say --auto-approve."""
    if auto_approve:
        return
    if not sys.stdin.isatty():
        raise ApplyRefused(
            "refusing to apply without confirmation: there is no terminal to ask on. "
            "Review the plan above and pass --auto-approve to apply it."
        )
    # On the terminal (stderr), not stdout: stdout may be a file or a pipe of the results.
    answer = click.prompt(
        "Apply these changes? Only 'yes' is accepted", default="", show_default=False, err=True
    )
    if answer.strip() != "yes":
        raise ApplyRefused("apply cancelled: nothing was changed")


class ProgressLines:
    """An apply's progress, one line an action as each ends: `[3/29] ok create team["X"]`
    (`total`: the plan's actions, set once it is known)."""

    def __init__(self, paint: Painter, err: bool) -> None:
        self.paint = paint
        self.err = err
        self.total = 0
        self.counted = 0

    def __call__(self, result: ActionResult) -> None:
        self.counted += 1
        if result.outcome == "not started":
            return  # the summary counts them: a line each would bury what happened
        word, style = _MARKS[result.outcome]
        action = result.action
        step = self.paint(f"[{self.counted}/{self.total}]", "dim")
        line = f"  {step} {self.paint(word.ljust(7), style)} {action.verb} {action.address}"
        if result.outcome == "done":
            line += self.paint(f"  ({result.seconds:.2f} s)", "dim")
        elif result.error:
            line += f": {result.error}"
        click.echo(line, err=self.err)


async def plan_and_apply(
    loaded: LoadedManifest,
    saved: SavedPlan | None,
    options: dict[str, Any],
    interrupts: Interrupts,
) -> tuple[Plan, ApplyReport | None]:
    # The pipeline is loaded when an apply runs, not when the command is defined (`--help`).
    from asyncio import to_thread

    from docsync import policies
    from docsync.cli.reading import reading_status
    from docsync.engine import run
    from docsync.engine.cost import Budget, apply_requests
    from docsync.engine.safety import SafetyPolicy, check
    from docsync.engine.target import narrow
    from docsync.render.text import Painter, render_plan

    color: bool = options["color"]
    # With --format json, stdout holds the result document alone; what people read goes to stderr.
    human_err: bool = options["output_format"] == "json"
    progress = ProgressLines(Painter(color), human_err)

    async with api_session(options["api_url"], options["parallelism"], options["timeout"]) as api:
        async with reading_status(api, options["verbose"]) as watch:
            # A saved plan is made again as it was made: with --resend-secrets, or not.
            resend = saved.resend_secrets if saved is not None else options["resend_secrets"]
            plan, live = await run.plan(api, loaded, watch=watch, resend_secrets=resend)
        run.check_read(live)
        # A saved plan is applied with the targets it was made with.
        plan = narrow(plan, saved.targets if saved is not None else options["targets"])
        # What the plan cost is said from the client's own count: the snapshot taken for the
        # apply's counts time from now on (it said `in 0.00 s`).
        if options["verbose"]:
            report_requests(api.stats, "plan")
            click.echo(Budget(apply_requests(plan), api.rate_limit).describe(), err=True)
        planned = api.stats.copy()
        # Before the saved plan is compared: it holds the notes the `warn` rules left.
        violations = policies.check(plan, loaded)
        if saved is not None:
            saved.check_live(live, plan)
            saved.check_same(plan)
        click.echo(render_plan(plan, color=color, title=org_title(live)), nl=False, err=human_err)
        if violations:
            raise policies.PolicyDenied(violations)
        if plan.empty:
            return plan, None
        policy = SafetyPolicy.from_manifest(
            loaded.manifest.safety,
            force=options["force"],
            max_delete_share=options["max_delete_share"],
        )
        for forced in check(plan, live, policy):
            click.echo(f"Warning: forced past a safety rail: {forced}", err=True)
        if saved is None:
            # A saved plan was reviewed already: like Terraform, it applies without asking.
            with doing("waiting for confirmation"):
                await to_thread(confirm, options["auto_approve"])
        click.echo("Applying:", err=human_err)
        progress.total = len(plan.actions)
        with interrupts.watching():
            report = await run.apply(
                api,
                plan,
                live,
                parallelism=options["parallelism"],
                on_result=progress,
                stop=interrupts.stop,
            )
        if options["verbose"]:
            report_requests(api.stats.since(planned), "apply")
        return plan, report


def check_saved_files(plan_file: str, paths: tuple[str, ...]) -> None:
    """A saved plan names its manifests as `docsync plan` was given them, often relative."""
    missing = [path for path in paths if not os.path.exists(path)]
    if missing:
        raise ApplyRefused(
            f"{plan_file} was made from manifest files that are not here: {', '.join(missing)}. "
            "Its paths are relative to the directory where `docsync plan` ran: run "
            f"`docsync apply --plan` from there (this is {os.getcwd()}), or plan again if the "
            "files were removed. Nothing was changed."
        )


@main.command("apply", short_help="Change the organization to match the manifests or a saved plan.")
@click.argument("paths", nargs=-1, type=click.Path(exists=True), metavar="[PATH]...")
@click.option(
    "--plan",
    "plan_file",
    type=click.Path(exists=True, dir_okay=False),
    help="Apply exactly this plan, saved by `docsync plan --out FILE`: from the directory it "
    "was made in, with the same --var/--var-file values, env() variables and "
    "DOCSYNC_PLAN_KEY (else DOCSYNC_TOKEN); refused when anything changed since.",
)
@variable_options
@api_options
@common_options
@force_option
@plan_shape_options
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: print one document of what was done, failed and skipped (with ids) on stdout; "
    "the plan and progress go to stderr.",
)
@click.option(
    "--auto-approve",
    is_flag=True,
    help="Apply without asking (required without a terminal); a saved plan (--plan) is "
    "applied without asking anyway.",
)
def apply_command(
    paths: tuple[str, ...],
    plan_file: str | None,
    var: tuple[str, ...],
    var_file: tuple[str, ...],
    api_url: str | None,
    parallelism: int,
    timeout: float,
    verbose: int,
    no_color: bool,
    force: bool,
    auto_approve: bool,
    targets: tuple[str, ...],
    max_delete_share: float | None,
    resend_secrets: bool,
    output_format: str,
    **_: Any,
) -> None:
    """Change the organization to match the manifests, or apply a saved plan.

    A saved plan (`--plan FILE`, from `docsync plan --out FILE`) needs what it was made with:
    run it from the directory where the plan was made (it names its manifest files as they
    were given), with the same files, --var/--var-file values and env() variables, and the
    same DOCSYNC_PLAN_KEY (else DOCSYNC_TOKEN), which keys its digests. Otherwise, or when
    the organization changed since, it is refused and nothing is changed.
    """
    from docsync.cli.interrupts import Interrupts, exit_code
    from docsync.core import concurrent
    from docsync.engine.saved import SavedPlan

    color = setup_output(verbose, no_color)
    saved: SavedPlan | None = None
    if plan_file is not None:
        if paths:
            raise click.UsageError("give either manifest PATHs or --plan FILE, not both")
        if auto_approve:
            click.echo(
                "Note: --auto-approve changes nothing with --plan: a saved plan was reviewed "
                "when it was made, and is applied without asking.",
                err=True,
            )
        if targets:
            raise click.UsageError(
                "--target shapes a new plan; a saved plan keeps the targets it was made with"
            )
        if resend_secrets:
            raise click.UsageError(
                "--resend-secrets shapes a new plan; a saved plan sends again what it was "
                "made to (plan with --resend-secrets --out FILE)"
            )
        saved = SavedPlan.read(plan_file)
        paths = tuple(saved.manifests.get("files", []))
        check_saved_files(plan_file, paths)
    elif not paths:
        raise click.UsageError("give the manifest PATHs to apply, or --plan FILE")
    loaded = load_from_options(paths, var, var_file)
    if saved is not None:
        saved.check_manifests(loaded)
    options = {
        "api_url": api_url,
        "parallelism": parallelism,
        "timeout": timeout,
        "color": color,
        "auto_approve": auto_approve,
        "verbose": verbose,
        "force": force,
        "targets": targets,
        "max_delete_share": max_delete_share,
        "resend_secrets": resend_secrets,
        "output_format": output_format,
    }
    interrupts = Interrupts()
    plan, report = concurrent.run(plan_and_apply(loaded, saved, options, interrupts))
    if output_format == "json":
        from docsync.engine.apply_json import render_apply_json

        click.echo(render_apply_json(plan, report), nl=False)
    if report is None:
        return
    verb = "interrupted" if interrupts.signum is not None else "finished"
    click.echo(f"Apply {verb}: {report.summary()}.", err=output_format == "json")
    for failure in report.failures:
        click.echo(f"Error: {failure}", err=True)
    if interrupts.signum is not None:
        click.echo("Apply again to finish: the next plan starts from what was done.", err=True)
        sys.exit(exit_code(interrupts.signum))
    if not report.ok:
        sys.exit(1)

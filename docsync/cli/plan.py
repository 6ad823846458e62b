"""`docsync plan`: read the live state, print what apply would change."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

import click

from docsync.cli import main
from docsync.cli.api_options import api_options, api_session, force_option
from docsync.cli.markdown_options import MarkdownShape, markdown_options, markdown_shape
from docsync.cli.options import (
    common_options,
    format_option,
    load_from_options,
    manifest_options,
    setup_output,
    writing,
)
from docsync.cli.plan_options import plan_shape_options

if TYPE_CHECKING:
    from docsync.api import RequestStats
    from docsync.core.model import Plan
    from docsync.core.state import LiveState
    from docsync.manifest import LoadedManifest


async def fetch_plan(
    loaded: LoadedManifest,
    api_url: str | None,
    parallelism: int,
    verbose: int,
    timeout: float,
    resend_secrets: bool = False,
) -> tuple[Plan, LiveState]:
    # The pipeline is loaded when a plan is made, not when the command is defined (`--help`).
    from docsync.cli.reading import reading_status
    from docsync.engine import run
    from docsync.engine.cost import Budget, apply_requests

    async with api_session(api_url, parallelism, timeout) as api:
        async with reading_status(api, verbose) as watch:
            result = await run.plan(api, loaded, watch=watch, resend_secrets=resend_secrets)
        if verbose:
            report_requests(api.stats, "plan")
            click.echo(Budget(apply_requests(result[0]), api.rate_limit).describe(), err=True)
        return result


def report_requests(stats: RequestStats, what: str) -> None:
    """-v: what the run cost in requests, the scarce resource against production, by kind of
    call (`METHOD /route/{template}`), so a reviewer can check each count."""
    waited = f", {stats.waited:.2f} s of it waiting to retry" if stats.waited >= 0.005 else ""
    click.echo(
        f"{what}: {stats.requests} requests ({stats.retries} retries) in {stats.wall:.2f} s"
        f"{waited}",
        err=True,
    )
    for call, count in sorted(stats.calls.items(), key=lambda item: (-item[1], item[0])):
        click.echo(f"  {count:6}  {call}", err=True)


def saved_to(out: str) -> str:
    """Where the plan went, and how to apply it from there; a device or a pipe (/dev/null)
    keeps nothing to apply, which is said instead."""
    from docsync.manifest.input_files import kind_of

    try:
        what = kind_of(os.stat(out))
    except OSError:  # gone already: nothing to say of what it is
        what = "a file"
    if what != "a file":
        return (
            f"Wrote the plan to {out}, {what}, which keeps nothing to apply: to apply it "
            "later, save it to a file (`--out plan.json`, then `docsync apply --plan plan.json`)."
        )
    return f"Saved the plan to {out}: apply it with `docsync apply --plan {out}`."


def org_title(live: LiveState) -> str:
    return f"{live.organization.get('title')} ({live.org_id})"


def render(
    plan: Plan, live: LiveState, output_format: str, color: bool, shape: MarkdownShape
) -> str:
    """One plan, three renderings that tell the same story."""
    from docsync.render.formats import render_for_people

    if output_format == "json":
        from docsync.render.json import render_json  # its models: only for this format

        return render_json(plan)
    return render_for_people(
        plan,
        output_format,
        color=color,
        title=org_title(live),
        budget=shape.budget,
        whole_plan=shape.whole_plan,
    )


class PlanCommand(click.Command):
    """With --detailed-exitcode, 2 means "changes present": a usage error (click's exit 2) must
    then exit 1, or CI would take a typo for a plan to apply."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        detailed = "--detailed-exitcode" in args
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as error:
            if detailed:
                setattr(error, "exit_code", 1)  # noqa: B010 (a ClassVar for mypy; per error here)
            raise

    def invoke(self, ctx: click.Context) -> Any:
        # Some usage errors (a malformed --var) are found only once the command runs.
        try:
            return super().invoke(ctx)
        except click.UsageError as error:
            if ctx.params.get("detailed_exitcode"):
                setattr(error, "exit_code", 1)  # noqa: B010 (as above)
            raise


@main.command("plan", cls=PlanCommand)
@manifest_options
@api_options
@common_options
@force_option
@plan_shape_options
@click.option(
    "--detailed-exitcode",
    is_flag=True,
    help="Exit 0 when there is nothing to do, 2 when there are changes, 1 on error.",
)
@format_option("text for terminals, markdown for pull requests, json for machines.")
@markdown_options
@click.option(
    "--out",
    type=click.Path(dir_okay=False, writable=True),
    help="Also save the plan, for `docsync apply --plan FILE` (it holds no secret).",
)
def plan_command(
    paths: tuple[str, ...],
    var: tuple[str, ...],
    var_file: tuple[str, ...],
    api_url: str | None,
    parallelism: int,
    timeout: float,
    verbose: int,
    no_color: bool,
    detailed_exitcode: bool,
    output_format: str,
    out: str | None,
    force: bool,
    targets: tuple[str, ...],
    max_delete_share: float | None,
    resend_secrets: bool,
    max_chars: int,
    whole_plan: str | None,
    **_: Any,
) -> None:
    """Show what `apply` would change, field by field."""
    from docsync import policies
    from docsync.core import concurrent
    from docsync.engine.safety import SafetyPolicy, check
    from docsync.engine.target import narrow

    color = setup_output(verbose, no_color)
    shape = markdown_shape(output_format, max_chars, whole_plan, out)
    loaded = load_from_options(paths, var, var_file)
    plan, live = concurrent.run(
        fetch_plan(loaded, api_url, parallelism, verbose, timeout, resend_secrets)
    )
    plan = narrow(plan, targets)
    violations = policies.check(plan, loaded)  # `warn` rules note the actions they match
    click.echo(render(plan, live, output_format, color, shape), nl=False)
    if violations:  # shown with the plan they refuse; never saved
        raise policies.PolicyDenied(violations)
    policy = SafetyPolicy.from_manifest(
        loaded.manifest.safety, force=force, max_delete_share=max_delete_share
    )
    for forced in check(plan, live, policy):
        click.echo(f"Warning: forced past a safety rail: {forced}", err=True)
    if out:
        from docsync.engine.saved import SavedPlan

        with writing(out):
            SavedPlan.make(plan, live, loaded).write(out)
        click.echo(saved_to(out), err=True)
    if detailed_exitcode and not plan.empty:
        sys.exit(2)

"""`docsync rehearse`: apply a saved plan to a copy of the organization (the emulator serving a
snapshot of it, in production's mode), plan again, and say whether its promise holds: it
applies, and the next plan is empty. Nothing is sent to the organization but reads."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from docsync.cli import main
from docsync.cli.api_options import api_options, api_session, force_option
from docsync.cli.apply import ProgressLines, check_saved_files
from docsync.cli.options import common_options, load_from_options, setup_output, variable_options
from docsync.cli.plan import report_requests
from docsync.cli.plan_options import max_delete_share_option
from docsync.cli.signals import doing

if TYPE_CHECKING:
    from docsync.cli.interrupts import Interrupts
    from docsync.core.model import Plan
    from docsync.engine.saved import SavedPlan
    from docsync.manifest import LoadedManifest
    from docsync.rehearsal import Rehearsal

#: what a green rehearsal says, in the comment of a pull request too
KEPT = "rehearsed: applies, next plan empty"
#: lines of a Markdown verdict listing what failed or what the next plan changes, at most
MARKDOWN_LINES = 20


async def _rehearse(
    saved: SavedPlan,
    loaded: LoadedManifest,
    seed_file: Path | None,
    options: dict[str, Any],
    interrupts: Interrupts,
) -> Rehearsal:
    from docsync import rehearsal
    from docsync.core.errors import ApplyRefused
    from docsync.render.text import Painter

    if seed_file is not None:
        with doing("reading the snapshot"):
            seed = rehearsal.read_seed(seed_file)
    else:
        reading = (options["api_url"], options["parallelism"], options["timeout"])
        async with api_session(*reading) as api:
            try:
                with doing("reading the organization for a snapshot (reads only)"):
                    seed = await rehearsal.take(api, saved, loaded)
            except ApplyRefused as error:  # the plan is stale: apply would refuse it
                return rehearsal.Rehearsal(saved.title, "", "", refused=str(error))
            finally:
                if options["verbose"]:
                    report_requests(api.stats, "snapshot")
    seed, member = rehearsal.prepare(seed, saved, loaded, options["acting"])
    human_err = options["output_format"] == "markdown"
    with doing("starting the copy of the organization"), rehearsal.copy_of(seed) as url:
        taken = seed["snapshot"].get("takenAt", "")
        click.echo(
            f"Rehearsing on a copy of {saved.title or 'the organization'} (a snapshot taken "
            f"{taken}), as member {member}: nothing is sent to the organization.",
            err=human_err,
        )
        if options["verbose"]:
            click.echo(f"The copy: {url} (in this process: it stops with it)", err=True)
        progress = ProgressLines(Painter(options["color"]), human_err)

        def applying(plan: Plan) -> None:
            progress.total = len(plan.actions)
            click.echo(f"Applying its {progress.total} action(s) to the copy:", err=human_err)

        with doing("rehearsing on the copy"), interrupts.watching():
            done = await rehearsal.rehearse(
                url,
                seed,
                member,
                saved,
                loaded,
                parallelism=options["parallelism"],
                rails=(options["force"], options["max_delete_share"]),
                on_plan=applying,
                on_result=progress,
                stop=interrupts.stop,
            )
    return done


def verdict(done: Rehearsal) -> str:
    """One line: the promise kept, or how it was broken."""
    if done.refused is not None:
        return "rehearsed: refused before anything was applied"
    if done.interrupted:
        summary = f" ({done.report.summary()})" if done.report is not None else ""
        return f"rehearsed: interrupted{summary}"
    if done.report is not None and not done.report.ok:
        return f"rehearsed: does not apply ({done.report.summary()})"
    if done.next_plan is not None and not done.next_plan.empty:
        count = len(done.next_plan.actions)
        return f"rehearsed: applies, but the next plan still changes {count} thing(s)"
    return KEPT


def _failed_lines(done: Rehearsal) -> list[str]:
    if done.report is None:
        return []
    return [
        f"{r.outcome} {r.action.verb} {r.action.address}" + (f": {r.error}" if r.error else "")
        for r in done.report.results
        if r.outcome != "done"
    ]


def _next_lines(done: Rehearsal) -> list[str]:
    if done.next_plan is None:
        return []
    lines = []
    for action in done.next_plan.actions:
        fields = ", ".join(change.field for change in action.changes)
        lines.append(f"{action.verb} {action.address}" + (f" ({fields})" if fields else ""))
    return lines


def _sentence(line: str) -> str:
    return line[0].upper() + line[1:]


def render_text(done: Rehearsal) -> str:
    """What the rehearsal found, after its progress lines: its verdict last."""
    lines = [f"Warning: forced past a safety rail: {forced}" for forced in done.forced]
    if done.refused is not None:
        lines.append(f"Refused: {done.refused}")
    if done.report is not None:
        lines.append(f"The apply on the copy: {done.report.summary()}.")
    following = _next_lines(done)
    if done.next_plan is not None and not following:
        lines.append("The next plan on the copy: no changes.")
    elif following:
        lines.append("The next plan on the copy would still change:")
        lines += [f"  {line}" for line in following]
    lines.append(_sentence(verdict(done)) + ".")
    return "\n".join(lines) + "\n"


def render_markdown(done: Rehearsal) -> str:
    """The verdict for a pull request's comment: one line when kept, what broke it otherwise."""
    head = f"**{_sentence(verdict(done))}** "
    if done.taken:
        head += f"(on a copy of {done.title}, a snapshot taken {done.taken})."
    else:
        head += f"({done.title}, read before any copy was made)."
    if done.kept:
        return head + "\n"
    lines = [head, ""]
    if done.refused is not None:
        lines += ["```", done.refused, "```"]
    for title, found in (
        ("What did not apply:", _failed_lines(done)),
        ("What the next plan would still change:", _next_lines(done)),
    ):
        if found:
            lines += [title, ""]
            lines += [f"- `{line}`" for line in found[:MARKDOWN_LINES]]
            if len(found) > MARKDOWN_LINES:
                more = len(found) - MARKDOWN_LINES
                lines.append(f"- and {more} more (the rehearsal's log has them all)")
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def check_paths(plan_file: str, paths: tuple[str, ...], saved: tuple[str, ...]) -> None:
    """PATHs given beside --plan must be the saved plan's own manifests."""
    from docsync.manifest.files import discover

    given, _ = discover(paths)
    named, _ = discover([path for path in saved if os.path.exists(path)])
    if {os.path.realpath(p) for p in given} != {os.path.realpath(p) for p in named}:
        raise click.UsageError(
            f"{plan_file} was made from {', '.join(saved)}, not from {', '.join(paths)}: "
            "a saved plan is rehearsed with its own manifests (leave PATH out)"
        )


@main.command(
    "rehearse", short_help="Apply a saved plan to a copy of the organization, then plan again."
)
@click.argument("paths", nargs=-1, type=click.Path(exists=True), metavar="[PATH]...")
@click.option(
    "--plan",
    "plan_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="The saved plan to rehearse (from `docsync plan --out FILE`), run as `apply --plan` "
    "runs it: from the directory it was made in, with the same --var/--var-file values, env() "
    "variables and DOCSYNC_PLAN_KEY (else DOCSYNC_TOKEN).",
)
@click.option(
    "--seed",
    "seed_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Rehearse on this snapshot (`docsync export --format emulator-seed`, taken with the "
    "same DOCSYNC_PLAN_KEY) instead of one taken now with reads only.",
)
@click.option(
    "--as",
    "acting",
    metavar="MEMBER",
    help="The member (user id or email) the copy is used as, as the apply token's user "
    "(default: the snapshot's reader when an admin, else the organization's first admin).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "markdown"]),
    default="text",
    show_default=True,
    help="markdown: print the verdict for a pull request's comment on stdout (the progress "
    "goes to stderr).",
)
@variable_options
@api_options
@common_options
@force_option
@max_delete_share_option
def rehearse_command(
    paths: tuple[str, ...],
    plan_file: str,
    seed_file: Path | None,
    acting: str | None,
    output_format: str,
    var: tuple[str, ...],
    var_file: tuple[str, ...],
    api_url: str | None,
    parallelism: int,
    timeout: float,
    verbose: int,
    no_color: bool,
    force: bool,
    max_delete_share: float | None,
    **_: Any,
) -> None:
    """Apply a saved plan to a copy of the organization, then plan again: its promise (it
    applies, the next plan is empty) kept or broken, before production sees it.

    The copy is the emulator, in this process, in production's mode, serving a snapshot of
    the organization taken now with reads only (or --seed FILE); it stops when the rehearsal
    ends, however it ends. Nothing is sent to the organization but reads. The manifests are
    the saved plan's own (PATHs, when given, must be them). Exit codes are apply's: 0 the
    promise kept, 1 broken (or refused), 2 a usage error, 130/143 interrupted.
    """
    from docsync.cli.interrupts import Interrupts, exit_code
    from docsync.core import concurrent
    from docsync.engine.saved import SavedPlan

    color = setup_output(verbose, no_color)
    saved = SavedPlan.read(plan_file)
    files = tuple(saved.manifests.get("files", []))
    check_saved_files(plan_file, files)
    if paths:
        check_paths(plan_file, paths, files)
    loaded = load_from_options(files, var, var_file)
    saved.check_manifests(loaded)
    options = {
        "api_url": api_url,
        "parallelism": parallelism,
        "timeout": timeout,
        "verbose": verbose,
        "color": color,
        "force": force,
        "max_delete_share": max_delete_share,
        "acting": acting,
        "output_format": output_format,
    }
    interrupts = Interrupts()
    done = concurrent.run(_rehearse(saved, loaded, seed_file, options, interrupts))
    click.echo(render_text(done), nl=False, err=output_format == "markdown")
    if output_format == "markdown":
        click.echo(render_markdown(done), nl=False)
    if interrupts.signum is not None:
        sys.exit(exit_code(interrupts.signum))
    if not done.kept:
        sys.exit(1)

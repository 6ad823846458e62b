"""`docsync export`: write manifests for the live state of an organization."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import click

from docsync.cli import main
from docsync.cli.api_options import api_options, api_session
from docsync.cli.options import common_options, setup_output, writing
from docsync.cli.plan import report_requests
from docsync.cli.signals import doing


async def _export(
    organization: str, api_url: str | None, parallelism: int, verbose: int, timeout: float
) -> Any:
    from docsync import export

    async with api_session(api_url, parallelism, timeout) as api:
        with doing("reading the organization"):
            result = await export.export_organization(api, organization)
        if verbose:
            report_requests(api.stats, "export")
        return result


def refuse_non_empty(out: Path) -> None:
    """Export writes org.yaml, teams.yaml...: into a directory of manifests it would overwrite
    someone's work, or leave old files that merge with the new ones. Checked before any request."""
    if out.is_dir() and any(out.iterdir()):
        entries = sorted(p.name for p in out.iterdir())
        shown = ", ".join(entries[:5]) + (", ..." if len(entries) > 5 else "")
        raise click.ClickException(
            f"{out} is not empty ({shown}): export writes its manifests into an empty directory; "
            "choose another --out, empty it, or pass --force to write it again"
        )


def refuse_merging(out: Path, merging: dict[Path, str]) -> None:
    """`--force` writes a consistent set: manifests export did not write that hold what it
    writes would define its entries twice. Checked before any request; nothing is touched."""
    if merging:
        lines = [f"  {path}: {holds}" for path, holds in sorted(merging.items())]
        raise click.ClickException(
            f"{out} holds manifests that docsync export did not write, which would merge with "
            "the export (defining its entries twice): move them out of it, or delete them:\n"
            + "\n".join(lines)
        )


@main.command("export", short_help="Write manifests for an organization as it is, to adopt it.")
@click.option("--org", "organization", required=True, help="Organization id or title.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write org.yaml, teams.yaml, content.yaml and sites.yaml into DIR (default: print one "
    "manifest).",
)
@click.option(
    "--force",
    is_flag=True,
    help="Write into --out DIR although it is not empty. Export's own files there (the four "
    "above, and any whose first lines are the header export writes: its schema line, then "
    "'# Written by docsync export: ...') are rewritten, or removed when the organization no "
    "longer holds what they list; docsync's own sections written in them (prune:, safety:, "
    "policies:) are kept. Any other "
    "file is never touched, and refused (before anything is read) when it holds a section "
    "export writes: an entry would be defined twice.",
)
@api_options
@common_options
def export_command(
    organization: str,
    out: Path | None,
    force: bool,
    api_url: str | None,
    parallelism: int,
    timeout: float,
    verbose: int,
    no_color: bool,
    **_: Any,
) -> None:
    """Write manifests for an organization as it is, to adopt it: a plan of them is empty."""
    from docsync import export  # the kinds and the client: when the command runs, not for --help

    setup_output(verbose, no_color)
    folder = None
    if out is not None and not force:
        refuse_non_empty(out)
    elif out is not None:
        folder = export.survey(out)
        refuse_merging(out, folder.merging)
    document, names = asyncio.run(_export(organization, api_url, parallelism, verbose, timeout))
    if out is None:
        click.echo(export.render(document), nl=False)
    else:
        with writing(out):
            written = export.write(document, out, folder)
            removed = export.remove_stale(folder, written) if folder is not None else []
        for path in written:
            click.echo(f"wrote {path}", err=True)
        for path in removed:
            click.echo(
                f"removed {path} (written by an earlier export; this one holds nothing of it)",
                err=True,
            )
    if names.shared:
        click.echo(
            "Left out of the export: live resources that share their key, which a manifest "
            "cannot tell apart (left alone as unmanaged; rename them, or write one entry "
            "pinning its `id:`):",
            err=True,
        )
        for plain, ids in sorted(names.shared.items()):
            click.echo(f"  {plain} (ids {', '.join(ids)})", err=True)
    if names.env_vars:
        click.echo("Secrets are not exported; set these variables before planning:", err=True)
        for variable, holds in sorted(names.env_vars.items()):
            click.echo(f"  {variable}  ({holds})", err=True)

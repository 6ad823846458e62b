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
            "choose another --out, empty it, or pass --force to overwrite"
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
    help="Write into --out DIR even when it is not empty (its manifests are overwritten).",
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
    if out is not None and not force:
        refuse_non_empty(out)
    document, names = asyncio.run(_export(organization, api_url, parallelism, verbose, timeout))
    if out is None:
        click.echo(export.render(document), nl=False)
    else:
        with writing(out):
            written = export.write(document, out)
        for path in written:
            click.echo(f"wrote {path}", err=True)
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

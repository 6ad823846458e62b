"""`docsync export`: write manifests for the live state of an organization, one resource as a
file of production's own (`--site TITLE --format gitbook-docs`), or a snapshot of the
organization as an emulator seed (`--format emulator-seed`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from docsync.cli import main
from docsync.cli.api_options import api_options, api_session
from docsync.cli.options import common_options, out_directory, setup_output, writing
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


async def _export_format(
    organization: str | None,
    name: str,
    title: str,
    api_url: str | None,
    parallelism: int,
    verbose: int,
    timeout: float,
) -> Any:
    from docsync import export

    async with api_session(api_url, parallelism, timeout) as api:
        with doing(f"reading {title!r}"):
            result = await export.export_format(api, organization, name, title)
        if verbose:
            report_requests(api.stats, "export")
        return result


def _write_format(
    organization: str | None,
    name: str,
    title: str,
    out: Path | None,
    force: bool,
    api: tuple[str | None, int, int, float],
) -> None:
    """`--format NAME --site TITLE`: the file printed, or written into `--out DIR` (an existing
    one only with `--force`)."""
    from docsync import export
    from docsync.core import concurrent

    api_url, parallelism, verbose, timeout = api
    file, document = concurrent.run(
        _export_format(organization, name, title, api_url, parallelism, verbose, timeout)
    )
    text = export.render_format(file, title, document)
    if out is None:
        click.echo(text, nl=False)
        return
    target = out / file
    if target.exists() and not force:
        raise click.ClickException(f"{target} exists: pass --force to write it again")
    with writing(target):
        out.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    click.echo(f"wrote {target}", err=True)


#: the format of a snapshot of the whole organization, which the emulator serves
SNAPSHOT = "emulator-seed"
SNAPSHOT_FILE = "emulator-seed.json"


async def _snapshot(
    organization: str, pseudonymize: bool, api: tuple[str | None, int, int, float]
) -> Any:
    from docsync import snapshot

    api_url, parallelism, verbose, timeout = api
    async with api_session(api_url, parallelism, timeout) as client:
        with doing("reading the organization"):
            seed = await snapshot.take(client, organization, pseudonymize=pseudonymize)
        if verbose:
            report_requests(client.stats, "export")
        return seed


def _write_snapshot(
    organization: str,
    pseudonymize: bool,
    out: Path | None,
    force: bool,
    api: tuple[str | None, int, int, float],
) -> None:
    """`--format emulator-seed`: the snapshot printed, or written into `--out DIR` (an
    existing one only with `--force`)."""
    from docsync import snapshot
    from docsync.core import concurrent

    text = snapshot.render(concurrent.run(_snapshot(organization, pseudonymize, api)))
    if out is None:
        click.echo(text, nl=False)
        return
    target = out / SNAPSHOT_FILE
    if target.exists() and not force:
        raise click.ClickException(f"{target} exists: pass --force to write it again")
    with writing(target):
        out.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    click.echo(f"wrote {target} (serve it: docsync emulator --seed {target})", err=True)


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
@click.option(
    "--org",
    "organization",
    help="Organization id or title (with --site, optional: the one organization the token can "
    "see that has that site).",
)
@click.option(
    "--site",
    "title",
    metavar="TITLE",
    help="With --format: the site whose file to write, by title.",
)
@click.option(
    "--format",
    "form",
    metavar="NAME",
    help="Write one resource (--site) as a file of production's own instead of manifests: "
    "gitbook-docs (the site's structure as its Git Sync repository's gitbook-docs.yaml, "
    "production's GitSyncSiteConfig); or, with --org, emulator-seed: a snapshot of the "
    "organization that `docsync emulator --seed FILE` serves and `docsync rehearse --seed "
    "FILE` rehearses on (ids kept, secrets replaced by placeholders). Printed, or written "
    "into --out DIR.",
)
@click.option(
    "--pseudonymize",
    is_flag=True,
    help="With --format emulator-seed: replace every member's email by a pseudonym (the same "
    "wherever it stands) and leave out their names.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
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
    organization: str | None,
    title: str | None,
    form: str | None,
    pseudonymize: bool,
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
    from docsync.core import concurrent

    setup_output(verbose, no_color)
    if out is not None:
        out_directory(out, "export writes its files")
    if pseudonymize and form != SNAPSHOT:
        raise click.UsageError(f"--pseudonymize goes with --format {SNAPSHOT}")
    if form == SNAPSHOT:
        if organization is None or title is not None:
            raise click.UsageError(f"--format {SNAPSHOT} takes --org ORG (and no --site)")
        api = (api_url, parallelism, verbose, timeout)
        _write_snapshot(organization, pseudonymize, out, force, api)
        return
    if (title is None) != (form is None):
        raise click.UsageError("--site and --format go together (--site TITLE --format NAME)")
    if title is not None and form is not None:
        _write_format(
            organization, form, title, out, force, (api_url, parallelism, verbose, timeout)
        )
        return
    if organization is None:
        raise click.UsageError("Missing option '--org' (or --site TITLE --format NAME)")
    folder = None
    if out is not None and not force:
        refuse_non_empty(out)
    elif out is not None:
        folder = export.survey(out)
        refuse_merging(out, folder.merging)
    document, names = concurrent.run(_export(organization, api_url, parallelism, verbose, timeout))
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
    if names.as_is:
        click.echo("Not in the manifests, left as they are in the organization:", err=True)
        for address, why in sorted(names.as_is.items()):
            click.echo(f"  {address}: {why}", err=True)
    if names.env_vars:
        click.echo("Secrets are not exported; set these variables before planning:", err=True)
        for variable, holds in sorted(names.env_vars.items()):
            click.echo(f"  {variable}  ({holds})", err=True)

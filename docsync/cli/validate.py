"""`docsync validate`: load, template and check manifests offline; never calls the API."""

from __future__ import annotations

import os
from collections import Counter
from typing import TYPE_CHECKING

import click

from docsync.cli import main
from docsync.cli.options import common_options, load_from_options, manifest_options, setup_output
from docsync.cli.problems import limit_of, problem_lines

if TYPE_CHECKING:
    from docsync.manifest import LoadedManifest


@main.command("validate")
@manifest_options
@common_options
@click.pass_context
def validate(
    ctx: click.Context,
    paths: tuple[str, ...],
    var: tuple[str, ...],
    var_file: tuple[str, ...],
    verbose: int,
    no_color: bool,
) -> None:
    """Check manifests: schema, references, duplicates. Exit 1 listing the problems found."""
    from docsync.manifest import ManifestError

    setup_output(verbose, no_color)
    try:
        loaded = load_from_options(paths, var, var_file, positions=False)
    except ManifestError as error:
        for line in problem_lines(error.problems, limit_of(ctx)):
            click.echo(line, err=True)
        ctx.exit(1)
    click.echo(f"OK: {summary(loaded)}")
    click.echo(f"Read {origins(loaded.files)}")


def origins(files: list[str]) -> str:
    """``3 files: 1 from manifests, 2 from manifests/teams``: where the files were found."""
    by_directory = Counter(os.path.dirname(name) or "." for name in files)
    where = ", ".join(f"{count} from {folder}" for folder, count in sorted(by_directory.items()))
    noun = "file" if len(files) == 1 else "files"
    return f"{len(files)} {noun}: {where}"


def summary(loaded: LoadedManifest) -> str:
    """``4 files, 5 members, 2 teams, ...``: the files read and the entries per section."""
    count = len(loaded.files)
    from docsync.manifest.models import SECTIONS

    parts = [f"{count} file" if count == 1 else f"{count} files"]
    for section in SECTIONS:
        entries = len(getattr(loaded.manifest, section))
        if entries:
            parts.append(f"{entries} {section}")
    if loaded.manifest.policies:
        parts.append(f"{len(loaded.manifest.policies)} policies")
    return ", ".join(parts)

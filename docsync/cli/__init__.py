"""Command line: parse options, call the pipeline, choose exit codes. One module per command."""

from __future__ import annotations

import sys

import click

from docsync import __version__
from docsync.errors import DocsyncError


class DocsyncGroup(click.Group):
    """Turns every DocsyncError into 'Error: ...' and its exit code, never a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except DocsyncError as error:
            click.echo(f"Error: {error}", err=True)
            sys.exit(error.exit_code)


@click.group(cls=DocsyncGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="docsync")
def main() -> None:
    """Describe a documentation platform in YAML; plan and apply the difference."""


def _register() -> None:
    # Each command lives in its own module and adds itself to `main` on import.
    from docsync.cli import commands  # noqa: F401


_register()

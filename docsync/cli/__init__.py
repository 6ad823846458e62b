"""Command line: parse options, call the pipeline, choose exit codes. One module per command."""

from __future__ import annotations

import sys
import traceback

import click

from docsync import __version__
from docsync.core.errors import InternalError
from docsync.errors import DocsyncError


class DocsyncGroup(click.Group):
    """Turns every DocsyncError into 'Error: ...' and its exit code, never a traceback; any other
    exception is a bug of docsync: one line and exit 1, its traceback only under `-vv`."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except DocsyncError as error:
            click.echo(f"Error: {error}", err=True)
            sys.exit(error.exit_code)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as error:
            if ctx.meta.get("docsync.verbosity", 0) >= 2:
                click.echo(traceback.format_exc(), err=True, nl=False)
            click.echo(f"Error: {InternalError(error)}", err=True)
            sys.exit(1)


@click.group(cls=DocsyncGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="docsync")
def main() -> None:
    """Describe a documentation platform in YAML; plan and apply the difference."""


def _register() -> None:
    # Each command lives in its own module and adds itself to `main` on import.
    from docsync.cli import commands  # noqa: F401


_register()

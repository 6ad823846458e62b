"""Command line: parse options, call the pipeline, choose exit codes. One module per command."""

from __future__ import annotations

import importlib
import os
import sys
from typing import NoReturn

import click

from docsync.cli import signals
from docsync.cli.commands import COMMANDS
from docsync.core.errors import InternalError
from docsync.errors import DocsyncError


class DocsyncGroup(click.Group):
    """Turns every DocsyncError into 'Error: ...' and its exit code, never a traceback; any other
    exception is a bug of docsync: one line and exit 1, its traceback only under `-vv`.

    Commands load lazily: a command's module (which adds it to the group on import) is imported
    only when that command runs, so `--version` or `validate` never pay for the HTTP client or
    the emulator (`docsync.cli.commands.COMMANDS` lists them).
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(COMMANDS[cmd_name])
        return self.commands.get(cmd_name)

    def invoke(self, ctx: click.Context) -> object:
        signals.watch()
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            signals.stop()
        except DocsyncError as error:
            click.echo(f"Error: {_error_text(ctx, error)}", err=True)
            sys.exit(error.exit_code)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:
            # `docsync validate | head -1`: the reader stopped reading, so docsync stops too,
            # quietly, with the status of a tool SIGPIPE ends (128 + 13), as git and seq do.
            # (The API client turns a broken connection into its own errors: this is output.)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(141)
        except Exception as error:
            _internal(ctx, error)


def _error_text(ctx: click.Context, error: DocsyncError) -> str:
    """The error's message; one of many problems (a manifest's, a plan's) within the run's
    `--max-problems`."""
    problems = getattr(error, "problems", None)
    if not isinstance(problems, list) or not problems:
        return str(error)
    from docsync.cli.problems import limit_of, problem_lines

    return "\n".join(problem_lines(problems, limit_of(ctx)))


def _internal(ctx: click.Context, error: Exception) -> NoReturn:
    """A bug: one line, its traceback only under `-vv`, exit 1."""
    if ctx.meta.get("docsync.verbosity", 0) >= 2:
        import traceback

        click.echo(traceback.format_exc(), err=True, nl=False)
    click.echo(f"Error: {InternalError(error)}", err=True)
    sys.exit(1)


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from docsync.version import version_line

    click.echo(version_line())
    ctx.exit()


@click.group(cls=DocsyncGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and the commit it was built from, and exit.",
)
def main() -> None:
    """Describe a documentation platform in YAML; plan and apply the difference."""


def run() -> NoReturn:
    """The `docsync` executable: `main`, then an exit without the interpreter's teardown, which
    frees every object of the run one by one (70 ms of a plan) where the operating system
    frees them at once. Output is flushed and logging shut down first; nothing else of docsync
    waits for the end of the process."""
    try:
        main()
        code = 0
    except SystemExit as end:
        if isinstance(end.code, str):
            print(end.code, file=sys.stderr)
        code = end.code if isinstance(end.code, int) else (0 if end.code is None else 1)
    if "logging" in sys.modules:  # only what was used: `--help` never loads logging
        sys.modules["logging"].shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 141  # the reader went away before the last of the output
    os._exit(code)

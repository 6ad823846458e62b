"""Options shared by commands: manifest paths and variables, verbosity and color.

What the options run (the manifest loader) is imported when they run, not when the command is
defined: `docsync COMMAND --help` loads click and the command's own module only."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from docsync.cli.problems import problems_option
from docsync.cli.signals import doing
from docsync.render import FORMATS

if TYPE_CHECKING:
    from docsync.manifest import LoadedManifest

F = TypeVar("F", bound=Callable[..., Any])


def variable_options(func: F) -> F:
    """``--var key=value`` and ``--var-file FILE`` (both repeatable), and ``--max-problems``,
    as every command that reads manifests has them."""
    func = problems_option(func)
    func = click.option(
        "--var-file",
        "var_file",
        multiple=True,
        type=click.Path(exists=True, dir_okay=False),
        help="YAML mapping of template variables (repeatable; later files win).",
    )(func)
    func = click.option(
        "--var",
        "var",
        multiple=True,
        metavar="KEY=VALUE",
        help="A template variable (repeatable; wins over --var-file).",
    )(func)
    return func


def manifest_options(func: F) -> F:
    """``PATH...`` plus the template variables' options."""
    func = variable_options(func)
    func = click.argument(
        "paths", nargs=-1, required=True, type=click.Path(exists=True), metavar="PATH..."
    )(func)
    return func


def common_options(func: F) -> F:
    """``-v/--verbose`` (repeatable) and ``--no-color``."""
    func = click.option(
        "--no-color", is_flag=True, help="Plain output (NO_COLOR in the environment does too)."
    )(func)
    func = click.option(
        "-v", "--verbose", count=True, help="More detail on stderr; repeat for even more."
    )(func)
    return func


VERBOSITY = "docsync.verbosity"


def format_option(help_text: str) -> Callable[[F], F]:
    """`--format text|markdown|json`, the same choices wherever a plan is rendered."""
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(FORMATS),
        default="text",
        show_default=True,
        help=help_text,
    )


def setup_output(verbose: int, no_color: bool, stream: Any = None) -> bool:
    """Configure logging for ``-v``; answer whether output may be colored."""
    current = click.get_current_context(silent=True)
    if current is not None:
        current.meta[VERBOSITY] = verbose  # read by the error handler of `docsync.cli`
    if verbose > 0:
        import logging

        level = logging.INFO if verbose == 1 else logging.DEBUG
        logging.basicConfig(level=level, stream=sys.stderr, format="%(levelname)s %(message)s")
        # docsync's own client logs each request (never the token); httpx would say it twice.
        logging.getLogger("httpx").setLevel(logging.WARNING)
        logging.getLogger("httpcore").setLevel(logging.WARNING)
        logging.getLogger("asyncio").setLevel(logging.WARNING)  # "Using selector: ..."
    if no_color or os.environ.get("NO_COLOR"):
        return False
    return bool(getattr(stream or sys.stdout, "isatty", lambda: False)())


def parse_vars(pairs: Sequence[str]) -> dict[str, str]:
    """``key=value`` pairs as a mapping; the key must be a template identifier."""
    from docsync.manifest.loader import RESERVED_VARIABLES, reserved_variable

    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise click.BadParameter(
                f"expected KEY=VALUE with KEY a name like region_1, got {pair!r}",
                param_hint="--var",
            )
        if key in RESERVED_VARIABLES:
            raise click.BadParameter(reserved_variable(key), param_hint="--var")
        result[key] = value
    return result


def load_var_files(files: Sequence[str]) -> dict[str, Any]:
    """Merge YAML variable files in order, each held to a manifest's limits (a regular file of
    at most 10 MiB, UTF-8, the YAML bounds); every mistake is a located ManifestError."""
    from docsync.manifest import Location, ManifestError, Problem
    from docsync.manifest.files import read_text
    from docsync.manifest.loader import RESERVED_VARIABLES, reserved_variable
    from docsync.manifest.yamlpos import parse_yaml

    result: dict[str, Any] = {}
    problems: list[Problem] = []
    for name in files:
        text = read_text(name)
        if isinstance(text, Problem):
            problems.append(text)
            continue
        parsed = parse_yaml(text, name)
        problems.extend(parsed.problems)
        if parsed.data is None:
            continue
        if not isinstance(parsed.data, dict):
            message = "a variable file must be a mapping of names to values"
            problems.append(Problem(Location(name, 1, 1), (), message))
            continue
        for key in sorted(RESERVED_VARIABLES & set(parsed.data)):
            where = parsed.source.keys.get((key,), Location(name, 1, 1))
            problems.append(Problem(where, (key,), reserved_variable(key)))
            del parsed.data[key]
        result.update(parsed.data)
    if problems:
        raise ManifestError(problems)
    return result


def load_from_options(
    paths: Sequence[str],
    var: Sequence[str],
    var_file: Sequence[str],
    environ: Mapping[str, str] | None = None,
    positions: bool = True,
) -> LoadedManifest:
    """What ``validate``, ``plan`` and ``apply`` do with their manifest options (`validate`
    reads no positions unless a problem asks: `load_manifests`)."""
    from docsync.manifest import load_manifests

    with doing("loading the manifests"):
        variables = load_var_files(var_file)
        variables.update(parse_vars(var))
        return load_manifests(paths, variables=variables, environ=environ, positions=positions)


def out_directory(out: Path, writes: str) -> None:
    """`--out DIR` naming something that is not a directory (a file, a device): one line
    saying what it is, before anything is read, instead of click's usage or `File exists`."""
    from docsync.manifest.input_files import kind_of

    try:
        info = out.stat()
    except OSError:
        return  # missing: made when written (a write that cannot make it says why)
    if not stat.S_ISDIR(info.st_mode):
        raise click.ClickException(
            f"--out {out} is {kind_of(info)}, not a directory: {writes} into a directory (made "
            "when missing); name one"
        )


@contextmanager
def writing(target: object) -> Iterator[None]:
    """Turn a failed write of ``--out`` into one `Error:` line (exit 1) instead of a traceback."""
    try:
        yield
    except OSError as error:
        where = error.filename if error.filename is not None else target
        raise click.ClickException(f"cannot write {where}: {error.strerror or error}") from None

"""Problems shown within a bound: the first ones in file order, then how many more and how to
see them all (`--max-problems`, `DOCSYNC_MAX_PROBLEMS`: a compiler's error limit, as clang's
`-ferror-limit`, defaulting to 20), and a long list of allowed values shown once.

A glossary entry of 100,000 unknown language keys is 100,000 problems, each listing the 39
languages: the first twenty tell the reader what is wrong; the rest would bury it. The errors
keep every problem (`ManifestError.problems`, `PlanProblems.problems`): only what the command
line prints is bounded."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from docsync.manifest.problems import Problem

F = TypeVar("F", bound=Callable[..., Any])

LIMIT_ENV = "DOCSYNC_MAX_PROBLEMS"
DEFAULT_LIMIT = 20
#: where the limit of this run is kept (`click.Context.meta`), for the error handler
META = "docsync.max_problems"
ALL = "all"


class ProblemLimit(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """A count of problems, or `all`."""

    name = "count"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> int | None:
        if value is None or isinstance(value, int):
            return value
        text = str(value).strip().lower()
        if text == ALL:
            return None
        if text.isdigit() and int(text) >= 1:
            return int(text)
        self.fail(f"expected a count of at least 1, or 'all', got {value!r}", param, ctx)


def problems_option(func: F) -> F:
    """`--max-problems N|all` (env DOCSYNC_MAX_PROBLEMS), kept in the context's meta."""

    def keep(ctx: click.Context, _param: click.Parameter, value: int | None) -> None:
        ctx.meta[META] = value

    return click.option(
        "--max-problems",
        type=ProblemLimit(),
        envvar=LIMIT_ENV,
        default=str(DEFAULT_LIMIT),
        show_default=True,
        expose_value=False,
        callback=keep,
        metavar="N|all",
        help=f"Show the first N problems found in the manifests (in file order) and how many "
        f"more; 'all' shows every one (env {LIMIT_ENV}).",
    )(func)


def limit_of(ctx: click.Context | None) -> int | None:
    """The limit of this run (the default when no command set one)."""
    if ctx is None:
        return DEFAULT_LIMIT
    found: int | None = ctx.meta.get(META, DEFAULT_LIMIT)
    return found


def problem_lines(problems: Sequence[Problem | str], limit: int | None) -> list[str]:
    """The first `limit` problems (None: all), a list of choices written out once, then a line
    saying how many more and how to see them."""
    shown = problems if limit is None else problems[:limit]
    listed: set[tuple[str, ...]] = set()
    lines = []
    for problem in shown:
        if isinstance(problem, str) or not problem.choices:
            lines.append(str(problem))
            continue
        lines.append(problem.text(listed=problem.choices not in listed))
        listed.add(problem.choices)
    rest = len(problems) - len(shown)
    if rest:
        noun = "problem" if rest == 1 else "problems"
        lines.append(
            f"... and {rest:,} more {noun}; --max-problems all (or {LIMIT_ENV}=all) shows every one"
        )
    return lines

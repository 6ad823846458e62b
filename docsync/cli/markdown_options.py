"""`--max-chars` and `--whole-plan`: the size of a Markdown plan (a pull-request comment) and
where a cut one sends its reader, for `plan` and `show`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import click

from docsync.render import DEFAULT_BUDGET, MIN_BUDGET

F = TypeVar("F", bound=Callable[..., Any])


def markdown_options(func: F) -> F:
    func = click.option(
        "--whole-plan",
        metavar="MARKDOWN",
        default=None,
        help="Where the whole plan is, named by a cut Markdown plan's note (a link to the CI "
        "run's artifact); default: the command that renders it whole.",
    )(func)
    func = click.option(
        "--max-chars",
        type=click.IntRange(min=0),
        default=DEFAULT_BUDGET,
        show_default=True,
        help="The Markdown plan's size limit, under GitHub's 65,536 for a comment; past it "
        "the note says what was left out, per kind. 0: no limit (the whole plan).",
    )(func)
    return func


@dataclass(frozen=True)
class MarkdownShape:
    budget: int
    whole_plan: str


def markdown_shape(
    output_format: str, max_chars: int, whole_plan: str | None, plan_file: str | None
) -> MarkdownShape:
    """The options checked: they shape the Markdown plan only, and a budget must hold the
    summary and the note of what was left out. By default a cut plan names the command that
    renders `plan_file` whole."""
    ctx = click.get_current_context()
    given = [
        name
        for name in ("max_chars", "whole_plan")
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
    ]
    if given and output_format != "markdown":
        options = " and ".join("--" + name.replace("_", "-") for name in given)
        raise click.UsageError(f"{options} shape the Markdown plan: add --format markdown")
    if 0 < max_chars < MIN_BUDGET:
        raise click.BadParameter(
            f"{max_chars} is too small to hold the plan's summary and what was left out: give "
            f"at least {MIN_BUDGET}, or 0 for no limit",
            param_hint="--max-chars",
        )
    if whole_plan is None and output_format == "markdown":
        whole_plan = whole_from_file(plan_file)
    return MarkdownShape(max_chars, whole_plan or "")


def whole_from_file(plan_file: str | None) -> str:
    """The command that renders a saved plan whole (or a fresh plan's, without a file)."""
    import shlex

    from docsync.render.markdown import WHOLE_PLAN, code_span

    if plan_file is None:
        return WHOLE_PLAN
    return code_span(f"docsync show {shlex.quote(plan_file)} --format markdown --max-chars 0")

"""Options that shape a plan: `--target` (a partial plan), `--max-delete-share` (the
deletion threshold of the safety rails) and `--resend-secrets` (secrets no plan can compare,
sent again)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


class Share(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """A share of a kind's live resources: `0.5` or `50%`."""

    name = "share"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        if isinstance(value, float):
            return value
        text = str(value).strip()
        try:
            share = float(text[:-1]) / 100 if text.endswith("%") else float(text)
        except ValueError:
            self.fail(f"expected a share like 0.5 or 50%, got {value!r}", param, ctx)
        if not 0 <= share <= 1:
            self.fail(f"expected a share between 0 and 1 (0% and 100%), got {value!r}", param, ctx)
        return share


def plan_shape_options(func: F) -> F:
    """``--target ADDRESS`` (repeatable, globs), ``--max-delete-share SHARE`` and
    ``--resend-secrets``."""
    func = click.option(
        "--resend-secrets",
        is_flag=True,
        help="Send again the secrets the API keeps without answering them back (no plan "
        "can see one changed), wherever the manifests write one: after rotating one; with "
        "--target, only there.",
    )(func)
    func = max_delete_share_option(func)
    func = click.option(
        "--target",
        "targets",
        multiple=True,
        callback=_addresses,
        metavar="ADDRESS",
        help="Plan only this resource (and its parts), with what it depends on; repeatable, "
        "`*` and `?` match any text: --target 'team[\"eng-*\"]'.",
    )(func)
    return func


def max_delete_share_option(func: F) -> F:
    """``--max-delete-share SHARE``: the deletion threshold of the safety rails."""
    return click.option(
        "--max-delete-share",
        type=Share(),
        default=None,
        help="Refuse a plan deleting or replacing more than this share of a kind's live "
        "resources (default 0.3, or the manifest's `safety:`); wins over the manifest.",
    )(func)


def _addresses(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> tuple[str, ...]:
    """Each `--target` is an address of a kind docsync has (a usage error, else)."""
    if not values:
        return values
    from docsync.engine.target import address_problem
    from docsync.kinds.catalogue import CATALOGUE, bare_sections

    kinds = {d.name for d in CATALOGUE}
    parts = bare_sections()
    for value in values:
        problem = address_problem(value, kinds, parts)
        if problem is not None:
            raise click.BadParameter(problem, ctx=ctx, param=param)
    return values

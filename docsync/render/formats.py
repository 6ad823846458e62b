"""The plan's text and Markdown renderings by format name, shared by `plan` and `show`; each
renderer is loaded when its format is asked for."""

from __future__ import annotations

from docsync.core.model import Plan
from docsync.render.budget import DEFAULT_BUDGET


def render_for_people(
    plan: Plan,
    output_format: str,
    *,
    color: bool,
    title: str,
    budget: int = DEFAULT_BUDGET,
    whole_plan: str | None = None,
) -> str:
    """Text or Markdown: the two renderings headed by the organization's title; the Markdown
    one within `budget` characters (0: whole), naming where the whole plan is when cut."""
    if output_format == "markdown":
        from docsync.render.markdown import WHOLE_PLAN, render_markdown

        return render_markdown(
            plan, title=title, budget=budget, whole_plan=whole_plan or WHOLE_PLAN
        )
    from docsync.render.text import render_plan

    return render_plan(plan, color=color, title=title)

"""The plan's text and Markdown renderings by format name, shared by `plan` and `show`; each
renderer is loaded when its format is asked for."""

from __future__ import annotations

from docsync.core.model import Plan


def render_for_people(plan: Plan, output_format: str, *, color: bool, title: str) -> str:
    """Text or Markdown: the two renderings headed by the organization's title."""
    if output_format == "markdown":
        from docsync.render.markdown import render_markdown

        return render_markdown(plan, title=title)
    from docsync.render.text import render_plan

    return render_plan(plan, color=color, title=title)

"""The plan as a pull-request comment: a summary table, the dangerous actions first, every
action with its changes folded in `<details>`, within GitHub's comment size limit."""

from __future__ import annotations

from collections import Counter

from docsync.engine.model import VERBS, Action, Plan
from docsync.render.json import DESTRUCTIVE
from docsync.render.text import render_change

#: GitHub refuses comments over 65,536 characters; keep room for a wrapper around ours.
DEFAULT_BUDGET = 60_000

_MARK = {"create": "+", "update": "~", "delete": "-", "replace": "-/+", "restore": "+"}


def _code(text: str) -> str:
    """An inline code span that no title can break out of."""
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _flag(action: Action) -> str:
    if action.verb in DESTRUCTIVE:
        return "🔴 "
    if action.audience_change:
        return "🟠 "
    return ""


def _headline(action: Action) -> str:
    where = f" — {_code(action.location)}" if action.location else ""
    return f"{_flag(action)}**{action.verb}** {_code(action.address)}{where}"


def _details(action: Action) -> str:
    width = max((len(c.field) for c in action.changes), default=0)
    body = [f"# {note}" for note in action.notes]
    body += [render_change(c, action.verb, width) for c in action.changes]
    count = len(action.changes)
    summary = f"{_headline(action)} ({count} change{'s' if count != 1 else ''})"
    if not body:
        return f"- {summary}\n"
    fenced = "\n".join(body).replace("```", "`\u200b``")
    return f"<details><summary>{summary}</summary>\n\n```diff\n{fenced}\n```\n\n</details>\n"


def _table(plan: Plan) -> list[str]:
    by_kind: dict[str, Counter[str]] = {}
    for action in plan.actions:
        by_kind.setdefault(action.kind, Counter())[action.verb] += 1
    verbs = [v for v in VERBS if any(c[v] for c in by_kind.values())]
    lines = [
        "| kind | " + " | ".join(verbs) + " |",
        "|---|" + "---:|" * len(verbs),
    ]
    for kind in sorted(by_kind):
        cells = [str(by_kind[kind][v] or "") for v in verbs]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return lines


def render_markdown(plan: Plan, *, title: str | None = None, budget: int = DEFAULT_BUDGET) -> str:
    org = title or plan.organization
    out = [f"### docsync plan for {org}", ""]
    if plan.empty:
        out += ["**No changes.** The organization matches the manifest.", ""]
    else:
        risky = [a for a in plan.actions if a.verb in DESTRUCTIVE or a.audience_change]
        flags = []
        if risky:
            destructive = sum(1 for a in risky if a.verb in DESTRUCTIVE)
            audience = sum(1 for a in risky if a.audience_change)
            if destructive:
                flags.append(f"🔴 {destructive} destructive")
            if audience:
                flags.append(f"🟠 {audience} audience change{'s' if audience != 1 else ''}")
        out += [f"**Plan: {plan.summary()}**" + (" · " + " · ".join(flags) if flags else ""), ""]
        out += [*_table(plan), ""]
        if risky:
            out += ["#### Needs a careful look", ""]
            out += [f"- {_headline(a)}" + "".join(f" _({n})_" for n in a.notes) for a in risky]
            out.append("")
        out += ["#### Actions", ""]
    text = "\n".join(out)
    tail = _tail(plan)
    shown = 0
    for action in plan.actions:
        block = _details(action)
        if len(text) + len(block) + len(tail) + 400 > budget:
            break
        text += block
        shown += 1
    if shown < len(plan.actions):
        text += (
            f"\n> **{len(plan.actions) - shown} more action(s) not shown** to stay within the "
            "comment size limit. The whole plan is in the job log "
            "(`docsync plan --format text`) and in `docsync plan --format json`.\n"
        )
    return text + tail


def _tail(plan: Plan) -> str:
    lines = [""]
    if plan.unmanaged:
        lines += [
            f"<details><summary>{len(plan.unmanaged)} unmanaged resource(s), left alone"
            "</summary>\n",
            *[f"- {_code(u.address)} (id {_code(u.id)})" for u in plan.unmanaged[:200]],
        ]
        if len(plan.unmanaged) > 200:
            lines.append(f"- … and {len(plan.unmanaged) - 200} more")
        lines += ["", "</details>", ""]
    lines += [f"> ⚠️ {w}" for w in plan.warnings]
    return "\n".join(lines) + "\n"

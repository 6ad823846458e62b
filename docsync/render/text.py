"""The terminal rendering of a plan, Terraform-style: `+` create, `~` update, `-` delete."""

from __future__ import annotations

import json
from typing import Any

from docsync.core.catalogue import CATALOGUE
from docsync.core.model import Action, FieldChange, Plan

SENSITIVE = "(sensitive)"

SYMBOLS = {
    "create": "+",
    "update": "~",
    "delete": "-",
    "replace": "-/+",
    "restore": "+",
    "reorder": "~",
    "publish": "~",
    "unpublish": "~",
}
COLORS = {"+": "green", "~": "yellow", "-": "red", "-/+": "magenta"}
_ANSI = {"green": "32", "yellow": "33", "red": "31", "magenta": "35", "bold": "1", "dim": "2"}


def value_text(value: Any, sensitive: bool = False, reference: bool = False) -> str:
    """One line for a field value; sensitive values are never shown, whatever they are."""
    if sensitive:
        return SENSITIVE
    if value is None:
        return "null"
    if reference:
        return f"[{', '.join(value)}]" if isinstance(value, list) else str(value)
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


class Painter:
    def __init__(self, color: bool) -> None:
        self.color = color

    def __call__(self, text: str, style: str) -> str:
        if not self.color:
            return text
        return f"\x1b[{_ANSI[style]}m{text}\x1b[0m"


def render_change(change: FieldChange, verb: str, width: int) -> str:
    name = change.field.ljust(width)
    before = value_text(change.before, change.sensitive, change.reference)
    after = value_text(change.after, change.sensitive, change.reference)
    # A replace shows the resource it creates: its fields have no "before".
    if verb in ("create", "restore", "replace") and change.before is None:
        return f"+ {name} = {after}"
    if verb == "delete":
        return f"- {name} = {before}"
    if change.sensitive:
        return f"~ {name} = {SENSITIVE} (changed)"
    return f"~ {name} = {before} -> {after}"


def render_action(action: Action, paint: Painter) -> list[str]:
    symbol = SYMBOLS[action.verb]
    where = f"  ({action.location})" if action.location else ""
    head = f"{symbol} {action.verb} {action.address}"
    lines = [f"  {paint(head, COLORS[symbol])}{paint(where, 'dim')}"]
    for note in action.notes:
        lines.append(f"      # {note}")
    width = max((len(c.field) for c in action.changes), default=0)
    for change in action.changes:
        lines.append(f"      {render_change(change, action.verb, width)}")
    return lines


#: Kinds of manifest sections that `prune:` never deletes (members, spaces): they go only
#: through an entry with `state: absent`.
_NEVER_PRUNED = tuple(d.name for d in CATALOGUE.lists if not d.prunable)


def _how_to_delete(plan: Plan) -> str:
    kinds = {u.kind for u in plan.unmanaged}
    hint = "list their kind under `prune:` to delete them"
    explicit = [f"{kind}s" for kind in _NEVER_PRUNED if kind in kinds]
    if not explicit:
        return hint
    only = " and ".join(explicit)
    if kinds <= set(_NEVER_PRUNED):
        return f"{only} are never pruned: delete them with an entry `state: absent`"
    return f"{hint}; {only} are never pruned: delete them with an entry `state: absent`"


def render_plan(plan: Plan, *, color: bool = False, title: str | None = None) -> str:
    paint = Painter(color)
    out: list[str] = []
    org = title or plan.organization
    if plan.empty:
        out.append(f"No changes. Organization {org} matches the manifest.")
    else:
        out.append(f"docsync will make these changes to organization {org}:")
        out.append("")
        for action in plan.actions:
            out.extend(render_action(action, paint))
            out.append("")
    if plan.unmanaged:
        out.append(
            f"Unmanaged: {len(plan.unmanaged)} live resource(s) match no manifest entry and are "
            f"left alone ({_how_to_delete(plan)}):"
        )
        out.extend(
            f"  {u.address} (id {u.id})" + (f": kept, {u.reason}" if u.reason else "")
            for u in plan.unmanaged
        )
        out.append("")
    for warning in plan.warnings:
        out.append(f"Warning: {warning}")
    out.append(paint(f"Plan: {plan.summary()}.", "bold"))
    return "\n".join(out) + "\n"

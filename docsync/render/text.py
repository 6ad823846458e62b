"""The terminal rendering of a plan, Terraform-style: `+` create, `~` update, `-` delete."""

from __future__ import annotations

import json
from typing import Any

from docsync.core.model import Action, FieldChange, Plan
from docsync.kinds.catalogue import CATALOGUE
from docsync.render.careful import reasons
from docsync.render.elements import ABSENT, Element, element_changes

SENSITIVE = "(sensitive)"
#: A side on which an element of a map or list does not exist.
ABSENT_TEXT = "(absent)"
_ELEMENT_SIGNS = {"add": "+", "remove": "-", "change": "~"}

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


def element_line(element: Element, reference: bool = False) -> str:
    """`~ members["ada@acme.example"]: (absent) -> "member"`."""

    def side(value: Any) -> str:
        return ABSENT_TEXT if value is ABSENT else value_text(value, reference=reference)

    sign = _ELEMENT_SIGNS[element.op]
    return f"{sign} {element.path}: {side(element.before)} -> {side(element.after)}"


def render_change(change: FieldChange, verb: str, width: int) -> list[str]:
    """The change's lines: the changed elements of an updated map or list, else one line."""
    elements = element_changes(change, verb)
    if elements is not None:
        return [element_line(e, change.reference) for e in elements]
    return [_whole_change(change, verb, width)]


def _whole_change(change: FieldChange, verb: str, width: int) -> str:
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


def field_width(action: Action) -> int:
    """The width that aligns the `=` of the changes shown whole (element lines have none)."""
    whole = [c.field for c in action.changes if element_changes(c, action.verb) is None]
    return max(map(len, whole), default=0)


def render_action(action: Action, paint: Painter) -> list[str]:
    symbol = SYMBOLS[action.verb]
    where = f"  ({action.location})" if action.location else ""
    head = f"{symbol} {action.verb} {action.address}"
    lines = [f"  {paint(head, COLORS[symbol])}{paint(where, 'dim')}"]
    for note in action.notes:
        lines.append(f"      # {note}")
    width = field_width(action)
    for change in action.changes:
        lines += [f"      {line}" for line in render_change(change, action.verb, width)]
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


#: the head of the plan's list of what it leaves out (`Plan.not_planned`)
NOT_PLANNED_HEAD = (
    "Not planned: {count} (the API answered what docsync uses of these otherwise than it "
    "relies on; the rest of the plan stands without them)"
)


def render_plan(plan: Plan, *, color: bool = False, title: str | None = None) -> str:
    paint = Painter(color)
    out: list[str] = []
    org = title or plan.organization
    if plan.empty and plan.not_planned:
        out.append(f"No changes planned for organization {org}, but not all of it was planned.")
    elif plan.empty:
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
            f"  {u.address}"
            + ("" if u.id_in_address else f" (id {u.id})")
            + (f": kept, {u.reason}" if u.reason else "")
            for u in plan.unmanaged
        )
        out.append("")
    if plan.not_planned:
        out.append(f"{NOT_PLANNED_HEAD.format(count=len(plan.not_planned))}:")
        out.extend(f"  {item.line()}" for item in plan.not_planned)
        out.append("")
    careful = [(a, why) for a in plan.actions if (why := reasons(a))]
    if careful:
        out.append(f"Needs a careful look: {len(careful)} action(s):")
        out.extend(f"  {a.verb} {a.address} ({'; '.join(why)})" for a, why in careful)
        out.append("")
    for warning in plan.warnings:
        out.append(f"Warning: {warning}")
    out.append(paint(f"Plan: {plan.summary()}.", "bold"))
    return "\n".join(out) + "\n"

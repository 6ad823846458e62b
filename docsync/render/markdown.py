"""The plan as a pull-request comment: a summary table, the dangerous actions first, every
action with its changes folded in `<details>`, within GitHub's comment size limit."""

from __future__ import annotations

import difflib
import html
import re

from docsync.core.model import VERBS, Action, Plan, grant_of, role_shown, verb_counts
from docsync.render.json import DESTRUCTIVE
from docsync.render.text import field_width, render_change

#: GitHub refuses comments over 65,536 characters; keep room for a wrapper around ours.
DEFAULT_BUDGET = 60_000
#: Room kept for the notes that say what was left out.
_NOTE_ROOM = 600
#: At most this many unmanaged resources are listed (the text and JSON plans list them all).
_UNMANAGED_SHOWN = 200

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _one_line(text: str) -> str:
    """Names come from the API: a newline in one must not end a list item or an HTML block."""
    return _CONTROL.sub(" ", text)


def _code(text: str) -> str:
    """An inline code span that no backtick in `text` can break out of."""
    text = _one_line(text)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if longest else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _risky(action: Action) -> bool:
    return action.verb in DESTRUCTIVE or action.audience_change


def _flag(action: Action) -> str:
    if action.verb in DESTRUCTIVE:
        return "🔴 "
    if action.audience_change:
        return "🟠 "
    return ""


def _headline(action: Action) -> str:
    """Markdown, for list items."""
    where = f" — {_code(action.location)}" if action.location else ""
    return f"{_flag(action)}**{action.verb}** {_code(action.address)}{where}"


def _text(value: str) -> str:
    """Plain text inside HTML: no tag or entity of a name is interpreted."""
    return html.escape(_one_line(value), quote=False)


def _summary(action: Action) -> str:
    """HTML: GitHub does not render Markdown inside `<summary>`, and names must stay text."""
    where = f" — <code>{_text(action.location)}</code>" if action.location else ""
    count = len(action.changes)
    if action.verb == "reorder" and not count:
        # Nothing is out of place yet: the order is checked once new items are in.
        what = "order checked after the creates"
    else:
        what = f"{count} change{'s' if count != 1 else ''}"
    return (
        f"{_flag(action)}<b>{action.verb}</b> <code>{_text(action.address)}</code>{where} ({what})"
    )


def _details(action: Action) -> str:
    width = field_width(action)
    body = [f"# {_one_line(note)}" for note in action.notes]
    body += [
        _one_line(line) for c in action.changes for line in render_change(c, action.verb, width)
    ]
    if not body:
        return f"<details><summary>{_summary(action)}</summary></details>\n"
    fenced = "\n".join(body).replace("```", "`\u200b``")
    return (
        f"<details><summary>{_summary(action)}</summary>\n\n```diff\n{fenced}\n```\n\n</details>\n"
    )


def _cell(value: object) -> str:
    """A table cell: text only, no `|` that would split the row."""
    return _text(str(value)).replace("|", "\\|")


#: principals in an access table: teams, then members, each by name
_PRINCIPALS = ("team", "member")


def _role(action: Action, side: str) -> object:
    """A grant's role on one side of its action: `—` without a grant, `guest` for null."""
    if (action.verb, side) in (("create", "before"), ("delete", "after")):
        return "—"
    change = next((c for c in action.changes if c.field == "role"), None)
    return role_shown(getattr(change, side) if change is not None else None)


def _what(action: Action) -> str:
    """What a grant action does to its row, flagged as its headline is."""
    if action.verb in ("create", "delete"):
        word = "new" if action.verb == "create" else "removed"
    else:  # an update lowers access exactly when it is flagged an audience change
        word = "lowered" if action.audience_change else "raised"
    return _flag(action) + word


def _row(principal: str, name: str, *cells: object) -> tuple[tuple[int, str, str], str]:
    order = _PRINCIPALS.index(principal) if principal in _PRINCIPALS else len(_PRINCIPALS)
    row = "| " + " | ".join(_cell(c) for c in (f"{principal} {name}", *cells)) + " |"
    return (order, name.casefold(), name), row


def _access(plan: Plan, room: int) -> str:
    """Each resource whose grants change, one row per direct grant of the principal types
    managed there (principal, before, after, what changes): the grants that change and those
    kept (`=`), so a reviewer sees the matrix after the apply, not a list of calls."""
    tables: dict[str, list[tuple[tuple[int, str, str], str]]] = {}
    for action in plan.actions:
        found = grant_of(action.address) if action.kind == "grant" else None
        if found is None:
            continue
        resource, principal, name = found
        before, after = _role(action, "before"), _role(action, "after")
        row = _row(principal, name, before, after, _what(action))
        tables.setdefault(resource, []).append(row)
    for kept in plan.kept_grants:
        if kept.resource in tables:
            role = role_shown(kept.role)
            tables[kept.resource].append(_row(kept.principal, kept.name, role, role, "="))
    if not tables:
        return ""
    text = "#### Access\n\n"
    for index, (resource, rows) in enumerate(tables.items()):
        block = (
            f"{_code(resource)}\n\n| principal | before | after | change |\n|---|---|---|---|\n"
            + "\n".join(row for _, row in sorted(rows))
            + "\n\n"
        )
        if len(text) + len(block) > room:
            left = len(tables) - index
            return (
                text
                + f"_{left} more access table(s) not shown, to stay within the size limit._\n\n"
            )
        text += block
    return text


def _short(action: Action) -> str:
    """An action whose changes are too long for the comment: its headline only."""
    return f"- {_headline(action)} (changes too long to show here)\n"


def _table(plan: Plan) -> list[str]:
    of_kind: dict[str, list[Action]] = {}
    for action in plan.actions:
        of_kind.setdefault(action.kind, []).append(action)
    by_kind = {kind: verb_counts(actions) for kind, actions in of_kind.items()}
    verbs = [v for v in VERBS if any(c[v] for c in by_kind.values())]
    lines = [
        "| kind | " + " | ".join(verbs) + " |",
        "|---|" + "---:|" * len(verbs),
    ]
    for kind in sorted(by_kind):
        cells = [str(by_kind[kind][v] or "") for v in verbs]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return lines


def _head(plan: Plan, org: str, risky: list[Action]) -> str:
    out = [f"### docsync plan for {_text(org)}", ""]
    if plan.empty:
        out += ["**No changes.** The organization matches the manifest.", ""]
        return "\n".join(out) + "\n"
    flags = []
    destructive = sum(1 for a in risky if a.verb in DESTRUCTIVE)
    audience = sum(1 for a in risky if a.audience_change)
    if destructive:
        flags.append(f"🔴 {destructive} destructive")
    if audience:
        flags.append(f"🟠 {audience} audience change{'s' if audience != 1 else ''}")
    out += [f"**Plan: {plan.summary()}**" + (" · " + " · ".join(flags) if flags else ""), ""]
    out += [*_table(plan), ""]
    return "\n".join(out) + "\n"


def render_markdown(plan: Plan, *, title: str | None = None, budget: int = DEFAULT_BUDGET) -> str:
    """Never longer than `budget` characters: what does not fit is counted and named."""
    risky = [a for a in plan.actions if _risky(a)]
    text = _head(plan, title or plan.organization, risky)
    tail = _tail(plan, room=max(budget - len(text) - _NOTE_ROOM, 0) // 4)
    room = budget - len(tail) - _NOTE_ROOM
    if risky:
        text += "#### Needs a careful look\n\n"
        # At most half the room: the details of those same actions come next.
        half = len(text) + (room - len(text)) // 2
        listed = 0
        for action in risky:
            notes = "".join(f" _({_text(n)})_" for n in action.notes)
            line = f"- {_headline(action)}{notes}\n"
            if len(text) + len(line) > half:
                break
            text += line
            listed += 1
        if listed < len(risky):
            text += f"- … and {len(risky) - listed} more, all in the whole plan (below)\n"
        text += "\n"
    pictures = _structures(plan, room=(room - len(text)) // 4)
    text += pictures
    text += _access(plan, room=(room - len(text)) // 4)
    if plan.actions:
        text += "#### Actions\n\n"
    # Destructive and audience-changing actions first: if anything is cut, it is not them.
    ordered = risky + [a for a in plan.actions if not _risky(a)]
    shown = 0
    for action in ordered:
        block = _details(action)
        if len(block) > room // 4:  # one action must not crowd out all the others
            block = _short(action)
        if len(text) + len(block) > room:
            break
        text += block
        shown += 1
    if shown < len(ordered):
        text += (
            f"\n> **{len(ordered) - shown} more action(s) not shown** to stay within the "
            "comment size limit. The whole plan is in the job log "
            "(`docsync plan --format text`) and in `docsync plan --format json`.\n"
        )
    return text + tail


def _marked(lines: list[str], other: list[str], sign: str) -> str:
    """`lines` in a diff block: those not in `other` (in order) marked with `sign`."""
    keep: set[int] = set()
    for block in difflib.SequenceMatcher(None, lines, other, autojunk=False).get_matching_blocks():
        keep.update(range(block.a, block.a + block.size))
    body = "\n".join(
        f"{' ' if index in keep else sign} {_one_line(line)}" for index, line in enumerate(lines)
    )
    return "```diff\n" + body.replace("```", "`\u200b``") + "\n```\n"


def _structures(plan: Plan, room: int) -> str:
    """Each site whose structure changes, its navigation before and after, changed lines
    marked: a reviewer sees the tree instead of reading moves."""
    if not plan.structures:
        return ""
    text = "#### Site structure\n\n"
    left = 0
    for index, picture in enumerate(plan.structures):
        before, after = picture["before"], picture["after"]
        was = _marked(before, after, "-") if before else "_(a new site)_\n"
        block = (
            f"<details open><summary><code>{_text(picture['site'])}</code>: navigation before "
            f"and after</summary>\n\nBefore:\n\n{was}\nAfter:\n\n"
            f"{_marked(after, before, '+')}\n</details>\n\n"
        )
        if len(text) + len(block) > room:
            left = len(plan.structures) - index
            break
        text += block
    if left:
        text += f"_{left} more site structure(s) not drawn, to stay within the size limit._\n\n"
    return text


def _tail(plan: Plan, room: int) -> str:
    """Unmanaged resources and warnings, within about `room` characters."""
    lines = [""]
    used = 0
    if plan.unmanaged:
        items = []
        for u in plan.unmanaged[:_UNMANAGED_SHOWN]:
            item = f"- {_code(u.address)}" + ("" if u.id_in_address else f" (id {_code(u.id)})")
            if u.reason:
                item += f": kept, {_text(u.reason)}"
            if used + len(item) > room // 2:
                break
            items.append(item)
            used += len(item) + 1
        lines += [
            f"<details><summary>{len(plan.unmanaged)} unmanaged resource(s), left alone"
            "</summary>\n",
            *items,
        ]
        if len(items) < len(plan.unmanaged):
            lines.append(f"- … and {len(plan.unmanaged) - len(items)} more")
        lines += ["", "</details>", ""]
    for index, warning in enumerate(plan.warnings):
        line = f"> ⚠️ {_one_line(warning)}"
        if used + len(line) > room:
            lines.append(f"> ⚠️ {len(plan.warnings) - index} more warning(s): see the job log")
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines) + "\n"

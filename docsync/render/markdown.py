"""The plan as a pull-request comment: a summary table, the dangerous actions first, every
action with its changes folded in `<details>`, within GitHub's comment size limit (the budget:
docsync.render.budget, which says what a cut comment left out)."""

from __future__ import annotations

import difflib
import html
import re

from docsync.core.model import Action, Plan, Review, Unmanaged
from docsync.kinds.catalogue import KINDS
from docsync.render.budget import DEFAULT_BUDGET, LeftOut, Room, kind_table, worst_note
from docsync.render.careful import needs_review, policy_warnings
from docsync.render.pictures import structures
from docsync.render.text import field_width, render_change

__all__ = ["DEFAULT_BUDGET", "code_span", "render_markdown"]

#: At most this many unmanaged resources are listed in a comment (the text and JSON plans, and
#: the Markdown plan without a budget, list them all).
_UNMANAGED_SHOWN = 200
#: A plan of at most this many actions shows their changes unfolded: a reviewer of a small
#: change reads it without a click; past it, headlines first, each unfolded on demand.
SHOWN_UNFOLDED = 10
#: Room kept for the headings and wrappers of a cut comment's sections.
_FRAME_ROOM = 1_000
#: Where the whole plan is when the caller does not say (`--whole-plan`).
WHOLE_PLAN = "`docsync plan --format markdown --max-chars 0`, or the text plan in the job log"

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _one_line(text: str) -> str:
    """Names come from the API: a newline in one must not end a list item or an HTML block."""
    return _CONTROL.sub(" ", text)


def code_span(text: str) -> str:
    """An inline code span that no backtick in `text` can break out of."""
    text = _one_line(text)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if longest else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _flag(action: Action) -> str:
    if action.destructive:
        return "🔴 "
    if action.audience_change:
        return "🟠 "
    if action.security_change:
        return "🟣 "
    if action.content_change:
        return "🔵 "
    if policy_warnings(action):
        return "🟡 "
    return ""


def _headline(action: Action) -> str:
    """Markdown, for list items."""
    where = f" — {code_span(action.location)}" if action.location else ""
    return f"{_flag(action)}**{action.verb}** {code_span(action.address)}{where}"


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


def _details(action: Action, shown: bool = False) -> str:
    """One action, its changes folded under its headline (`shown`: unfolded)."""
    width = field_width(action)
    body = [f"# {_one_line(note)}" for note in action.notes]
    body += [
        _one_line(line) for c in action.changes for line in render_change(c, action.verb, width)
    ]
    tag = "<details open>" if shown else "<details>"
    if not body:
        return f"{tag}<summary>{_summary(action)}</summary></details>\n"
    fenced = "\n".join(body).replace("```", "`\u200b``")
    return f"{tag}<summary>{_summary(action)}</summary>\n\n```diff\n{fenced}\n```\n\n</details>\n"


def _cell(value: object) -> str:
    """A table cell: text only, no `|` that would split the row."""
    return _text(str(value)).replace("|", "\\|")


def _reviews(plan: Plan) -> list[str]:
    """The tables the kinds ask for beside their actions (a resource's access), one block
    each, the first of a heading under it; a row showing an action is flagged as its
    headline is."""
    by_heading: dict[str, list[Review]] = {}
    for kind in KINDS:
        for review in kind.reviews(plan):
            by_heading.setdefault(review.heading, []).append(review)
    blocks = []
    for heading, reviews in by_heading.items():
        for index, review in enumerate(reviews):
            block = f"{code_span(review.subject)}\n\n{_grid(review)}\n"
            blocks.append((f"#### {_text(heading)}\n\n" if index == 0 else "") + block)
    return blocks


def _grid(review: Review) -> str:
    head = "| " + " | ".join(_cell(c) for c in review.columns) + " |\n"
    head += "|" + "---|" * len(review.columns) + "\n"
    rows = []
    for row in review.rows:
        *cells, last = row.cells
        flagged = (_flag(row.action) if row.action is not None else "") + last
        rows.append("| " + " | ".join(_cell(c) for c in (*cells, flagged)) + " |")
    return head + "\n".join(rows) + "\n"


def _short(action: Action) -> str:
    """An action whose changes are too long for the comment: its headline only."""
    return f"- {_headline(action)} (changes too long to show here)\n"


def _careful(action: Action) -> str:
    notes = "".join(f" _({_text(n)})_" for n in action.notes)
    return f"- {_headline(action)}{notes}\n"


def _head(plan: Plan, org: str, risky: list[Action]) -> str:
    out = [f"### docsync plan for {_text(org)}", ""]
    if plan.empty and plan.not_planned:
        count = len(plan.not_planned)
        out += [f"**No changes planned**, but {count} not planned (below).", ""]
        return "\n".join(out) + "\n"
    if plan.empty:
        out += ["**No changes.** The organization matches the manifest.", ""]
        return "\n".join(out) + "\n"
    flags = []
    destructive = sum(1 for a in risky if a.destructive)
    audience = sum(1 for a in risky if a.audience_change)
    if destructive:
        flags.append(f"🔴 {destructive} destructive")
    if audience:
        flags.append(f"🟠 {audience} audience change{'s' if audience != 1 else ''}")
    security = sum(1 for a in risky if a.security_change and not a.audience_change)
    if security:
        flags.append(f"🟣 {security} security change{'s' if security != 1 else ''}")
    content = sum(
        1 for a in risky if a.content_change and not (a.audience_change or a.security_change)
    )
    if content:
        flags.append(f"🔵 {content} content change{'s' if content != 1 else ''}")
    warned = sum(1 for a in risky if policy_warnings(a))
    if warned:
        flags.append(f"🟡 {warned} flagged by policies")
    out += [f"**Plan: {plan.summary()}**" + (" · " + " · ".join(flags) if flags else ""), ""]
    out += [*kind_table(plan.actions), ""]
    return "\n".join(out) + "\n"


_ACTIONS = "#### Actions\n\n"


def render_markdown(
    plan: Plan,
    *,
    title: str | None = None,
    budget: int = DEFAULT_BUDGET,
    whole_plan: str = WHOLE_PLAN,
) -> str:
    """Never longer than `budget` characters (0: no limit, the whole plan). Past it the
    summary, every flagged action (destructive, audience or security change, a policy's
    warning) and the access
    tables stay first; what does not fit is counted per kind in a note that says where the
    whole plan is."""
    risky = [a for a in plan.actions if needs_review(a)]
    ordered = risky + [a for a in plan.actions if not needs_review(a)]
    parts = _Parts(plan, title or plan.organization, risky, unmanaged=budget <= 0)
    shown = len(plan.actions) <= SHOWN_UNFOLDED
    if budget <= 0:
        return parts.text([_details(a, shown) for a in ordered])
    details, used = [], len(parts.text([])) + len(_ACTIONS)  # the heading comes with them
    for action in ordered:  # the whole plan when it fits, each action's changes in full
        details.append(_details(action, shown))
        used += len(details[-1])
        if used > budget:
            break
    else:
        return parts.text(details)
    # Too long: take parts in order of importance while they fit; count what does not.
    others = max(len(parts.pictures), len(parts.tables), len(plan.unmanaged), len(parts.warnings))
    note_room = worst_note(plan.actions, others, budget, whole_plan) + _FRAME_ROOM
    room = Room(budget - len(parts.head) - note_room)
    left = LeftOut()
    # Two thirds at most for the careful-look list: past that, no list is read to its end.
    parts.careful = room.cut(parts.careful, limit=room.left * 2 // 3)[0]
    parts.tables, left.tables = room.cut(parts.tables)
    parts.warnings, left.warnings = room.cut(parts.warnings)
    parts.pictures, left.structures = room.cut(parts.pictures, limit=room.left // 2)
    details, start = [], room.left
    for action in ordered:
        block = _details(action, shown)
        short = len(block) > start // 4  # one action must not crowd out all the others
        if not room.take(_short(action) if short else block):
            break
        details.append(_short(action) if short else block)
        left.headline_only += short
    # Risky actions come first in both lists: those named in neither are past the longer one.
    left.unnamed_risky = max(len(risky) - max(len(parts.careful), len(details)), 0)
    parts.unmanaged = room.cut(parts.unmanaged)[0]
    left.unmanaged = len(plan.unmanaged) - len(parts.unmanaged)
    left.changes = ordered[len(details) :]
    note = left.note(len(plan.actions), budget, whole_plan)
    return parts.text(details) + "\n" + note


class _Parts:
    """The sections of the comment, each a list of parts that are shown whole or not at all."""

    def __init__(self, plan: Plan, org: str, risky: list[Action], *, unmanaged: bool) -> None:
        self.plan = plan
        self.head = _head(plan, org, risky)
        self.careful = [_careful(a) for a in risky]
        self.pictures = _structures(plan)
        self.tables = _reviews(plan)
        shown = plan.unmanaged if unmanaged else plan.unmanaged[:_UNMANAGED_SHOWN]
        self.unmanaged = [_unmanaged(u) for u in shown]
        self.warnings = [f"> ⚠️ Not planned: {_one_line(n.line())}" for n in plan.not_planned]
        self.warnings += [f"> ⚠️ {_one_line(w)}" for w in plan.warnings]

    def text(self, details: list[str]) -> str:
        text = self.head
        if self.careful:
            text += "#### Needs a careful look\n\n" + "".join(self.careful) + "\n"
        if self.pictures:
            text += "#### Site structure\n\n" + "".join(self.pictures)
        if self.tables:
            text += "".join(self.tables)
        if details:
            text += _ACTIONS + "".join(details)
        lines = [""]
        if self.plan.unmanaged:
            count = len(self.plan.unmanaged)
            lines += [f"<details><summary>{count} unmanaged resource(s), left alone</summary>\n"]
            lines += self.unmanaged
            if len(self.unmanaged) < count:
                lines.append(f"- … and {count - len(self.unmanaged)} more")
            lines += ["", "</details>", ""]
        return text + "\n".join(lines + self.warnings) + "\n"


def _unmanaged(u: Unmanaged) -> str:
    item = f"- {code_span(u.address)}" + ("" if u.id_in_address else f" (id {code_span(u.id)})")
    return item + (f": kept, {_text(u.reason)}" if u.reason else "")


def _marked(lines: list[str], other: list[str], sign: str) -> str:
    """`lines` in a diff block: those not in `other` (in order) marked with `sign`."""
    keep: set[int] = set()
    for block in difflib.SequenceMatcher(None, lines, other, autojunk=False).get_matching_blocks():
        keep.update(range(block.a, block.a + block.size))
    body = "\n".join(
        f"{' ' if index in keep else sign} {_one_line(line)}" for index, line in enumerate(lines)
    )
    return "```diff\n" + body.replace("```", "`\u200b``") + "\n```\n"


def _structures(plan: Plan) -> list[str]:
    """Each site whose structure changes, its navigation before and after, changed lines
    marked: a reviewer sees the tree instead of reading moves."""
    pictures = []
    for picture in structures(plan):
        before, after = picture.before, picture.after
        was = _marked(before, after, "-") if before else "_(a new site)_\n"
        pictures.append(
            f"<details open><summary><code>{_text(picture.subject)}</code>: navigation before "
            f"and after</summary>\n\nBefore:\n\n{was}\nAfter:\n\n"
            f"{_marked(after, before, '+')}\n</details>\n\n"
        )
    return pictures

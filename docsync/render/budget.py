"""The size budget of a Markdown plan, a pull-request comment: parts are taken whole, in order of
importance, while they fit, and what was left out is said exactly, per kind, with where the
whole plan is."""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field

from docsync.core.model import VERBS, Action
from docsync.render import DEFAULT_BUDGET, GITHUB_LIMIT, MIN_BUDGET

__all__ = [
    "DEFAULT_BUDGET",
    "GITHUB_LIMIT",
    "MIN_BUDGET",
    "LeftOut",
    "Room",
    "kind_table",
    "worst_note",
]


class Room:
    """The characters left; `budget` 0 is no limit."""

    def __init__(self, budget: int) -> None:
        self.left = budget if budget > 0 else sys.maxsize

    def take(self, text: str) -> bool:
        if len(text) > self.left:
            return False
        self.left -= len(text)
        return True

    def cut(self, parts: list[str], limit: int | None = None) -> tuple[list[str], int]:
        """The leading parts that fit (within `limit` characters of them, when given), taken,
        and how many were left out."""
        cap = self.left if limit is None else min(limit, self.left)
        taken: list[str] = []
        for part in parts:
            if len(part) > cap:
                break
            cap -= len(part)
            taken.append(part)
        self.left -= sum(map(len, taken))
        return taken, len(parts) - len(taken)


@dataclass
class LeftOut:
    """What a cut comment does not hold: counted, so that the note can say it exactly."""

    #: actions whose changes are not shown (their headline may be, in the careful-look list)
    changes: list[Action] = field(default_factory=list)
    #: flagged actions (destructive, audience or security changes) named nowhere in the comment
    unnamed_risky: int = 0
    #: actions listed by their headline only, their changes being too long for the comment
    headline_only: int = 0
    structures: int = 0
    tables: int = 0
    unmanaged: int = 0
    warnings: int = 0

    def note(self, total: int, budget: int, whole_plan: str) -> str:
        """`#### Left out of this comment`: what, per kind and verb, and where the rest is."""
        lines = [
            "#### Left out of this comment",
            "",
            f"This comment stays under {budget:,} characters (GitHub refuses comments over "
            f"{GITHUB_LIMIT:,}). **The whole plan: {whole_plan}.** Left out here:",
            "",
        ]
        if self.changes:
            named = (
                f"{self.unnamed_risky:,} flagged one(s) among them not named anywhere above"
                if self.unnamed_risky
                else "every flagged action is named above"
            )
            lines += [
                f"- the changes of **{len(self.changes):,} of {total:,} action(s)** ({named}):",
                "",
                *("  " + row for row in kind_table(self.changes, total=True)),
                "",
            ]
        counted = [
            (self.headline_only, "action(s) shown by their headline only (changes too long)"),
            (self.structures, "site structure picture(s)"),
            (self.tables, "table(s) beside the actions"),
            (self.unmanaged, "unmanaged resource(s) in the list"),
            (self.warnings, "warning(s)"),
        ]
        lines += [f"- {count:,} {what}" for count, what in counted if count]
        return "\n".join(lines) + "\n"


def kind_table(actions: list[Action], *, total: bool = False) -> list[str]:
    """Actions counted by kind (rows) and verb (columns, those that occur), as a plan's summary
    and a cut comment's note show them; `total` adds a row of all kinds."""
    of_kind: dict[str, Counter[str]] = {}
    for action in actions:
        of_kind.setdefault(action.kind, Counter())[action.verb] += 1
    verbs = [v for v in VERBS if any(c[v] for c in of_kind.values())]
    rows = ["| kind | " + " | ".join(verbs) + " |", "|---|" + "---:|" * len(verbs)]
    for kind in sorted(of_kind):
        cells = [f"{of_kind[kind][v]:,}" if of_kind[kind][v] else "" for v in verbs]
        rows.append(f"| {kind} | " + " | ".join(cells) + " |")
    if total:
        sums = [f"{sum(c[v] for c in of_kind.values()):,}" for v in verbs]
        rows.append("| **all** | " + " | ".join(sums) + " |")
    return rows


def worst_note(actions: list[Action], total_others: int, budget: int, whole_plan: str) -> int:
    """The longest the note can be for this plan: every action, part and item left out (counts
    only shrink from there, and their digits with them)."""
    everything = LeftOut(
        changes=actions,
        unnamed_risky=len(actions),
        headline_only=len(actions),
        structures=total_others,
        tables=total_others,
        unmanaged=total_others,
        warnings=total_others,
    )
    return len(everything.note(len(actions), budget, whole_plan))

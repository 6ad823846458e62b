"""Every 409 the emulator can answer is named in a table of the documentation, with why.

Each `conflict(reason, message)` call in `docsync/emulator` carries a literal id as its first
argument; the "The emulator's 409s" table of docs/testing.md, with docs/emulator.md's table of
the 409s of the operations served since ("More 409s"), lists exactly those ids, so a new 409
cannot slip in undocumented and a row cannot outlive its call.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EMULATOR = ROOT / "docsync" / "emulator"


def conflict_calls() -> dict[str, list[str]]:
    """id -> the `file:line`s of the `conflict(...)` calls that use it ("?" when not literal)."""
    found: dict[str, list[str]] = {}
    for path in sorted(EMULATOR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name != "conflict":
                continue
            first = node.args[0] if node.args else None
            reason = "?"
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                reason = first.value
            found.setdefault(reason, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def _ids(document: str, heading: str) -> set[str]:
    """The ids in the first column of the table under `heading` in `document`."""
    text = (ROOT / "docs" / document).read_text(encoding="utf-8")
    section = text.split(heading, 1)[1].split("\n#", 1)[0]
    return set(re.findall(r"^\| `([a-z0-9-]+)` \|", section, flags=re.MULTILINE))


def documented_table() -> set[str]:
    """The ids of docs/testing.md's table of the emulator's 409s, and of docs/emulator.md's."""
    listed = _ids("testing.md", "## The emulator's 409s")
    more = _ids("emulator.md", "### More 409s")
    assert listed and more and not listed & more, "each 409 in one table"
    return listed | more


def test_every_conflict_call_has_a_literal_id() -> None:
    calls = conflict_calls()
    assert "?" not in calls, f"conflict() without a literal id as first argument: {calls['?']}"
    assert len(calls) >= 5  # the scan finds the calls (a broken scan passes nothing)


def test_the_readme_table_lists_exactly_the_ids_in_use() -> None:
    calls = conflict_calls()
    listed = documented_table()
    missing = {reason: calls[reason] for reason in set(calls) - listed}
    assert not missing, f"409s no table of the docs names (add a row, with why): {missing}"
    stale = listed - set(calls)
    assert not stale, f"rows of the docs' 409 tables no call uses: {sorted(stale)}"

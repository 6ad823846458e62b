"""What `validate` can tell of a resource's grants (`permissions:`) without the API: team
names against the manifest's teams, members it removes, an email written twice."""

from __future__ import annotations

import re
from difflib import get_close_matches
from typing import Any

from docsync.core.checking import CheckView, is_absent, renamed_away

Path = tuple[str | int, ...]
Problem = tuple[Path, str]
_TEAMS: Path = ("teams",)
#: what a live id looks like: a name of that shape is left for the plan to find
_ID = re.compile(r"^[A-Za-z0-9_-]+$")


def grant_problems(view: CheckView, path: Path, entry: dict[str, Any]) -> list[Problem]:
    """What `validate` can tell without the API about one entry's grants: teams the manifest
    does not list (when it lists teams) that do not look like ids, or only renames away from
    (`was:`), members it deletes, and one principal written twice (a team by title and id
    aside, which only the plan can tell)."""
    written = entry.get("permissions")
    if not isinstance(written, dict):
        return []
    base: Path = (*path, "permissions")
    problems: list[Problem] = []
    problems += _team_problems(view, written.get("teams"), (*base, "teams"))
    problems += _member_problems(view.data, written.get("members"), (*base, "members"))
    return problems


def _listed(data: dict[str, Any], section: str, key: str) -> dict[str, dict[str, Any]] | None:
    entries = data.get(section)
    if not isinstance(entries, list):
        return None
    return {str(e[key]): e for e in entries if isinstance(e, dict) and isinstance(e.get(key), str)}


def _team_problems(view: CheckView, teams: Any, path: Path) -> list[Problem]:
    listed = _listed(view.data, "teams", "title")
    if not isinstance(teams, dict) or listed is None:
        return []  # no teams written: only the live organization can tell
    ids = {str(e["id"]) for e in listed.values() if isinstance(e.get("id"), str)}
    renamed = {
        str(entry["was"]): ((*_TEAMS, index), entry)
        for index, entry in enumerate(view.data["teams"])
        if isinstance(entry, dict) and isinstance(entry.get("was"), str) and not is_absent(entry)
    }
    problems: list[Problem] = []
    for name in teams:
        team = listed.get(name)
        if team is None and name not in ids and name in renamed:
            shown = view.show((*path, name), name)
            problems.append(
                ((*path, name), renamed_away(view, shown, "team", renamed[name], "title"))
            )
        elif team is not None and team.get("state") == "absent":
            problems.append(((*path, name), f"team {name!r} is deleted by this manifest"))
        elif team is None and name not in ids and not _ID.match(name):
            close = get_close_matches(name, list(listed), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            message = f"names no team of this manifest and is not an id{hint}"
            problems.append(((*path, name), message))
    return problems


def _member_problems(data: dict[str, Any], members: Any, path: Path) -> list[Problem]:
    if not isinstance(members, dict):
        return []
    listed = {k.casefold(): e for k, e in (_listed(data, "members", "email") or {}).items()}
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for name in members:
        folded = name.casefold()
        if folded in seen:
            message = f"is {seen[folded]!r} again (emails are compared without case)"
            problems.append(((*path, name), message))
        seen.setdefault(folded, name)
        if (listed.get(folded) or {}).get("state") == "absent":
            problems.append(((*path, name), f"member {name!r} is removed by this manifest"))
    return problems

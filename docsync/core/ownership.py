"""Which live resources a manifest owns: `prune:` as a list of kinds (all of their unmatched
resources) or as patterns per kind (`prune: {teams: "eng-*"}`), so that two repositories can
share an organization and each delete only what it owns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fnmatch import fnmatchcase

#: `prune:` as written: section names, or section name -> one glob or a list of them.
PruneSpec = Sequence[str] | Mapping[str, str | Sequence[str]]


def prune_patterns(prune: PruneSpec) -> dict[str, tuple[str, ...]]:
    """Section name -> its globs; a kind listed by name alone prunes everything (`*`)."""
    if isinstance(prune, Mapping):
        return {
            section: (patterns,) if isinstance(patterns, str) else tuple(patterns)
            for section, patterns in prune.items()
        }
    return {section: ("*",) for section in prune}


def prune_decision(prune: PruneSpec, section: str, name: str) -> tuple[bool, str]:
    """Whether an unmatched live resource called `name` is deleted, and why: the note of its
    delete, or why it is kept (said in the plan's unmanaged list)."""
    patterns = prune_patterns(prune).get(section)
    if patterns is None:
        return False, ""  # the plan says once which kinds `prune` does not list
    for pattern in patterns:
        if fnmatchcase(name, pattern):
            if pattern == "*":
                return True, f"pruned: no manifest entry, and `prune` lists {section}"
            return True, f'pruned: no manifest entry, and `prune` {section} owns "{pattern}"'

    shown = ", ".join(f'"{p}"' for p in patterns)
    return False, f"`prune` {section} matches only {shown}"

"""What `validate` refuses of the sites and spaces an integration is installed on, before any
request, where `plan` would refuse it whatever the organization holds: a name no entry keeps
that the manifest deletes (`state: absent`) or renames away from (`was:`), or that no live
resource could hold once the plan is applied. Offline, a live site *could* hold any name no
entry takes, unless the manifest prunes sites with a pattern that matches it: the plan would
then delete every live site of that title, and the installation would name nothing. (A live
site of that title that the plan leaves in place, unknown offline, is `plan`'s to check.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from docsync.core.checking import CheckView, Item, is_absent, raw_entries, renamed_away, text
from docsync.core.ownership import prune_patterns
from docsync.core.paths import Path
from docsync.kinds.declaration import Declaration


@dataclass
class _Names:
    """The names the manifest's entries of a kind keep (key, id, `container/key`); those only
    entries written absent take, and those only entries renamed away from (`was:`), each with
    the first of them."""

    kept: set[str] = field(default_factory=set)
    deleted: dict[str, Path] = field(default_factory=dict)
    renamed: dict[str, Item] = field(default_factory=dict)


def _names(view: CheckView, target: Declaration) -> _Names:
    found = _Names()
    for path, entry in raw_entries(view.data, target.section, ()):
        key = text(entry, target.key)
        scope = text(entry, target.scope) if target.scope else None
        names = {n for n in (key, text(entry, "id")) if n}
        if key is not None and scope is not None:
            names.add(f"{scope}/{key}")
        if is_absent(entry):
            for name in names:
                found.deleted.setdefault(name, path)
            continue
        found.kept |= names
        was = text(entry, "was")
        if was is not None:
            found.renamed.setdefault(was, (path, entry))
    found.deleted = {n: p for n, p in found.deleted.items() if n not in found.kept}
    found.renamed = {n: e for n, e in found.renamed.items() if n not in found.kept}
    return found


def _pruned(view: CheckView, target: Declaration, name: str) -> str | None:
    """How `prune` deletes a live `target` of this name no entry keeps (None: it does not)."""
    prune = view.data.get("prune")
    if not target.prunable or not isinstance(prune, Mapping | Sequence) or isinstance(prune, str):
        return None
    try:
        patterns = prune_patterns(prune).get(target.section) or ()
    except (TypeError, AttributeError):  # a malformed `prune:` is the model's to report
        return None
    for pattern in patterns:
        if isinstance(pattern, str) and fnmatchcase(name, pattern):
            if pattern == "*":
                return f"`prune` lists {target.section}"
            return f'`prune` {target.section} owns "{pattern}"'
    return None


def check_installed_on(
    view: CheckView, items: list[Item], levels: Sequence[tuple[str, Declaration]]
) -> None:
    """Each name an entry installs on (`levels`: the entry's field, the kind it names)."""
    for level, target in levels:
        names = _names(view, target)
        noun = target.noun
        for path, entry in items:
            written: Any = entry.get(level)
            if is_absent(entry) or not isinstance(written, dict):
                continue
            for name in written:
                if not isinstance(name, str) or name in names.kept:
                    continue
                at: Path = (*path, level, name)
                shown = view.show(at, name)
                if name in names.renamed:
                    message = renamed_away(view, shown, noun, names.renamed[name], target.key)
                    view.report(at, message, key=True)
                elif name in names.deleted:
                    where = view.where(names.deleted[name])
                    view.report(
                        at,
                        f"{shown} names a {noun} that this manifest deletes (state: absent) "
                        f"at {where}",
                        key=True,
                    )
                elif (why := _pruned(view, target, name)) is not None:
                    view.report(
                        at,
                        f"no {noun} entry holds {shown}, and {why}: a live {noun} of this "
                        "title would be deleted by this plan; write its entry, or install the "
                        f"integration on another {noun}",
                        key=True,
                    )

"""Offline checks beyond field types, for every written list of every kind: a key, no key or
pinned id twice, absent entries carrying nothing else, `was:` naming what no other entry takes
or renames, at most one default, paths unique where the declaration says so; then each kind's
own checks (`Kind.check_list`). No kind is named here: the lists come from the catalogue."""

from __future__ import annotations

from typing import Any

from docsync.core.checking import Item, did_you_mean, is_absent, raw_entries, text
from docsync.kinds.catalogue import CATALOGUE, kind_named
from docsync.kinds.declaration import Declaration
from docsync.manifest.context import CheckContext, walk
from docsync.manifest.problems import Path

_ALWAYS_ALLOWED = frozenset({"id", "state", "protect"})


def run_checks(ctx: CheckContext) -> None:
    """Report every structural mistake the models cannot see on their own."""
    _never_pruned(ctx)
    for declared in CATALOGUE:
        if declared.singleton or declared.mapped:
            continue
        kind = kind_named(declared.name)
        for pattern in CATALOGUE.entry_paths(declared.name):
            for base, parent in walk(ctx.data, pattern[:-2]):
                if not isinstance(parent, dict) or not isinstance(
                    parent.get(declared.section), list
                ):
                    continue
                items = list(_items(parent, declared, base))
                _check_list(ctx, declared, items)
                if declared.renames:
                    _renames(ctx, declared, items)
                if any(f.name == "default" for f in declared.fields):
                    _one_default(ctx, declared, items, _container(base))
                if declared.paths_unique and declared.key != "path":  # else a key twice
                    _paths_unique(ctx, declared, items, _container(base))
                kind.check_list(ctx, items, parent)


def _never_pruned(ctx: CheckContext) -> None:
    """`prune:` naming a kind docsync never prunes (it holds content, or people): a plan would
    say so and prune nothing, so validate refuses it at the name."""
    prune = ctx.data.get("prune")
    named: list[tuple[Path, Any, bool]] = []
    if isinstance(prune, list):
        named = [(("prune", index), name, False) for index, name in enumerate(prune)]
    elif isinstance(prune, dict):
        named = [(("prune", name), name, True) for name in prune]
    never = {d.section: d for d in CATALOGUE.lists if not d.prunable}
    for path, name, key in named:
        declared = never.get(name) if isinstance(name, str) else None
        if declared is not None:
            ctx.report(
                path,
                f"docsync never prunes {name}: delete a {declared.noun} with an entry `state: "
                f"absent`, and take {name} out of prune",
                key=key,
            )


def _items(parent: dict[str, Any], declared: Declaration, base: Path) -> list[Item]:
    """The list's entries; a plain string is its `shorthand` field's value (a team member)."""
    if declared.shorthand is None:
        return list(raw_entries(parent, declared.section, base))
    return [
        ((*base, declared.section, index), {declared.shorthand: item})
        if isinstance(item, str)
        else ((*base, declared.section, index), item)
        for index, item in enumerate(parent[declared.section])
        if isinstance(item, str | dict)
    ]


def _container(base: Path) -> str:
    """What holds a nested list, for messages: `site` (`sites[0]`), `section`; "" at the top."""
    for part in reversed(base):
        if isinstance(part, str):
            try:
                return CATALOGUE.by_section(part).noun
            except KeyError:
                return ""
    return ""


def _check_list(ctx: CheckContext, declared: Declaration, items: list[Item]) -> None:
    """Key present, no duplicate keys or ids, absent entries carrying nothing else."""
    key_field, scope_field, kind = declared.key, declared.scope, declared.noun
    seen_keys: dict[tuple[str | None, str], Path] = {}
    seen_ids: dict[str, Path] = {}
    for path, entry in items:
        key, keyed_by = text(entry, key_field), key_field
        alternative = [text(entry, f) for f in declared.alt_key]
        if key is None and alternative and all(alternative):
            key, keyed_by = ":".join(map(str, alternative)), declared.alt_key[0]
        elif (
            key_field not in entry
            and "id" not in entry
            and not declared.part
            and not _misspelt(declared, entry, key_field)
        ):
            needs = f"'{key_field}'"
            if declared.alt_key:
                needs += " or " + " and ".join(f"'{f}'" for f in declared.alt_key)
            article = "an" if kind[:1].lower() in "aeiou" else "a"  # an integration
            ctx.report(path, f"{article} {kind} needs {needs} (or an 'id' pinning a live {kind})")
        if is_absent(entry):
            keys = {key_field, *declared.alt_key} | ({scope_field} if scope_field else set())
            _check_absent(ctx, path, entry, keys)
        if key is not None:
            scope = text(entry, scope_field) if scope_field else None
            normal = key.lower() if declared.key_folds_case else key
            first = seen_keys.setdefault((scope, normal), path)
            if first != path:
                within = ""
                if scope and scope_field:
                    within = f" in {scope_field} {ctx.show((*path, scope_field), scope)}"
                # A plain string (`shorthand`) is the key itself: located at the item.
                at = (*path, keyed_by) if keyed_by != declared.shorthand else path
                shown = ctx.show(at, key)
                message = f"{kind} {shown}{within} is defined twice; first at {ctx.where(first)}"
                ctx.report(at, message)
        pin = text(entry, "id")
        if pin is not None:
            first = seen_ids.setdefault(pin, path)
            if first != path:
                message = f"two {kind} entries pin the same id; first at {ctx.where(first)}"
                ctx.report((*path, "id"), message)


def _misspelt(declared: Declaration, entry: dict[str, Any], name: str) -> bool:
    """Whether the entry writes `name` misspelt (`tittle:`): the unknown field's problem says
    so, with its did-you-mean; that the key is missing is the same fact, said once."""
    known = set(declared.entry.model_fields) if declared.entry is not None else set()
    return any(
        isinstance(written, str) and written not in known and did_you_mean(written, [name])
        for written in entry
    )


def _renames(ctx: CheckContext, declared: Declaration, items: list[Item]) -> None:
    """`was:` names what one entry renames: not a name another entry keeps (of a kind keyed
    by its name alone), nor what another entry renames too. The plan refused either only when
    the old name was live, and took neither for what it is: one resource cannot be both."""
    kept: dict[str, tuple[Path, str]] = {}  # name -> the entry that takes it, and how
    if not declared.scope:
        for path, entry in items:
            key = text(entry, declared.key)
            if key is not None:
                how = "deleted (`state: absent`)" if is_absent(entry) else "kept"
                kept.setdefault(_folded(declared, key), (path, how))
    claimed: dict[str, Path] = {}
    for path, entry in items:
        was = text(entry, "was")
        if was is None or was == text(entry, declared.key):
            continue
        shown, name = ctx.show((*path, "was"), was), _folded(declared, was)
        if name in kept:
            taker, how = kept[name]
            ctx.report(
                (*path, "was"),
                f"{declared.noun} {shown} is {how} by the entry at {ctx.where(taker)}, so this "
                "one cannot rename it (one resource cannot be both): remove `was:` here, or "
                "that entry",
            )
        elif claimed.setdefault(name, path) != path:
            ctx.report(
                (*path, "was"),
                f"{declared.noun} {shown} is renamed by the entry at "
                f"{ctx.where(claimed[name])} already: one resource takes one new name",
            )


def _folded(declared: Declaration, name: str) -> str:
    return name.lower() if declared.key_folds_case else name


def _check_absent(ctx: CheckContext, path: Path, entry: dict[str, Any], keys: set[str]) -> None:
    allowed = _ALWAYS_ALLOWED | keys
    for name in entry:
        if name not in allowed:
            message = (
                f"'{name}' cannot be combined with state: absent "
                "(an absent entry only names what to delete)"
            )
            ctx.report((*path, name), message, key=True)
    if entry.get("protect") is True:
        message = "protect: true forbids deleting this entry, but state: absent deletes it"
        ctx.report((*path, "protect"), message, key=True)


def _one_default(
    ctx: CheckContext, declared: Declaration, items: list[Item], container: str
) -> None:
    """A level has one default (a site's default section, a section's default site space)."""
    first: Path | None = None
    for path, entry in items:
        if entry.get("default") is True and not is_absent(entry):
            if first is None:
                first = path
                continue
            message = (
                f"only one {declared.noun} of a {container} can be the default; the first is "
                f"at {ctx.where(first)}"
            )
            ctx.report((*path, "default"), message)


def _paths_unique(
    ctx: CheckContext, declared: Declaration, items: list[Item], container: str
) -> None:
    """A path is one item's within its level: the API refuses it for a second one."""
    seen: dict[str, Path] = {}
    for path, entry in items:
        written = text(entry, "path")
        if written is None or is_absent(entry):
            continue
        first = seen.setdefault(written, path)
        if first != path:
            message = (
                f"path {written!r} is also the path of the {declared.noun} at "
                f"{ctx.where(first)}: a path is one {declared.noun}'s within its {container}; "
                "write another one"
            )
            ctx.report((*path, "path"), message)

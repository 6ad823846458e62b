"""Offline checks beyond field types: keys, duplicates, defaults, absent entries, site shape."""

from __future__ import annotations

from typing import Any

from docsync.kinds.catalogue import CATALOGUE
from docsync.kinds.grant_checks import grant_problems
from docsync.kinds.site_redirects import redirect_problems
from docsync.kinds.site_share_links import share_link_problems
from docsync.manifest.adaptive import check_adaptive_schema
from docsync.manifest.context import (
    KEY_FIELDS,
    KIND_NAMES,
    SCOPE_FIELDS,
    CheckContext,
    entries,
    is_absent,
    text,
    walk,
)
from docsync.manifest.problems import Path
from docsync.manifest.references import did_you_mean

_ALWAYS_ALLOWED = frozenset({"id", "state", "protect"})


def run_checks(ctx: CheckContext) -> None:
    """Report every structural mistake the models cannot see on their own."""
    for declared in CATALOGUE:
        if declared.singleton:
            continue
        for pattern in CATALOGUE.entry_paths(declared.name):
            for base, container in walk(ctx.data, pattern[:-2]):
                _check_list(ctx, container, declared.section, base)
    for site_path, site in entries(ctx.data, "sites", ()):
        _check_site(ctx, site_path, site)
    for team_path, team in entries(ctx.data, "teams", ()):
        _check_team_members(ctx, team_path, team)
    for section in ("collections", "spaces", "sites"):
        for path, entry in entries(ctx.data, section, ()):
            for where, message in grant_problems(ctx.data, path, entry):
                ctx.report(where, message)


def _check_list(ctx: CheckContext, container: Any, name: str, base: Path) -> None:
    """Key present, no duplicate keys or ids, absent entries carrying nothing else."""
    declared = CATALOGUE.by_section(name)
    key_field = KEY_FIELDS[name]
    scope_field = SCOPE_FIELDS.get(name)
    kind = KIND_NAMES[name]
    seen_keys: dict[tuple[str | None, str], Path] = {}
    seen_ids: dict[str, Path] = {}
    for path, entry in entries(container, name, base):
        key = text(entry, key_field)
        alternative = [text(entry, f) for f in declared.alt_key]
        if key is None and alternative and all(alternative):
            key, key_field = ":".join(map(str, alternative)), declared.alt_key[0]
        elif key_field not in entry and "id" not in entry:
            needs = f"'{key_field}'"
            if declared.alt_key:
                needs += " or " + " and ".join(f"'{f}'" for f in declared.alt_key)
            ctx.report(path, f"a {kind} needs {needs} (or an 'id' pinning a live {kind})")
        if is_absent(entry):
            keys = {key_field, *declared.alt_key} | ({scope_field} if scope_field else set())
            _check_absent(ctx, path, entry, keys)
        if key is not None:
            scope = text(entry, scope_field) if scope_field else None
            normal = key.lower() if CATALOGUE.by_section(name).key_folds_case else key
            first = seen_keys.setdefault((scope, normal), path)
            if first != path:
                within = ""
                if scope and scope_field:
                    within = f" in {scope_field} {ctx.show((*path, scope_field), scope)}"
                shown = ctx.show((*path, key_field), key)
                message = f"{kind} {shown}{within} is defined twice; first at {ctx.where(first)}"
                ctx.report((*path, key_field), message)
        pin = text(entry, "id")
        if pin is not None:
            first = seen_ids.setdefault(pin, path)
            if first != path:
                message = f"two {kind} entries pin the same id; first at {ctx.where(first)}"
                ctx.report((*path, "id"), message)


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


def _check_site(ctx: CheckContext, site_path: Path, site: dict[str, Any]) -> None:
    if site.get("sections") is not None and site.get("siteSpaces") is not None:
        message = (
            "a site has either 'sections' (each with its siteSpaces) or 'siteSpaces' "
            "(a site without sections), not both"
        )
        ctx.report((*site_path, "siteSpaces"), message, key=True)
    _one_default(ctx, site, "sections", site_path, "section of a site")
    _site_spaces(ctx, site, site_path)
    _group_members(ctx, site, site_path)
    _link_places(ctx, site, site_path)
    _section_paths(ctx, site, site_path)
    for section_path, section in entries(site, "sections", site_path):
        _one_default(ctx, section, "siteSpaces", section_path, "site space of a section")
        _site_spaces(ctx, section, section_path)
    if isinstance(site.get("adaptiveSchema"), dict):
        schema_path = (*site_path, "adaptiveSchema")
        for path, message in check_adaptive_schema(site["adaptiveSchema"], schema_path):
            ctx.report(path, message, key=path != schema_path)
    for path, message in redirect_problems(site, site_path):
        ctx.report(path, message)
    for path, message in share_link_problems(site, site_path):
        ctx.report(path, message)


def _site_spaces(ctx: CheckContext, container: dict[str, Any], base: Path) -> None:
    for path, entry in entries(container, "siteSpaces", base):
        if not is_absent(entry) and text(entry, "id") is None and "space" not in entry:
            ctx.report(path, "a site space needs 'space': the space (title or id) it publishes")


def _group_members(ctx: CheckContext, site: dict[str, Any], site_path: Path) -> None:
    """A section is listed once, in one group at most: the API refuses a section listed twice
    in a group, and a section written in two groups moves between them on every apply."""
    sections = entries(site, "sections", site_path)
    pinned = {text(s, "id"): text(s, "title") for _, s in sections if "id" in s}
    first_group: dict[str, tuple[Path, Any]] = {}
    for group_path, group in entries(site, "sectionGroups", site_path):
        listed = group.get("sections")
        if is_absent(group) or not isinstance(listed, list):
            continue
        title = group.get("title", group.get("id"))
        here: dict[str, Path] = {}
        for index, item in enumerate(listed):
            if not isinstance(item, str):
                continue  # the model reports the type
            path: Path = (*group_path, "sections", index)
            section = pinned.get(item) or item
            if section in here:
                message = (
                    f"section {item!r} is listed twice in this group (first at "
                    f"{ctx.where(here[section])}): the API refuses it; keep one"
                )
                ctx.report(path, message)
                continue
            here[section] = path
            first, named = first_group.setdefault(section, (path, title))
            if first[:-2] != group_path:
                message = (
                    f"section {item!r} is in group {title!r} and in group {named!r} (at "
                    f"{ctx.where(first)}): a section is in one group at most; remove it from one"
                )
                ctx.report(path, message)


def _link_places(ctx: CheckContext, site: dict[str, Any], site_path: Path) -> None:
    """A link's `group` names a group the site writes, and its `after` an item of the link's
    level (a root section or group, or a section of its group): checked when the site writes
    them (else `plan` checks them against the live site)."""
    groups = {
        text(g, "title") or text(g, "id"): g
        for _, g in entries(site, "sectionGroups", site_path)
        if not is_absent(g)
    }
    held = {
        s
        for g in groups.values()
        if isinstance(g.get("sections"), list)
        for s in g["sections"]
        if isinstance(s, str)
    }
    sections = [text(s, "title") for _, s in entries(site, "sections", site_path)]
    for path, link in entries(site, "externalLinks", site_path):
        group, after = text(link, "group"), text(link, "after")
        if is_absent(link):
            continue
        if group is not None and site.get("sectionGroups") is not None and group not in groups:
            hint = did_you_mean(group, [g for g in groups if g])
            ctx.report((*path, "group"), f"{group!r} names no section group of this site{hint}")
            continue
        if after is None or site.get("sections") is None:
            continue
        if group is None:
            level = [s for s in sections if s and s not in held] + [g for g in groups if g]
            where = "root section or group"
        elif isinstance(groups.get(group, {}).get("sections"), list):
            level = [s for s in groups[group]["sections"] if isinstance(s, str)]
            where = f"section of group {group!r}"
        else:
            continue
        if after not in level:
            hint = did_you_mean(after, level)
            ctx.report((*path, "after"), f"{after!r} names no {where} of this site{hint}")


def _section_paths(ctx: CheckContext, site: dict[str, Any], site_path: Path) -> None:
    """A path is one section's within its site: the API refuses it for a second one."""
    seen: dict[str, Path] = {}
    for path, section in entries(site, "sections", site_path):
        written = text(section, "path")
        if written is None or is_absent(section):
            continue
        first = seen.setdefault(written, path)
        if first != path:
            message = (
                f"path {written!r} is also the path of the section at {ctx.where(first)}: a "
                "path is one section's within its site; write another one"
            )
            ctx.report((*path, "path"), message)


def _one_default(ctx: CheckContext, container: Any, name: str, base: Path, what: str) -> None:
    first: Path | None = None
    for path, entry in entries(container, name, base):
        if entry.get("default") is True and not is_absent(entry):
            if first is None:
                first = path
                continue
            message = f"only one {what} can be the default; the first is at {ctx.where(first)}"
            ctx.report((*path, "default"), message)


def _check_team_members(ctx: CheckContext, team_path: Path, team: dict[str, Any]) -> None:
    members = team.get("members")
    if not isinstance(members, list):
        return
    seen: dict[str, Path] = {}
    for index, item in enumerate(members):
        user = item.get("user") if isinstance(item, dict) else item
        if not isinstance(user, str) or not user:
            continue
        path = (*team_path, "members", index)
        first = seen.setdefault(user.lower(), path)
        if first != path:
            shown = ctx.show(path, user)
            ctx.report(path, f"{shown} is listed twice in this team; first at {ctx.where(first)}")

"""A site's structure as a picture: the navigation tree before (as read) and after (as the
manifest writes it) for each site whose structure the plan changes, so that a reviewer sees
the navigation instead of reading moves (the Markdown plan draws it, docsync.render.markdown).

The trees are drawn from the live structure read and the manifest entry alone, not from the
planner's actions: the picture is an independent account of what the actions amount to."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from docsync.core.context import PlanContext
from docsync.core.model import Action
from docsync.core.state import LiveResource, LiveState

_DEFAULT = "  (default)"


@dataclass
class SiteStructure:
    site: str
    before: list[str]
    after: list[str]


def _space_line(indent: int, path: Any, space: str, default: bool) -> str:
    mark = _DEFAULT if default else ""
    return f"{' ' * indent}/{path} -> {space}{mark}"


def _section_line(indent: int, title: str, path: Any, default: bool) -> str:
    where = f"  /{path}" if path else ""
    return f"{' ' * indent}section {_quote(title)}{where}{_DEFAULT if default else ''}"


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _group_line(title: Any) -> str:
    return f"  group {_quote(str(title))}"


def _link_line(title: Any, url: Any) -> str:
    return f"  link {_quote(str(title))} -> {url}"


def _is_link(item: dict[str, Any]) -> bool:
    return item.get("object") == "site-external-link"


def _live_links(site: LiveResource | None) -> list[tuple[str, list[str]]]:
    """The live root links as picture lines, each with the titles of the root items before it,
    nearest first (the picture keeps an unwritten link after the nearest one that stays)."""
    structure = (site.raw.get("_structure") or {}) if site else {}
    if structure.get("type") == "siteSpaces":
        return []
    before: list[str] = []
    links: list[tuple[str, list[str]]] = []
    for item in structure.get("structure") or []:
        if _is_link(item):
            links.append((_link_line(item.get("title"), item.get("url")), before[::-1]))
        else:
            before.append(str(item.get("title")))
    return links


# -- before: the one structure read --------------------------------------------------------------
def _live_space(item: dict[str, Any], indent: int, live: LiveState) -> str:
    space = item.get("space") or {}
    space_id = space.get("id") if isinstance(space, dict) else space
    name = live.address_of("space", space_id) or f"space#{space_id}"
    return _space_line(indent, item.get("path"), name, bool(item.get("default")))


def _live_section(item: dict[str, Any], indent: int, live: LiveState) -> list[str]:
    lines = [
        _section_line(indent, str(item.get("title")), item.get("path"), bool(item.get("default")))
    ]
    lines += [_live_space(s, indent + 2, live) for s in item.get("siteSpaces") or []]
    return lines


def live_tree(site: LiveResource | None, live: LiveState) -> list[str]:
    if site is None:
        return []
    structure = site.raw.get("_structure") or {}
    items = structure.get("structure") or []
    lines = [site.address]
    if structure.get("type") == "siteSpaces":
        return lines + [_live_space(item, 2, live) for item in items]
    for item in items:
        if _is_link(item):
            lines.append(_link_line(item.get("title"), item.get("url")))
        elif item.get("object") == "site-section-group":
            lines.append(_group_line(item.get("title")))
            for section in item.get("sections") or item.get("children") or []:
                lines += _live_section(section, 4, live)
        else:
            lines += _live_section(item, 2, live)
    return lines


# -- after: the manifest entry ---------------------------------------------------------------
def _resolve_space(ctx: PlanContext, ref: Any) -> str:
    hits = ctx.desired.named.get(("space", str(ref)), ())
    if hits:
        return sorted(hits)[0]
    by_id = ctx.live.by_id.get(("space", str(ref)))
    named = ctx.live.named.get(("space", str(ref)), [])
    if by_id is not None:
        return by_id.address
    return named[0].address if named else f"space {ref!r}"


def _pick_default(entries: list[Any], names: list[str], live_default: str | None) -> Any:
    """The entry named `default`, else the live default if it stays, else the first (the API
    makes a level's first item its default)."""
    explicit = next((e for e in entries if e.default), None)
    if explicit is not None:
        return explicit
    kept = next((e for e, n in zip(entries, names, strict=True) if n == live_default), None)
    return kept if kept is not None else (entries[0] if entries else None)


def _desired_spaces(
    ctx: PlanContext, entries: list[Any], indent: int, live_default: str | None
) -> list[str]:
    present = [e for e in entries if e.state != "absent"]
    names = [str(e.path or e.space) for e in present]
    chosen = _pick_default(present, names, live_default)
    return [
        _space_line(indent, e.path or e.space, _resolve_space(ctx, e.space or e.id), e is chosen)
        for e in present
    ]


@dataclass
class LiveDefaults:
    """Which item of each level is the default now: what stays default unless one is named."""

    root: str | None = None  # a section title, or a root site space path
    spaces: dict[str, str] | None = None  # section title -> site space path

    @classmethod
    def read(cls, site: LiveResource | None) -> LiveDefaults:
        structure = (site.raw.get("_structure") or {}) if site else {}
        items = structure.get("structure") or []
        flat: list[dict[str, Any]] = []
        for item in items:
            nested = item.get("sections") or item.get("children")
            flat += nested if item.get("object") == "site-section-group" and nested else [item]
        key = "path" if structure.get("type") == "siteSpaces" else "title"
        root = next((str(i.get(key)) for i in flat if i.get("default")), None)
        spaces = {
            str(i.get("title")): str(s.get("path"))
            for i in flat
            for s in i.get("siteSpaces") or []
            if s.get("default")
        }
        return cls(root, spaces)


def desired_tree(
    ctx: PlanContext,
    site_address: str,
    entry: Any,
    before: list[str],
    now: LiveDefaults,
    live_links: list[tuple[str, list[str]]],
) -> list[str]:
    """The tree the manifest asks for; levels it does not write stay as they are (None)."""
    if entry.sections is None and entry.siteSpaces is None:
        return [site_address, *before[1:]]
    lines = [site_address]
    if entry.siteSpaces is not None and entry.sections is None:
        return lines + _desired_spaces(ctx, entry.siteSpaces, 2, now.root)
    sections = [s for s in entry.sections or [] if s.state != "absent"]
    titles = [str(s.title or s.id) for s in sections]
    default = _pick_default(sections, titles, now.root)
    group_of: dict[str, str] = {}
    groups = [g for g in entry.sectionGroups or [] if g.state != "absent"]
    for group in groups:
        for member in group.sections or []:
            group_of[str(member)] = str(group.title)
    drawn: set[str] = set()
    blocks: list[tuple[str, list[str]]] = []  # root items: title, lines
    for section in sections:
        title = str(section.title or section.id)
        group = group_of.get(title) or group_of.get(str(section.id))
        if group is not None:
            if group not in drawn:
                drawn.add(group)
                block = [_group_line(group)]
                members = [
                    s
                    for s in sections
                    if group_of.get(str(s.title or s.id)) == group
                    or group_of.get(str(s.id)) == group
                ]
                for member in members:
                    block += _desired_section(ctx, member, 4, member is default, now)
                blocks.append((group, block))
            continue
        blocks.append((title, _desired_section(ctx, section, 2, section is default, now)))
    blocks += [(str(g.title), [_group_line(g.title)]) for g in groups if str(g.title) not in drawn]
    present = {title for title, _ in blocks}
    return lines + _with_links(blocks, _desired_links(entry, live_links, present))


def _desired_links(
    entry: Any, live_links: list[tuple[str, list[str]]], titles: set[str]
) -> list[tuple[str, Any]]:
    """The links as written (first without `after`, else after the root item named), or the
    live ones where they are when the entry does not write `externalLinks`."""
    if entry.externalLinks is None:
        return [
            (line, next((t for t in before if t in titles), None)) for line, before in live_links
        ]
    return [
        (_link_line(link.title, link.url), link.after)
        for link in entry.externalLinks
        if link.state != "absent"
    ]


def _with_links(blocks: list[tuple[str, list[str]]], links: list[tuple[str, Any]]) -> list[str]:
    lines = [line for line, after in links if after is None]
    for title, block in blocks:
        lines += block + [line for line, after in links if after == title]
    return lines


def _desired_section(
    ctx: PlanContext, section: Any, indent: int, default: bool, now: LiveDefaults
) -> list[str]:
    title = str(section.title or section.id)
    lines = [_section_line(indent, title, section.path, default)]
    live_default = (now.spaces or {}).get(title)
    return lines + _desired_spaces(ctx, section.siteSpaces or [], indent + 2, live_default)


# -- which sites ---------------------------------------------------------------------------------
_STRUCTURE = ("section", "section_group", "site_space", "external_link")


def changed_sites(actions: list[Action]) -> list[str]:
    """Sites whose structure the plan changes: an action on one of its parts, or a reorder."""
    sites: list[str] = []
    for action in actions:
        if action.kind in _STRUCTURE or (action.kind == "site" and action.verb == "reorder"):
            site = action.address.split("].", 1)[0] + "]" if "]." in action.address else None
            site = site or action.address
            if site not in sites:
                sites.append(site)
    return sites


def site_structures(ctx: PlanContext, actions: list[Action]) -> list[SiteStructure]:
    wanted = changed_sites(actions)
    out = []
    for desired in ctx.desired.by_kind.get("site", []):
        if desired.address not in wanted or desired.absent or desired.entry is None:
            continue
        live_id = ctx.known_ids.get(desired.address)
        site_live = ctx.live.by_id.get(("site", live_id)) if live_id else None
        before = live_tree(site_live, ctx.live)
        if before:
            before[0] = desired.address  # a site renamed through its id keeps its picture
        now = LiveDefaults.read(site_live)
        links = _live_links(site_live)
        after = desired_tree(ctx, desired.address, desired.entry, before, now, links)
        if before != after:
            out.append(SiteStructure(desired.address, before, after))
    return out

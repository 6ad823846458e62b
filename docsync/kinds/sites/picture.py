"""A site's structure as a picture: the navigation tree before (as read) and after (as the
manifest writes it) for each site whose structure the plan changes, so that a reviewer sees
the navigation instead of reading moves: the site kind's `pictures`, which the renderers ask
for once the plan is made (`docsync.render.pictures`).

The trees are drawn from the live structure read and the manifest entry alone, not from the
planner's actions: the picture is an independent account of what the actions amount to. Both
walk the kinds the catalogue nests under a site, each drawing its own lines (`picture`), so a
new nested kind shows without a line here."""

from __future__ import annotations

from typing import Any

from docsync.core.context import PlanContext
from docsync.core.model import Action, Picture
from docsync.core.state import LiveResource, LiveState
from docsync.kinds.kind import Kinds
from docsync.kinds.nested.kind import NestedKind, every_nested_kind, nested_kinds

_DEFAULT = "  (default)"

#: the items above a level, by key (the root: ()) -> the key of its default item now
Defaults = dict[tuple[str, ...], str]


def _line(indent: int, text: str, default: bool) -> str:
    return f"{' ' * indent}{text}{_DEFAULT if default else ''}"


def _held(kind: NestedKind) -> list[tuple[str, NestedKind]]:
    """The fields by which an item holds siblings (a group's `sections`), with their kind."""
    found = []
    for field in kind.fields:
        if field.ref_sibling and field.ref:
            held = kind.kinds.named(field.ref)
            assert isinstance(held, NestedKind), f"{field.ref} is not a kind nested under a site"
            found.append((field.name, held))
    return found


def _root_items(site: LiveResource | None, kinds: Kinds) -> list[tuple[dict[str, Any], NestedKind]]:
    """The root items of a site's structure read, each with the kind that reads it."""
    structure = (site.raw.get("_structure") or {}) if site else {}
    layout = "siteSpaces" if structure.get("type") == "siteSpaces" else "sections"
    level = nested_kinds(kinds, "site")
    leader = next(k for k in level if k.leads and k.layout == layout)
    by_pointer = {k.pointer_type: k for k in level}
    items = structure.get("structure") or []
    return [(item, by_pointer.get(item.get("object"), leader)) for item in items]


def _inside(item: dict[str, Any], kind: NestedKind) -> list[tuple[dict[str, Any], NestedKind]]:
    """The items an item of the structure read holds (same level), then those nested in it."""
    inside = [
        (member, held)
        for name, held in _held(kind)
        for member in item.get(name) or item.get("children") or []
    ]
    nested = [
        (sub, inner)
        for inner in nested_kinds(kind.kinds, kind.name)
        for sub in item.get(inner.section) or []
    ]
    return inside + nested


# -- before: the one structure read --------------------------------------------------------------
def _live_item(item: dict[str, Any], kind: NestedKind, indent: int, live: LiveState) -> list[str]:
    read = kind.to_live(item, "", live)
    lines = [_line(indent, kind.picture(read.key, read.fields), bool(read.fields.get("default")))]
    for inner_item, inner in _inside(item, kind):
        lines += _live_item(inner_item, inner, indent + 2, live)
    return lines


def live_tree(site: LiveResource | None, live: LiveState, kinds: Kinds) -> list[str]:
    if site is None:
        return []
    lines = [site.address]
    for item, kind in _root_items(site, kinds):
        lines += _live_item(item, kind, 2, live)
    return lines


def live_defaults(site: LiveResource | None, kinds: Kinds) -> Defaults:
    """Which item of each level is the default now: what stays default unless one is named.
    Held items (a group's sections) stand in their holder's level."""
    found: Defaults = {}

    def walk(item: dict[str, Any], kind: NestedKind, level: tuple[str, ...]) -> None:
        key = str(item.get(kind.key_field))
        if item.get("default"):
            found.setdefault(level, key)
        for name, held in _held(kind):
            for member in item.get(name) or item.get("children") or []:
                walk(member, held, level)
        for inner in nested_kinds(kind.kinds, kind.name):
            for sub in item.get(inner.section) or []:
                walk(sub, inner, (*level, key))

    for item, kind in _root_items(site, kinds):
        walk(item, kind, ())
    return found


# -- after: the manifest entry ---------------------------------------------------------------
def _present(kind: NestedKind, entries: list[Any] | None) -> list[tuple[Any, str]]:
    return [(e, kind.entry_key(e)) for e in entries or [] if e.state != "absent"]


def _pick_default(kind: NestedKind, items: list[tuple[Any, str]], live_default: str | None) -> Any:
    """The entry named `default`, else the live default if it stays, else the first (the API
    makes a level's first item its default); None for a kind without defaults."""
    if "default" not in {f.name for f in kind.fields}:
        return None
    explicit = next((e for e, _ in items if e.default), None)
    if explicit is not None:
        return explicit
    kept = next((e for e, key in items if key == live_default), None)
    return kept if kept is not None else (items[0][0] if items else None)


def _desired_item(
    ctx: PlanContext,
    kind: NestedKind,
    item: tuple[Any, str],
    indent: int,
    default: bool,
    level: tuple[str, ...],
    now: Defaults,
) -> list[str]:
    entry, key = item
    lines = [_line(indent, kind.picture(key, kind.picture_fields(entry, ctx)), default)]
    for inner in nested_kinds(kind.kinds, kind.name):
        items = _present(inner, getattr(entry, inner.section, None))
        below = (*level, key)
        chosen = _pick_default(inner, items, now.get(below))
        for one in items:
            lines += _desired_item(ctx, inner, one, indent + 2, one[0] is chosen, below, now)
    return lines


def desired_tree(
    ctx: PlanContext,
    site_address: str,
    entry: Any,
    before: list[str],
    site: LiveResource | None,
    kinds: Kinds,
) -> list[str]:
    """The tree the manifest asks for; levels it does not write stay as they are. The root:
    the leading kind's items in the order written (with the kinds nested in them), a held one
    (a group's section) inside its holder, drawn where the first it holds stands, holders that
    hold none last, and around them the kinds that place themselves (links, by `after`)."""
    level = nested_kinds(kinds, "site")
    leader = next((k for k in level if k.leads and getattr(entry, k.section) is not None), None)
    if leader is None:
        return [site_address, *before[1:]]
    now = live_defaults(site, kinds)
    items = _present(leader, getattr(entry, leader.section))
    default = _pick_default(leader, items, now.get(()))
    among = [k for k in level if k is not leader and k.layout in (None, leader.layout)]
    holders = [(k, name) for k in among for name, held in _held(k) if held is leader]
    holder_of: dict[str, tuple[NestedKind, Any, str]] = {}
    for kind, name in holders:
        for holder, holder_key in _present(kind, getattr(entry, kind.section)):
            for member in getattr(holder, name) or []:
                holder_of[str(member)] = (kind, holder, holder_key)

    drawn: set[str] = set()
    blocks: list[tuple[str, list[str]]] = []  # root items: key, lines
    for item in items:
        held_by = holder_of.get(item[1]) or holder_of.get(str(item[0].id))
        if held_by is None:
            own = _desired_item(ctx, leader, item, 2, item[0] is default, (), now)
            blocks.append((item[1], own))
            continue
        kind, holder, holder_key = held_by
        if holder_key in drawn:
            continue
        drawn.add(holder_key)
        block = [_line(2, kind.picture(holder_key, kind.picture_fields(holder, ctx)), False)]
        for member in items:
            by_key, by_id = holder_of.get(member[1]), holder_of.get(str(member[0].id))
            if holder_key in (_key(by_key), _key(by_id)):
                block += _desired_item(ctx, leader, member, 4, member[0] is default, (), now)
        blocks.append((holder_key, block))
    for kind, _ in holders:
        for holder, holder_key in _present(kind, getattr(entry, kind.section)):
            if holder_key not in drawn:
                line = _line(2, kind.picture(holder_key, kind.picture_fields(holder, ctx)), False)
                blocks.append((holder_key, [line]))
    keys = [key for key, _ in blocks]
    holding = {k for k, _ in holders}
    placed = [
        (_line(2, text, False), after)
        for k in among
        if k not in holding
        for text, after in k.picture_placed(entry, keys, site, ctx)
    ]
    return [site_address, *_placed_among(blocks, placed)]


def _key(found: tuple[NestedKind, Any, str] | None) -> str | None:
    return found[2] if found else None


def _placed_among(blocks: list[tuple[str, list[str]]], placed: list[tuple[str, Any]]) -> list[str]:
    """The root's blocks with the lines placed by a rule of their own (a link's `after`)."""
    lines = [line for line, after in placed if after is None]
    for key, block in blocks:
        lines += block + [line for line, after in placed if after == key]
    return lines


# -- which sites ---------------------------------------------------------------------------------
def changed_sites(actions: list[Action], kinds: Kinds) -> list[str]:
    """Sites whose structure the plan changes: an action on one of its parts, or a reorder."""
    structure = {k.name for k in every_nested_kind(kinds)}
    sites: list[str] = []
    for action in actions:
        if action.kind in structure or (action.kind == "site" and action.verb == "reorder"):
            site = action.address.split("].", 1)[0] + "]" if "]." in action.address else None
            site = site or action.address
            if site not in sites:
                sites.append(site)
    return sites


def site_structures(ctx: PlanContext, actions: list[Action], kinds: Kinds) -> list[Picture]:
    wanted = changed_sites(actions, kinds)
    out = []
    for desired in ctx.desired.by_kind.get("site", []):
        if desired.address not in wanted or desired.absent or desired.entry is None:
            continue
        live_id = ctx.known_ids.get(desired.address)
        site_live = ctx.live.by_id.get(("site", live_id)) if live_id else None
        before = live_tree(site_live, ctx.live, kinds)
        if before:
            before[0] = desired.address  # a site renamed through its id keeps its picture
        after = desired_tree(ctx, desired.address, desired.entry, before, site_live, kinds)
        if before != after:
            out.append(Picture(desired.address, before, after))
    return out

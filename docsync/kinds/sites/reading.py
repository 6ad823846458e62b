"""What a plan reads of sites: the list, then for each site an entry manages only what the
entry writes (its structure, which gives sections, groups and site spaces in one read; its
adaptive schema; each of its parts an entry writes, `sites.parts`), all at once, and for export
everything of every site. Each answer is checked for what the site's parts rely on in it
(`answers`)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from docsync.api.answers import Lazy, Obj, Opt, Shape
from docsync.api.errors import NotFound
from docsync.core.concurrent import gather_all
from docsync.core.entries import was_names
from docsync.kinds.kind import Kind, Kinds
from docsync.kinds.nested.answers import structure_shape
from docsync.kinds.nested.kind import nested_kinds
from docsync.kinds.nested.parts import send_under
from docsync.kinds.requests import Reading, unless_hidden
from docsync.kinds.sites.parts import child_parts, site_parts
from docsync.kinds.sites.wrapper import read_unwrapped

if TYPE_CHECKING:
    from docsync.api import ApiClient

#: what a site's structure is called where the API hid it from the token's role
STRUCTURE = "structure"
#: a site's adaptive schema as the API answers it
SCHEMA = Obj({"jsonSchema": Opt(Obj({}))})


def site_answers(site: Kind) -> dict[str, Shape]:
    """What a site's structure read (its route `structure`) relies on in its answer: made of
    the kinds in the site kind's catalogue, once it is in one (`Kind.answers`)."""
    return {"structure": Lazy(lambda: structure_shape(site.kinds))}


def manages_structure(entry: Any, kinds: Kinds) -> bool:
    """Whether a site entry writes one of the lists of its structure."""
    return any(getattr(entry, kind.section) is not None for kind in nested_kinds(kinds, "site"))


async def read_site_parts(
    read: Reading,
    list_path: str,
    sites: list[dict[str, Any]],
    grants: Awaitable[None],
    site_kind: Kind,
) -> None:
    """Into each site's item, what its entry manages (everything, for export); `grants` is the
    grants' read, run with the rest (the first failure stops them all)."""
    api, kinds, schema = read.api, site_kind.kinds, site_kind.route("adaptive schema")
    reads: list[Awaitable[None]] = []
    if read.everything:  # export: everything about every site
        for every in sites:
            base = f"{list_path}/{every['id']}"
            reads.append(_read_tree(api, every, base, None, site_kind, every_part=True))
            reads.append(_read(every, "_schema", send_under(api, schema, base)))
            reads += [part.fetch(api, every, base) for part in site_parts(kinds)]
    trees: set[str] = set()
    kept: set[str] = set()
    for entry in read.entries or ():
        site = _site_of(entry, sites)
        if site is None or entry.state == "absent":
            continue
        kept.add(site["id"])
        base = f"{list_path}/{site['id']}"
        under = any(part.reads(entry) for part in child_parts(kinds))
        parts = [part for part in site_parts(kinds) if part.reads(entry)]
        if manages_structure(entry, kinds) or under or any(p.reads_structure for p in parts):
            # The structure gives the names parts refer to (redirects' sections), and the ids
            # of the children whose parts are read (a site space's override).
            root = _root_site_spaces_only(entry, kinds)
            tree = _read_tree(api, site, base, entry if under else None, site_kind, adopts=root)
            reads.append(unless_hidden(site, STRUCTURE, tree))
            trees.add(site["id"])
        reads += [unless_hidden(site, p.section, p.fetch(api, site, base)) for p in parts]
        if "adaptiveSchema" in entry.model_fields_set:
            reads.append(_read(site, "_schema", send_under(api, schema, base)))
    for doomed in _deleted(read, sites, kept):
        # A delete names what goes with the site: its structure and every part of it.
        base = f"{list_path}/{doomed['id']}"
        reads.append(_read_tree(api, doomed, base, None, site_kind))
        reads += [
            unless_hidden(doomed, p.section, p.fetch(api, doomed, base)) for p in site_parts(kinds)
        ]
        trees.add(doomed["id"])
    if "space" in read.deleting:
        # A site space that publishes a space the plan deletes holds it (`core.graph`): the
        # API deletes the space and leaves the site publishing nothing there.
        for other in (s for s in sites if s["id"] not in trees):
            reads.append(_read_tree(api, other, f"{list_path}/{other['id']}", None, site_kind))
    reads.append(grants)
    await gather_all(*reads)


def _root_site_spaces_only(entry: Any, kinds: Kinds) -> bool:
    """Whether a site entry writes its site spaces at the root and no other structure list
    (the layout production wraps in a section of its own)."""
    written = [k for k in nested_kinds(kinds, "site") if getattr(entry, k.section) is not None]
    return len(written) == 1 and written[0].leads and written[0].layout == "siteSpaces"


def _site_of(entry: Any, sites: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A pinned entry is its id's site, even when another site has its (new) title; else the
    site with its title, or the one it renames (`was:`)."""
    if entry.id:
        return next((s for s in sites if s["id"] == entry.id), None)
    return next((s for s in sites if s["title"] == entry.title), None) or next(
        (s for s in sites if s["title"] in was_names(entry)), None
    )


def _deleted(read: Reading, sites: list[dict[str, Any]], kept: set[str]) -> list[dict[str, Any]]:
    """The sites a plan may delete: those written `state: absent`, and, when sites are pruned,
    every one no entry keeps (prune's patterns decide while planning)."""
    if read.everything:
        return []
    absent = [
        found
        for entry in read.entries or ()
        if entry.state == "absent" and (found := _site_of(entry, sites)) is not None
    ]
    if "site" in read.pruned:
        absent += [s for s in sites if s["id"] not in kept]
    return list({s["id"]: s for s in absent}.values())


async def _read_tree(
    api: ApiClient,
    site: dict[str, Any],
    base: str,
    entry: Any,
    site_kind: Kind,
    *,
    every_part: bool = False,
    adopts: bool = False,
) -> None:
    """The structure, then the parts of its children that the site `entry` writes (a site
    space's override), or every child's part (export: `every_part`). `adopts`: the entry
    writes only root site spaces, which production keeps in its wrapper section (`wrapper`)."""
    await _read(site, "_structure", send_under(api, site_kind.route("structure"), base))
    if adopts:
        read_unwrapped(site)
    if entry is not None or every_part:
        parts = child_parts(site_kind.kinds)
        await gather_all(*(part.fetch(api, site, base, entry) for part in parts))


async def _read(site: dict[str, Any], slot: str, read: Awaitable[Any]) -> None:
    try:
        found = await read
    except NotFound:
        found = None
    if slot == "_schema" and isinstance(found, dict):
        found = found.get("jsonSchema")
    site[slot] = found

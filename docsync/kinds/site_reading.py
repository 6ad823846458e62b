"""What a plan reads of sites: the list, then for each site an entry manages only what the
entry writes (its structure, which gives sections, groups and site spaces in one read; its
adaptive schema; each of its parts an entry writes, `site_part`), all at once, and for export
everything of every site. Each answer is checked for what the site's parts rely on in it
(`answers`)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from docsync.api.answers import Lazy, Obj, Opt, Shape
from docsync.api.errors import NotFound
from docsync.core.concurrent import gather_all
from docsync.core.entries import was_names
from docsync.kinds.customization_tree import ANSWER as CUSTOMIZATION
from docsync.kinds.nested import nested_kinds
from docsync.kinds.site_answers import structure_shape
from docsync.kinds.site_mcp_servers import ANSWER as MCP_SERVER
from docsync.kinds.site_part import site_parts
from docsync.kinds.site_publishing_auth import ANSWER as PUBLISHING_AUTH
from docsync.kinds.site_redirects import ANSWER as REDIRECT
from docsync.kinds.site_share_links import ANSWER as SHARE_LINK
from docsync.kinds.site_space_reading import (
    read_every_override,
    read_overrides,
    written_overrides,
)

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.core.loaded import ManifestDoc

#: a site's adaptive schema as the API answers it
SCHEMA = Obj({"jsonSchema": Opt(Obj({}))})


def part_answers(site_path: str) -> dict[str, Shape]:
    """What the site's parts read under `site_path` and rely on in each answer."""
    return {
        f"{site_path}/structure": Lazy(structure_shape),
        f"{site_path}/adaptive-schema": SCHEMA,
        f"{site_path}/redirects": REDIRECT,
        f"{site_path}/share-links": SHARE_LINK,
        f"{site_path}/publishing/auth": PUBLISHING_AUTH,
        f"{site_path}/customization": CUSTOMIZATION,
        f"{site_path}/agent-settings": CUSTOMIZATION,  # an object, as a customization
        f"{site_path}/mcp-servers": MCP_SERVER,
        f"{site_path}/site-spaces/{{id}}/customization": CUSTOMIZATION,
    }


def manages_structure(entry: Any) -> bool:
    """Whether a site entry writes one of the lists of its structure."""
    return any(getattr(entry, kind.section) is not None for kind in nested_kinds("site"))


def deletes_spaces(manifest: ManifestDoc) -> bool:
    """Whether the manifest deletes a space (spaces are never pruned: only `state: absent`)."""
    return any(e.state == "absent" for e in manifest.spaces or ())


async def read_site_parts(
    api: ApiClient,
    list_path: str,
    sites: list[dict[str, Any]],
    manifest: ManifestDoc | None,
    grants: Awaitable[None],
) -> None:
    """Into each site's item, what its entry manages (everything, without a manifest);
    `grants` is the grants' read, run with the rest (the first failure stops them all)."""
    reads: list[Awaitable[None]] = []
    if manifest is None:  # export: everything about every site
        for every in sites:
            base = f"{list_path}/{every['id']}"
            reads.append(_read_tree(api, every, base, None, all_overrides=True))
            reads.append(_read(api, every, "_schema", f"{base}/adaptive-schema", SCHEMA))
            reads += [part.read(api, every, base) for part in site_parts()]
    trees: set[str] = set()
    for entry in manifest.sites if manifest else []:
        if entry.state == "absent":
            continue
        # A pinned entry is its id's site, even when another site has its (new) title; else
        # the site with its title, or the one it renames (`was:`).
        site = (
            next((s for s in sites if s["id"] == entry.id), None)
            if entry.id
            else next((s for s in sites if s["title"] == entry.title), None)
            or next((s for s in sites if s["title"] in was_names(entry)), None)
        )
        if site is None:
            continue
        base = f"{list_path}/{site['id']}"
        overrides = written_overrides(entry)
        parts = [part for part in site_parts() if part.written(entry)]
        if manages_structure(entry) or any(part.needs_structure(entry) for part in parts):
            # The structure gives the names parts refer to (redirects' sections), and the ids
            # of the site spaces whose overrides are read.
            reads.append(_read_tree(api, site, base, entry if overrides else None))
            trees.add(site["id"])
        reads += [part.read(api, site, base) for part in parts]
        if "adaptiveSchema" in entry.model_fields_set:
            reads.append(_read(api, site, "_schema", f"{base}/adaptive-schema", SCHEMA))
    if manifest is not None and deletes_spaces(manifest):
        # A site space that publishes a space the plan deletes holds it (`core.graph`): the
        # API deletes the space and leaves the site publishing nothing there.
        for other in (s for s in sites if s["id"] not in trees):
            reads.append(_read_tree(api, other, f"{list_path}/{other['id']}", None))
    reads.append(grants)
    await gather_all(*reads)


async def _read_tree(
    api: ApiClient,
    site: dict[str, Any],
    base: str,
    overrides_of: Any,
    *,
    all_overrides: bool = False,
) -> None:
    """The structure, then the overrides of the site spaces `overrides_of` (a site entry)
    writes, or of every site space when None (export)."""
    await _read(api, site, "_structure", f"{base}/structure", structure_shape())
    if overrides_of is not None:
        await read_overrides(api, site, base, overrides_of)
    elif all_overrides:
        await read_every_override(api, site, base)


async def _read(api: ApiClient, site: dict[str, Any], slot: str, path: str, shape: Shape) -> None:
    try:
        found = await api.get(path, shape=shape)
    except NotFound:
        found = None
    if slot == "_schema" and isinstance(found, dict):
        found = found.get("jsonSchema")
    site[slot] = found

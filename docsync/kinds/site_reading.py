"""What a plan reads of sites: the list, then for each site an entry manages only what the
entry writes (its structure, which gives sections, groups and site spaces in one read; its
adaptive schema; each of its parts an entry writes, `site_part`), and for export everything of
every site."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from docsync.api.errors import NotFound
from docsync.kinds.nested import nested_kinds
from docsync.kinds.site_part import site_parts
from docsync.kinds.site_space_customization import (
    every_override_read,
    read_overrides,
    written_overrides,
)

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.core.loaded import ManifestDoc


def manages_structure(entry: Any) -> bool:
    """Whether a site entry writes one of the lists of its structure."""
    return any(getattr(entry, kind.section) is not None for kind in nested_kinds("site"))


def deletes_spaces(manifest: ManifestDoc) -> bool:
    """Whether the manifest deletes a space (spaces are never pruned: only `state: absent`)."""
    return any(e.state == "absent" for e in manifest.spaces or ())


async def read_sites(
    api: ApiClient, sites: list[dict[str, Any]], list_path: str, manifest: ManifestDoc | None
) -> None:
    """Into each site's item, what its entry manages (everything, without a manifest)."""
    reads = []
    if manifest is None:  # export: everything about every site
        for every in sites:
            base = f"{list_path}/{every['id']}"
            reads.append(_read_tree(api, every, base, None, all_overrides=True))
            reads.append(_read(api, every, "_schema", f"{base}/adaptive-schema"))
            reads += [part.read(api, every, base) for part in site_parts()]
    trees: set[str] = set()
    for entry in manifest.sites if manifest else []:
        if entry.state == "absent":
            continue
        # A pinned entry is its id's site, even when another site has its (new) title.
        site = next(
            (s for s in sites if (s["id"] == entry.id if entry.id else s["title"] == entry.title)),
            None,
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
            reads.append(_read(api, site, "_schema", f"{base}/adaptive-schema"))
    if manifest is not None and deletes_spaces(manifest):
        # A site space that publishes a space the plan deletes holds it (`core.graph`): the
        # API deletes the space and leaves the site publishing nothing there.
        for other in (s for s in sites if s["id"] not in trees):
            reads.append(_read_tree(api, other, f"{list_path}/{other['id']}", None))
    await asyncio.gather(*reads)


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
    await _read(api, site, "_structure", f"{base}/structure")
    if overrides_of is not None:
        await read_overrides(api, site, base, overrides_of)
    elif all_overrides:
        await asyncio.gather(*every_override_read(api, site, base))


async def _read(api: ApiClient, site: dict[str, Any], slot: str, path: str) -> None:
    try:
        found = await api.get(path)
    except NotFound:
        found = None
    if slot == "_schema" and isinstance(found, dict):
        found = found.get("jsonSchema")
    site[slot] = found

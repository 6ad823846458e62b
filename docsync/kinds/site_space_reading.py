"""Which site spaces' customization a plan reads, and reading it: a site space's override is
read (as the effective settings the API answers) only where a manifest writes one, every one
for export; each site space of the site's structure read carries what was read of it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docsync.core.concurrent import gather_all
from docsync.kinds.customization_tree import ANSWER

if TYPE_CHECKING:
    from docsync.api import ApiClient


async def read(api: ApiClient, item: dict[str, Any], site_path: str) -> dict[str, Any]:
    """A site space's effective customization (`item` is its entry of the structure read)."""
    found: dict[str, Any] = await api.get(
        f"{site_path}/site-spaces/{item['id']}/customization", shape=ANSWER
    )
    return found


def _keep(structure: Any, found: dict[str, dict[str, Any]]) -> None:
    """Each site space of the structure read carries its customization, wherever it shows (a
    group's `sections` and its `children` are two copies of one section)."""
    if isinstance(structure, list):
        for inner in structure:
            _keep(inner, found)
    elif isinstance(structure, dict):
        if structure.get("object") == "site-space" and str(structure.get("id")) in found:
            structure["_customization"] = found[str(structure["id"])]
        for value in structure.values():
            if isinstance(value, list | dict):
                _keep(value, found)


def written_overrides(entry: Any) -> list[tuple[str | None, Any]]:
    """(section title or None at the root, site space entry) of every site space entry of a
    site entry that writes `customization`."""
    found: list[tuple[str | None, Any]] = []
    for section in entry.sections or []:
        found += [(section.title, s) for s in section.siteSpaces or []]
    found += [(None, s) for s in entry.siteSpaces or []]
    return [(t, s) for t, s in found if "customization" in s.model_fields_set]


def _is(item: dict[str, Any], entry: Any) -> bool:
    if entry.path is not None:
        return bool(item.get("path") == entry.path)
    space = item.get("space")
    names = (space.get("id"), space.get("title")) if isinstance(space, dict) else (space,)
    return entry.space is not None and str(entry.space) in names


#: what the structure read calls sections and groups
_SECTION, _GROUP = "site-section", "site-section-group"


def _levels(structure: dict[str, Any]) -> list[tuple[str | None, list[dict[str, Any]]]]:
    """(section title or None at the root, its site spaces) of a structure read, each item
    where the live tree reads it (`kinds.site_shape`): a group's sections from its `children`,
    which the API also lists as `sections`, and a group's groups within it."""
    items = structure.get("structure") or []
    if structure.get("type") == "siteSpaces":
        return [(None, items)]
    levels: list[tuple[str | None, list[dict[str, Any]]]] = []

    def walk(level: list[dict[str, Any]]) -> None:
        for item in level:
            held = item.get("children") if "children" in item else item.get("sections")
            if item.get("object") == _GROUP or ("siteSpaces" not in item and held is not None):
                walk(held or [])
            elif item.get("object", _SECTION) == _SECTION:
                levels.append((item.get("title"), item.get("siteSpaces") or []))

    walk(items)
    return levels


async def _read_into(
    api: ApiClient, site: dict[str, Any], site_path: str, items: list[dict[str, Any]]
) -> None:
    found = await gather_all(*(read(api, item, site_path) for item in items))
    ids = [str(item["id"]) for item in items]
    _keep(site.get("_structure"), dict(zip(ids, found, strict=True)))


async def read_overrides(api: ApiClient, site: dict[str, Any], site_path: str, entry: Any) -> None:
    """The effective customization of the live site spaces the entry's overrides are about
    (their ids from the site's structure read, already in `site["_structure"]`)."""
    wanted = written_overrides(entry)
    chosen = [
        item
        for title, level in _levels(site.get("_structure") or {})
        for item in level
        if any(t == title and _is(item, e) for t, e in wanted)
    ]
    await _read_into(api, site, site_path, chosen)


async def read_every_override(api: ApiClient, site: dict[str, Any], site_path: str) -> None:
    """Export: every site space's."""
    every = [item for _title, level in _levels(site.get("_structure") or {}) for item in level]
    await _read_into(api, site, site_path, every)

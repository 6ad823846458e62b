"""A site's child found again after a create whose outcome is unknown (5xx, dropped
connection): what the server made, if anything, in one structure read, so the apply adopts it
instead of making a duplicate (`AppliedChild.post_once`). A child is new when its id is none the
apply already knows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from docsync.kinds.sites.wrapper import wrapped

Item = dict[str, Any]


def sections_of(structure: Any) -> Iterator[Item]:
    """Every section of a structure read, grouped or not."""
    for item in _items(structure):
        if item.get("object") == "site-section-group":
            for inner in item.get("sections") or item.get("children") or []:
                if isinstance(inner, dict) and _is_section(inner):
                    yield inner
        elif _is_section(item):
            yield item


def groups_of(structure: Any) -> Iterator[Item]:
    return (i for i in _items(structure) if i.get("object") == "site-section-group")


def site_spaces_in(structure: Any, section_id: str | None) -> list[Item]:
    """The site spaces of one section, or of the root when `section_id` is None (in a site
    whose root is production's wrapper section, that section's: `wrapper.wrapped`)."""
    if section_id is None:
        if isinstance(structure, dict) and structure.get("type") == "siteSpaces":
            return list(_items(structure))
        held = wrapped(structure)
        return [s for s in (held or {}).get("siteSpaces") or [] if isinstance(s, dict)]
    for section in sections_of(structure):
        if str(section.get("id")) == section_id:
            return [s for s in section.get("siteSpaces") or [] if isinstance(s, dict)]
    return []


def space_id(site_space: Item) -> str | None:
    space = site_space.get("space")
    value = space.get("id") if isinstance(space, dict) else space
    return str(value) if value is not None else None


def new_section(structure: Any, body: Item, known: set[str]) -> Item | None:
    """A section the apply does not know yet, with the title (else first space) it asked for."""
    for section in reversed(list(sections_of(structure))):
        if str(section.get("id")) in known:
            continue
        if "title" in body:
            if section.get("title") == body["title"]:
                return section
            continue
        first = [s for s in section.get("siteSpaces") or [] if isinstance(s, dict)]
        if first and space_id(first[0]) == str(body.get("spaceId")):
            return section
    return None


def new_site_space(structure: Any, body: Item, known: set[str]) -> Item | None:
    """A site space the apply does not know yet, publishing the space it asked for, where it
    asked (the path is the API's choice: the apply sets the wanted one next)."""
    section = body.get("sectionId")
    for item in reversed(site_spaces_in(structure, str(section) if section else None)):
        if str(item.get("id")) not in known and space_id(item) == str(body.get("spaceId")):
            return item
    return None


def new_group(structure: Any, body: Item, known: set[str]) -> Item | None:
    """A section group the apply does not know yet, with the title it asked for."""
    for group in reversed(list(groups_of(structure))):
        if str(group.get("id")) not in known and group.get("title") == body.get("title"):
            return group
    return None


def new_link(structure: Any, body: Item, known: set[str]) -> Item | None:
    """An external link the apply does not know yet, with the title it asked for, at the root
    or in the group it asked for."""
    items = list(_items(structure))
    if body.get("parent"):
        group = next((g for g in groups_of(structure) if g.get("id") == body["parent"]), {})
        items = [i for i in group.get("children") or [] if isinstance(i, dict)]
    for item in reversed(items):
        is_link = item.get("object") == "site-external-link"
        if is_link and str(item.get("id")) not in known and item.get("title") == body["title"]:
            return item
    return None


def _items(structure: Any) -> Iterator[Item]:
    items = structure.get("structure") if isinstance(structure, dict) else None
    return (i for i in items or [] if isinstance(i, dict))


def _is_section(item: Item) -> bool:
    return bool(item.get("object", "site-section") == "site-section")

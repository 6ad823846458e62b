"""Where a site's redirects send readers, by the names a manifest uses: a live destination
read back as a section's title or a site space's path, a written one resolved to the ids it
names (as placeholders of the addresses it plans under), and what `validate` can tell of them
without the API."""

from __future__ import annotations

from dataclasses import dataclass
from difflib import get_close_matches
from typing import Any

from docsync.core.context import PlanContext, ref
from docsync.core.model import address
from docsync.core.paths import Path
from docsync.core.state import DesiredResource, LiveResource, LiveState


def live_destination(found: dict[str, Any], live: LiveState) -> dict[str, Any]:
    """A live destination by the names a manifest uses; one whose section or site space is gone
    keeps its ids (no manifest writes those, so it is rewritten or deleted)."""
    kind = found.get("kind")
    if kind == "external":
        return {"url": found.get("url")}
    if kind == "site-section":
        section = live.by_id.get(("section", str(found.get("siteSectionId"))))
        if section is not None:
            return {"section": section.key}
    elif kind in ("site-space", "site-page"):
        site_space = live.by_id.get(("site_space", str(found.get("siteSpaceId"))))
        if site_space is not None:
            parent = live.by_address.get(site_space.parent or "")
            named: dict[str, Any] = {}
            if parent is not None and parent.kind == "section":
                named["section"] = parent.key
            named["siteSpace"] = site_space.key
            if kind == "site-page":
                named["page"] = found.get("pageId")
            return named
    return {k: v for k, v in found.items() if k != "kind"} | {"kind": kind}


@dataclass
class _Places:
    """Where a site's destinations can point: section titles and site space paths (by section
    title, None for the root) with the addresses they plan under."""

    site: str
    sections: dict[str, str]
    spaces: dict[str | None, dict[str, str]]


def written_places(desired: DesiredResource) -> _Places:
    sections: dict[str, str] = {}
    spaces: dict[str | None, dict[str, str]] = {None: {}}
    for section in desired.written("sections") or []:
        if section.state == "absent" or section.title is None:
            continue
        own = address("section", section.title, desired.address)
        sections[section.title] = own
        spaces[section.title] = {
            s.path: address("site_space", s.path, own)
            for s in section.siteSpaces or []
            if s.state != "absent" and s.path is not None
        }
    for s in desired.written("siteSpaces") or []:
        if s.state != "absent" and s.path is not None:
            spaces[None][s.path] = address("site_space", s.path, desired.address)
    return _Places(desired.address, sections, spaces)


def live_places(site: LiveResource, live: LiveState) -> _Places:
    sections: dict[str, str] = {}
    spaces: dict[str | None, dict[str, str]] = {None: {}}
    for resource in live.by_kind["section"]:
        if resource.parent == site.address:
            sections[resource.key] = resource.address
    titles = {own: title for title, own in sections.items()}
    for resource in live.by_kind["site_space"]:
        if resource.parent == site.address:
            spaces[None][resource.key] = resource.address
        elif resource.parent in titles:
            spaces.setdefault(titles[resource.parent], {})[resource.key] = resource.address
    return _Places(site.address, sections, spaces)


def _hint(name: str, names: list[str], offline: bool = False) -> str:
    """A "did you mean" for a name not found, in the words of validate (offline) or plan."""
    close = get_close_matches(name, names, n=1)
    if not close:
        return ""
    return f"; did you mean {close[0]!r}?" if offline else f" (did you mean {close[0]!r}?)"


def target(
    destination: Any, places: _Places, path: Path, ctx: PlanContext
) -> dict[str, Any] | None:
    """The wire destination, ids as placeholders of the addresses it names (so the action
    waits for their creates); None after a located problem."""
    if destination.url is not None:
        return {"kind": "external", "url": destination.url}
    section = destination.section
    if section is not None and section not in places.sections:
        message = f"no section {section!r} in {places.site}{_hint(section, list(places.sections))}"
        ctx.problem((*path, "section"), message)
        return None
    if destination.siteSpace is None:
        return {"kind": "site-section", "siteSectionId": ref(places.sections[section])}
    level = places.spaces.get(section, {})
    if destination.siteSpace not in level:
        where = f"section {section!r} of {places.site}" if section else f"the root of {places.site}"
        hint = _hint(destination.siteSpace, list(level))
        ctx.problem(
            (*path, "siteSpace"), f"no site space {destination.siteSpace!r} in {where}{hint}"
        )
        return None
    target = ref(level[destination.siteSpace])
    if destination.page is not None:
        return {"kind": "site-page", "siteSpaceId": target, "pageId": destination.page}
    return {"kind": "site-space", "siteSpaceId": target}


# -- offline checks --------------------------------------------------------------------------


def redirect_problems(site: dict[str, Any], site_path: Path) -> list[tuple[Path, str]]:
    """What `validate` can tell without the API of a site's destinations: a section or site
    space the site's written structure does not have (a source written twice is the generic
    check's, as for every keyed list)."""
    redirects = site.get("redirects")
    if not isinstance(redirects, list):
        return []
    # Raw entries, checked before their model: a title of the wrong type is the model's error.
    listed = site.get("sections")
    sections = {
        s.get("title"): s
        for s in (listed if isinstance(listed, list) else [])
        if isinstance(s, dict)
        and s.get("state") != "absent"
        and isinstance(s.get("title"), (str, type(None)))
    }
    problems: list[tuple[Path, str]] = []
    for index, item in enumerate(redirects):
        if not isinstance(item, dict):
            continue
        path: Path = (*site_path, "redirects", index)
        destination = item.get("destination")
        if isinstance(destination, dict):
            problems += _destination_problems(site, sections, destination, (*path, "destination"))
    return problems


def _destination_problems(
    site: dict[str, Any], sections: dict[Any, Any], destination: dict[str, Any], path: Path
) -> list[tuple[Path, str]]:
    section, space = destination.get("section"), destination.get("siteSpace")
    written = isinstance(site.get("sections"), list)
    if isinstance(section, str) and written and section not in sections:
        names = [str(name) for name in sections if isinstance(name, str)]
        hint = _hint(section, names, offline=True)
        return [((*path, "section"), f"{section!r} names no section of this site{hint}")]
    if not isinstance(space, str):
        return []
    if isinstance(section, str):
        level = sections.get(section, {}).get("siteSpaces") if section in sections else None
    else:
        level = site.get("siteSpaces")
    if not isinstance(level, list):
        return []  # not written: only the live site can tell
    paths = [str(s.get("path")) for s in level if isinstance(s, dict) and s.get("path")]
    if space in paths:
        return []
    where = f"section {section!r}" if isinstance(section, str) else "this site's root"
    message = f"{space!r} names no site space of {where}{_hint(space, paths, offline=True)}"
    return [((*path, "siteSpace"), message)]

"""A site's redirects: read as one list per site, compared as a list keyed by `source`, and
written by one action per site through the bulk upsert, 500 items a request, a delete being an
item with `destination: null` (production's `intent: live`). Used by the site kind."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import get_close_matches
from typing import TYPE_CHECKING, Any

from pydantic import Field as Limits
from pydantic import field_validator, model_validator

from docsync.api.errors import ApiError
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.entries import PATTERN_MESSAGES, Model, Ref, Uri, explained
from docsync.core.model import Action, FieldChange, address
from docsync.core.nullability import NullChecked
from docsync.core.payloads import OnSite
from docsync.core.state import DesiredResource, LiveResource, LiveState

if TYPE_CHECKING:
    pass

Path = tuple[str | int, ...]

#: production's SiteRedirectSourcePath without its look-aheads, which say the same thing: a
#: `*` only at the very end, never right after the first `/`
SOURCE_PATTERN = explained(
    r"^/(?:[A-Za-z0-9._~+-]|%[0-9A-Fa-f]{2})+(?:/(?:[A-Za-z0-9._~+-]|%[0-9A-Fa-f]{2})+)*(?:/\*|\*)?$",
    "must be a path like '/old-guides' or '/old-guides/*': segments of letters, digits, "
    "'-._~+' or %XX escapes, and at most one '*', at the end",
)
#: items of one bulk upsert (production's maximum)
BULK = 500


class Destination(NullChecked, Model):
    """Where a redirect sends readers: `{url}`, `{section}`, `{siteSpace}` (a site space of the
    site's root, by path), `{section, siteSpace}`, or one of those two with `page` (a page id)."""

    url: Uri | None = None
    section: Ref | None = None
    """A section of the same site, by title."""
    siteSpace: Ref | None = None
    """A site space by path: in `section`, or at the site's root without it."""
    page: Ref | None = None
    """A page id in that site space."""

    @model_validator(mode="after")
    def _one_target(self) -> Destination:
        if self.url is not None and (self.section or self.siteSpace or self.page):
            raise ValueError("a destination is either a `url` or a place in the site, not both")
        if self.url is None and self.section is None and self.siteSpace is None:
            raise ValueError("a destination needs `url`, `section` or `siteSpace`")
        if self.page is not None and self.siteSpace is None:
            raise ValueError("`page` is a page of a site space: write `siteSpace` too")
        return self


class RedirectEntry(NullChecked, Model):
    """One redirect rule of a site, keyed by `source`; the whole rule is managed (`permanent`
    and `captureWildcard` are false unless written)."""

    source: str = Limits(max_length=512, json_schema_extra={"pattern": SOURCE_PATTERN})
    destination: Destination
    permanent: bool = False
    """Served as 308 (public live traffic) instead of 307."""
    captureWildcard: bool = False
    """Appends what the `*` of the source matched to the destination."""

    @field_validator("source")
    @classmethod
    def _source_path(cls, value: str) -> str:
        if not re.match(SOURCE_PATTERN, value):
            raise ValueError(f"{value!r} {PATTERN_MESSAGES[SOURCE_PATTERN]}")
        return value


@dataclass
class Redirects(OnSite):
    """A site's redirects to write: bulk upsert items (ids as `$ref` placeholders) and the
    sources to delete."""

    upserts: list[dict[str, Any]] | None = None
    deletes: list[str] | None = None

    @property
    def requests(self) -> int:
        items = len(self.upserts or []) + len(self.deletes or [])
        return -(-items // BULK)


# -- reading ---------------------------------------------------------------------------------


def live_redirects(site: LiveResource, live: LiveState) -> list[dict[str, Any]] | None:
    """The site's redirects in manifest shape, by source; None when they were not read."""
    raw = site.raw.get("_redirects")
    if raw is None:
        return None
    items = [
        {
            "source": str(item["source"]),
            "destination": _live_destination(item.get("destination") or {}, live),
            "permanent": bool(item.get("permanent")),
            "captureWildcard": bool(item.get("captureWildcard")),
        }
        for item in raw
    ]
    return sorted(items, key=lambda item: item["source"])


def _live_destination(found: dict[str, Any], live: LiveState) -> dict[str, Any]:
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


# -- planning --------------------------------------------------------------------------------


@dataclass
class _Places:
    """Where a site's destinations can point: section titles and site space paths (by section
    title, None for the root) with the addresses they plan under."""

    site: str
    sections: dict[str, str]
    spaces: dict[str | None, dict[str, str]]


def _written_places(desired: DesiredResource) -> _Places:
    entry = desired.entry
    sections: dict[str, str] = {}
    spaces: dict[str | None, dict[str, str]] = {None: {}}
    for section in entry.sections or []:
        if section.state == "absent" or section.title is None:
            continue
        own = address("section", section.title, desired.address)
        sections[section.title] = own
        spaces[section.title] = {
            s.path: address("site_space", s.path, own)
            for s in section.siteSpaces or []
            if s.state != "absent" and s.path is not None
        }
    for s in entry.siteSpaces or []:
        if s.state != "absent" and s.path is not None:
            spaces[None][s.path] = address("site_space", s.path, desired.address)
    return _Places(desired.address, sections, spaces)


def _live_places(site: LiveResource, live: LiveState) -> _Places:
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


def _target(
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


def plan_redirects(
    desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
) -> Action | None:
    """One update of the site's redirects when the written list differs from the live one: the
    changed and new ones upserted, the live ones not written deleted (the list is exact)."""
    written = desired.entry.redirects
    if written is None:
        return None
    manages_tree = any(
        getattr(desired.entry, name) is not None for name in ("sections", "siteSpaces")
    )
    if manages_tree or live is None:
        places = _written_places(desired)
    else:
        places = _live_places(live, ctx.live)
    before = (live_redirects(live, ctx.live) if live is not None else None) or []
    by_source = {item["source"]: item for item in before}
    after: list[dict[str, Any]] = []
    upserts: list[dict[str, Any]] = []
    base: Path = (*desired.path, "redirects")
    for index, item in enumerate(written):
        wire = _target(item.destination, places, (*base, index, "destination"), ctx)
        if wire is None:
            continue
        shape = {
            "source": item.source,
            "destination": item.destination.model_dump(exclude_none=True),
            "permanent": item.permanent,
            "captureWildcard": item.captureWildcard,
        }
        after.append(shape)
        if by_source.get(item.source) != shape:
            upserts.append(
                {
                    "source": item.source,
                    "destination": wire,
                    "permanent": item.permanent,
                    "captureWildcard": item.captureWildcard,
                }
            )
    wanted = {item["source"] for item in after}
    deletes = sorted(source for source in by_source if source not in wanted)
    if not upserts and not deletes:
        return None
    after.sort(key=lambda item: item["source"])
    action = Action(
        "update",
        desired.kind,
        f"{desired.address}.redirects",
        [FieldChange("redirects", before, after, sensitive=ctx.sensitive(base))],
        ctx.where(base),
        payload=Redirects(ref(desired.address), upserts, deletes),
    )
    if deletes:
        action.notes.append(
            f"deletes {len(deletes)} redirect(s) the manifest does not list (the list is exact)"
        )
    return ctx.add(action)


# -- applying --------------------------------------------------------------------------------


async def write_redirects(payload: Redirects, site_path: str, run: RunContext) -> None:
    """Upserts and deletes through the bulk upsert, 500 items a request; an item the API
    refuses fails the action with its message (the others of its request are applied)."""
    items: list[dict[str, Any]] = list(run.resolve(payload.upserts or []))
    items += [{"source": source, "destination": None} for source in payload.deletes or []]
    path = f"{site_path}/redirects"
    for start in range(0, len(items), BULK):
        answer = await run.api.write("PUT", path, {"redirects": items[start : start + BULK]})
        results = answer.get("results", []) if isinstance(answer, dict) else []
        refused = [r for r in results if isinstance(r, dict) and r.get("status") == "error"]
        if refused:
            shown = "; ".join(f"{r.get('source')}: {r.get('error')}" for r in refused[:5])
            more = f" (and {len(refused) - 5} more)" if len(refused) > 5 else ""
            raise ApiError("PUT", path, 200, f"redirects refused: {shown}{more}")


# -- exporting -------------------------------------------------------------------------------


def export_redirects(site: LiveResource, live: LiveState) -> list[dict[str, Any]] | None:
    """The site's redirects as a manifest writes them (defaults left out). A redirect whose
    section or site space is gone cannot be written by name and is left out."""
    items = live_redirects(site, live)
    if items is None:
        return None
    out = []
    for item in items:
        if "kind" in item["destination"]:
            continue
        entry = {"source": item["source"], "destination": item["destination"]}
        entry |= {flag: True for flag in ("permanent", "captureWildcard") if item[flag]}
        out.append(entry)
    return out


# -- offline checks --------------------------------------------------------------------------


def redirect_problems(site: dict[str, Any], site_path: Path) -> list[tuple[Path, str]]:
    """What `validate` can tell without the API: duplicate sources, and destinations naming a
    section or site space the site's written structure does not have."""
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
    seen: dict[str, int] = {}
    for index, item in enumerate(redirects):
        if not isinstance(item, dict):
            continue
        path: Path = (*site_path, "redirects", index)
        source = item.get("source")
        if isinstance(source, str):
            if source in seen:
                message = (
                    f"source {source!r} is also at redirects[{seen[source]}]: one rule a source"
                )
                problems.append(((*path, "source"), message))
            seen.setdefault(source, index)
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

"""A site space's customization override: `customization:` on a site space entry. The fields
written override the site's customization for that site space; `null` on a field unsets its
override (the site's value shows again); `customization: null` removes the whole override. Used
by the site kind, after the site's structure is planned.

Production's GET answers the *effective* settings (the site's, with the override on top), not the
override alone: a written field is compared with what readers see, a field written `null` with the
site's value, and `customization: null` plans a change only where the site space looks different
from its site. The PATCH takes fields down to production's override units (`styling.primaryColor`
is one value there): writing `styling.primaryColor.light` sends the whole colour, its other mode
as it is now.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field as Limits

from docsync.core.concurrent import gather_all
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.entries import was_names
from docsync.core.model import Action, leaf_change
from docsync.core.nullability import NULL
from docsync.core.paths import value_at
from docsync.core.payloads import Ref
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.declaration import Declaration
from docsync.kinds.nested.parts import ChildPart, OnSite, at_site, send_under
from docsync.kinds.partial import (
    ANSWER,
    Setting,
    live_customization,
    managed,
    merged,
    report_incomplete,
)
from docsync.kinds.presentation.groups import (
    OverrideAnnouncement,
    OverrideExternalLinks,
    OverrideFlag,
    OverrideFooter,
    OverrideHeader,
    OverrideInternationalization,
    OverrideThemes,
    OverrideUrl,
)
from docsync.kinds.presentation.override_units import body, overrides, unit_of
from docsync.kinds.presentation.styling import OverrideStyling
from docsync.kinds.presentation.values import Favicon, Localized128
from docsync.kinds.requests import Route, Routes, Writes

if TYPE_CHECKING:
    from docsync.api import ApiClient


# Which site spaces' customization a plan reads, and reading it: a site space's override is
# read (as the effective settings the API answers) only where a manifest writes one, every one
# for export; each site space of the site's structure read carries what was read of it.
async def read(api: ApiClient, item: dict[str, Any], site_path: str) -> dict[str, Any]:
    """A site space's effective customization (`item` is its entry of the structure read)."""
    found: dict[str, Any] = await send_under(api, _EFFECTIVE, site_path, id=item["id"])
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


#: the titles a live section may have for a section entry (its title and what `was:` names),
#: or None for the site's root
Titles = frozenset[str] | None


def _site_spaces(entry: Any) -> list[tuple[Titles, Any]]:
    """(the section's titles or None at the root, site space entry) of every site space entry
    of a site entry."""
    found: list[tuple[Titles, Any]] = []
    for section in entry.sections or []:
        titles = frozenset({section.title} | was_names(section))
        found += [(titles, s) for s in section.siteSpaces or []]
    return found + [(None, s) for s in entry.siteSpaces or []]


def written_overrides(entry: Any) -> list[tuple[Titles, Any]]:
    """(the section's titles or None at the root, site space entry) of every site space entry
    of a site entry that writes `customization`."""
    return [(t, s) for t, s in _site_spaces(entry) if "customization" in s.model_fields_set]


def _under(titles: Titles, title: str | None) -> bool:
    """Whether a site space entry is at the level of the live section titled `title` (None:
    the root): a section renamed with `was:` holds its live site spaces under its old title."""
    return titles is None if title is None else titles is not None and title in titles


def _publishes(item: dict[str, Any], entry: Any) -> bool:
    space = item.get("space")
    names = (space.get("id"), space.get("title")) if isinstance(space, dict) else (space,)
    return entry.space is not None and str(entry.space) in names


def _is(item: dict[str, Any], entry: Any) -> bool:
    if entry.path is not None:
        return bool(item.get("path") == entry.path)
    return _publishes(item, entry)


#: what the structure read calls sections and groups
_SECTION, _GROUP = "site-section", "site-section-group"


def _levels(structure: dict[str, Any]) -> list[tuple[str | None, list[dict[str, Any]]]]:
    """(section title or None at the root, its site spaces) of a structure read, each item
    where the live tree reads it (`sites.structure`): a group's sections from its `children`,
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
    (their ids from the site's structure read, already in `site["_structure"]`): the one with
    each entry's path, and, for an entry whose path no live site space has, those publishing
    its space that no entry's path takes, one of which the plan may match it to
    (`Declaration.matched_by`): its override was left in place, and the next plan removed it."""
    wanted = written_overrides(entry)
    chosen = []
    for title, level in _levels(site.get("_structure") or {}):
        here = [e for titles, e in wanted if _under(titles, title)]
        live = {item.get("path") for item in level}
        taken = {
            e.path
            for titles, e in _site_spaces(entry)
            if _under(titles, title) and e.path is not None
        }
        chosen += [
            item
            for item in level
            if any(_is(item, e) for e in here)
            or (
                item.get("path") not in taken
                and any(e.path not in live and _publishes(item, e) for e in here)
            )
        ]
    await _read_into(api, site, site_path, chosen)


async def read_every_override(api: ApiClient, site: dict[str, Any], site_path: str) -> None:
    """Export: every site space's."""
    every = [item for _title, level in _levels(site.get("_structure") or {}) for item in level]
    await _read_into(api, site, site_path, every)


class SiteSpaceOverride(Setting):
    """What a site space overrides of its site's customization, as production's
    `overrideSiteSpaceCustomizationById` takes it; `null` on a field unsets its override."""

    title: Annotated[str | None, NULL] = Limits(default=None, min_length=2, max_length=128)
    localizedTitle: Annotated[Localized128 | None, NULL] = None
    styling: OverrideStyling | None = None
    internationalization: OverrideInternationalization | None = None
    favicon: Annotated[Favicon | None, NULL] = None
    announcement: OverrideAnnouncement | None = None
    """Production takes no null here: write `enabled: false` to hide the site's."""
    header: OverrideHeader | None = None
    footer: OverrideFooter | None = None
    themes: OverrideThemes | None = None
    feedback: OverrideFlag | None = None
    externalLinks: OverrideExternalLinks | None = None
    pagination: OverrideFlag | None = None
    trademark: OverrideFlag | None = None
    privacyPolicy: OverrideUrl | None = None
    socialPreview: OverrideUrl | None = None


@dataclass
class SpaceCustomization(OnSite):
    """A site space's override: the written fields to set (`{dotted path: value}`, None unsets
    that unit's override), or `remove` for `customization: null`."""

    site_space: Ref = None
    fields: dict[str, Any] = field(default_factory=dict)
    remove: bool = False


def _effective(live: LiveResource | None) -> dict[str, Any] | None:
    found = live.raw.get("_customization") if live is not None else None
    return found if isinstance(found, dict) else None


def site_after(site: DesiredResource, live: LiveResource | None) -> dict[str, Any]:
    """The site's customization once this plan is applied (what a site space inherits)."""
    now = live_customization(live) or {}
    written = site.written("customization")
    if written is None:
        return now
    return merged(now, {".".join(p): v for p, v in managed(written).items()})


# -- planning --------------------------------------------------------------------------------


def plan_space_customization(
    site: DesiredResource,
    site_live: LiveResource | None,
    space: DesiredResource,
    space_live: LiveResource | None,
    ctx: PlanContext,
) -> Action | None:
    """One update per site space whose override changes: each changed field at its path
    (`site_space["latest"].customization.styling.theme`), after the site space exists."""
    if space.absent or not space.writes("customization"):
        return None
    inherited = site_after(site, site_live)
    effective = _effective(space_live)
    # what the site space shows is known when read, or for a new one, its live site's
    known = effective is not None or live_customization(site_live) is not None
    if effective is None:  # a new site space shows its site's settings
        effective = inherited
    base = (*space.path, "customization")
    written = space.written("customization")
    if written is None:
        changed = {path: value_at(inherited, path) for path in overrides(effective, inherited)}
        fields: dict[str, Any] = {}
    else:
        changed = {}
        wanted = managed(written)
        for path, value in wanted.items():
            unit = unit_of(path)
            if unit is None:
                ctx.problem(
                    (*base, *path),
                    f"`{'.'.join(path)}` cannot be overridden for a site space: production "
                    "overrides title, localizedTitle, favicon, announcement and the fields of "
                    "styling, internationalization, header, footer, themes, feedback, "
                    "externalLinks, pagination, trademark, privacyPolicy and socialPreview",
                )
                continue
            after = value if value is not None else value_at(inherited, path)
            if value_at(effective, path) != after:
                changed[path] = after
        fields = {".".join(p): wanted[p] for p in changed}
        if known and report_incomplete(
            written, effective, {p: wanted[p] for p in changed}, base, "site space", ctx
        ):
            return None
    if not changed:
        return None
    lines = [
        leaf_change(
            "customization",
            path,
            value_at(effective, path),
            value,
            sensitive=ctx.sensitive((*base, *path)),
        )
        for path, value in changed.items()
    ]
    action = Action(
        "update",
        "site",
        f"{space.address}.customization",
        lines,
        ctx.where(base),
        payload=SpaceCustomization(
            ref(site.address), ref(space.address), fields, remove=written is None
        ),
        depends_on=[a.key for a in ctx.actions_at[space.address] if a.verb != "delete"],
    )
    if written is None:
        action.takes_away("removes the site space's override: it shows its site's settings")
    return ctx.add(action)


# -- applying --------------------------------------------------------------------------------


async def write_space_customization(action: Action, run: RunContext) -> None:
    """`customization: null` deletes the override; otherwise one PATCH of the written units,
    built on the effective settings read now (a field below a unit keeps its siblings)."""
    payload, site_path = action.payload, at_site(action, run)
    assert isinstance(payload, SpaceCustomization)
    routes, own = _ROUTES.every(), run.resolve(payload.site_space)
    if payload.remove:
        await send_under(run.api, routes["delete"], site_path, id=own)
        return
    effective = await send_under(run.api, _EFFECTIVE, site_path, id=own)
    await send_under(run.api, routes["update"], site_path, body(effective, payload.fields), id=own)


# -- exporting -------------------------------------------------------------------------------


def export_space_customization(space: LiveResource, site: LiveResource) -> dict[str, Any] | None:
    """The units where the site space differs from its site (its override, as far as the API
    shows it)."""
    effective = _effective(space)
    if effective is None:
        return None
    out: dict[str, Any] = {}
    for path, value in overrides(effective, live_customization(site) or {}).items():
        out = merged(out, {".".join(path): value}) if value is not None else out
    return out or None


# -- the part's kind -------------------------------------------------------------------------

_ROUTES = Routes(
    "/v1/orgs/{org}/sites/{site}/site-spaces",
    item="/v1/orgs/{org}/sites/{site}/site-spaces/{id}/customization",
    more={"effective": Route("GET", "{item}", answer=ANSWER)},  # the site's with its override
)
_EFFECTIVE = _ROUTES.route("effective")

SPACE_CUSTOMIZATION = Declaration(
    "space_customization",
    "customization",
    "site space override",
    key="customization",
    parents=("site_space",),
    part=True,
    singleton=True,
    routes=_ROUTES,
    entry=SiteSpaceOverride,
    describe=(
        "Overrides of the site's customization for this site space; only the fields written are "
        "managed (`null` on one unsets its override); `customization: null` removes the override."
    ),
    nullable=True,
    writes=(Writes(),),  # a PATCH or a DELETE
)


class SpaceCustomizationKind(ChildPart):
    """Read after its site's structure, planned by the site with each of its site spaces,
    exported with each site space; carried out here."""

    declaration = SPACE_CUSTOMIZATION
    part_payload = SpaceCustomization

    def reads(self, entry: Any) -> bool:
        return bool(written_overrides(entry))

    async def fetch(
        self, api: ApiClient, site: dict[str, Any], site_path: str, entry: Any | None
    ) -> None:
        if entry is None:
            await read_every_override(api, site, site_path)
        else:
            await read_overrides(api, site, site_path, entry)

    def plan(
        self,
        site: DesiredResource,
        site_live: LiveResource | None,
        child: DesiredResource,
        child_live: LiveResource | None,
        ctx: PlanContext,
    ) -> Action | None:
        return plan_space_customization(site, site_live, child, child_live, ctx)

    def export(self, child: LiveResource, site: LiveResource) -> Any:
        return export_space_customization(child, site)

    async def execute(self, action: Action, run: RunContext) -> None:
        await write_space_customization(action, run)

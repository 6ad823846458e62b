"""What `validate` checks of a site entry beyond its model, before any request: one layout
(sections or root site spaces), the adaptive schema production accepts, and the integration its
publishing auth names (installed on it by the manifest); its parts check their own lists."""

from __future__ import annotations

from typing import Any

from docsync.core.checking import CheckView, Item, did_you_mean, is_absent, raw_entries, text
from docsync.core.paths import Path
from docsync.kinds.sites.adaptive_schema import check_adaptive_schema

#: the visibility whose sites sign visitors in (and so have publishing auth)
VISITOR_AUTH = "visitor-auth"
#: a site of root site spaces has no level where groups or links could stand
_NO_SECTIONS = (
    "a site with 'siteSpaces' at its root has no sections for '{0}' to stand among: write "
    "'sections' (each with its siteSpaces) instead, or leave '{0}' out"
)


def check_sites(view: CheckView, items: list[Item]) -> None:
    for site_path, site in items:
        if site.get("sections") is not None and site.get("siteSpaces") is not None:
            message = (
                "a site has either 'sections' (each with its siteSpaces) or 'siteSpaces' "
                "(a site without sections), not both"
            )
            view.report((*site_path, "siteSpaces"), message, key=True)
        elif site.get("siteSpaces") is not None:
            for among in ("sectionGroups", "externalLinks"):
                if site.get(among):
                    view.report((*site_path, among), _NO_SECTIONS.format(among), key=True)
        if isinstance(site.get("adaptiveSchema"), dict):
            schema_path = (*site_path, "adaptiveSchema")
            for path, message in check_adaptive_schema(site["adaptiveSchema"], schema_path):
                view.report(path, message, key=path != schema_path)
        check_auth_visibility(view, site_path, site)
        check_auth_integration(view, site_path, site)


def check_auth_visibility(view: CheckView, site_path: Path, site: dict[str, Any]) -> None:
    """`publishingAuth` on a site written with another visibility than visitor-auth, which the
    plan refuses whatever the live site is (a visibility not written is the live site's, which
    only `plan` knows)."""
    visibility = site.get("visibility")
    if site.get("publishingAuth") is None or visibility is None or visibility == VISITOR_AUTH:
        return
    shown = (
        visibility
        if isinstance(visibility, str)
        else view.show((*site_path, "visibility"), visibility)
    )
    view.report(
        (*site_path, "publishingAuth"),
        f"publishingAuth applies to visitor-auth sites, and this site is written {shown}: "
        "write `visibility: visitor-auth`, or leave publishingAuth out",
        key=True,
    )


def check_auth_integration(view: CheckView, site_path: Path, site: dict[str, Any]) -> None:
    """`publishingAuth.integration` names an integration the manifest installs on this site:
    production signs visitors in with the one installed there (its PATCH names none)."""
    auth = site.get("publishingAuth")
    name = text(auth, "integration") if isinstance(auth, dict) else None
    if auth is None or name is None:
        return
    path = (*site_path, "publishingAuth", "integration")
    if auth.get("backend") != "integration":
        backend = view.show((*site_path, "publishingAuth", "backend"), auth.get("backend"))
        view.report(
            path,
            f"'integration' goes with `backend: integration`, and this backend is {backend}: "
            "write `backend: integration`, or leave 'integration' out",
        )
        return
    installed = {
        text(entry, "name"): (where, entry)
        for where, entry in raw_entries(view.data, "integrations", ())
        if not is_absent(entry) and text(entry, "name")
    }
    if name not in installed:
        hint = did_you_mean(name, [n for n in installed if n])
        view.report(
            path,
            f"{name!r} names no integration this manifest installs: declare it under "
            f"'integrations' with this site in its 'sites'{hint}",
        )
        return
    where, entry = installed[name]
    title = text(site, "title")
    sites = entry.get("sites")
    if title is not None and isinstance(sites, dict) and title not in sites:
        at = view.where((*where, "sites"), key=True)
        view.report(
            path,
            f"integration {name!r} is not installed on site {title!r}: add {title!r} to its "
            f"'sites'" + (f" ({at})" if at else ""),
        )


def check_link_places(view: CheckView, items: list[Item], site: dict[str, Any]) -> None:
    """A link's `group` names a group the site writes, and its `after` an item of the
    link's level (a root section or group, or a section of its group): checked when the
    site writes them (else `plan` checks them against the live site)."""
    groups = {
        text(g, "title") or text(g, "id"): g
        for _, g in raw_entries(site, "sectionGroups", ())
        if not is_absent(g)
    }
    held = {
        s
        for g in groups.values()
        if isinstance(g.get("sections"), list)
        for s in g["sections"]
        if isinstance(s, str)
    }
    sections = [text(s, "title") for _, s in raw_entries(site, "sections", ())]
    for path, link in items:
        group, after = text(link, "group"), text(link, "after")
        if is_absent(link):
            continue
        if group is not None and site.get("sectionGroups") is not None and group not in groups:
            hint = did_you_mean(group, [g for g in groups if g])
            message = f"{group!r} names no section group of this site{hint}"
            view.report((*path, "group"), message)
            continue
        if after is None or site.get("sections") is None:
            continue
        if group is None:
            level = [s for s in sections if s and s not in held] + [g for g in groups if g]
            where = "root section or group"
        elif isinstance(groups.get(group, {}).get("sections"), list):
            level = [s for s in groups[group]["sections"] if isinstance(s, str)]
            where = f"section of group {group!r}"
        else:
            continue
        if after not in level:
            hint = did_you_mean(after, level)
            view.report((*path, "after"), f"{after!r} names no {where} of this site{hint}")

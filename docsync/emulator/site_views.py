"""Response shapes of sites, sections, section groups, site spaces and the site structure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from starlette.responses import Response

from docsync.emulator import git_sync
from docsync.emulator import site_tree as tree
from docsync.emulator.auth import Access, can
from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.http import Ctx, empty, ok
from docsync.emulator.store import Row
from docsync.emulator.views import space_view

Doc = dict[str, Any]


def segment(text: str) -> str:
    """One path segment of a published URL: a basename or path is any text (production's
    SiteSpacePath is a length only), percent-encoded so that the URL stays a URI."""
    return quote(text, safe="")


def published_url(ctx: Ctx, site: Row) -> str:
    """Where the site is (or would be) published: the emulator's `/published/<org>/<basename>`."""
    name = segment(str(site.data.get("basename") or site.id))
    return f"{str(ctx.request.base_url).rstrip('/')}/published/{site.org}/{name}"


def site_views(ctx: Ctx, sites: Sequence[Row]) -> list[Doc]:
    """`site_view` of many sites, their site spaces counted in one batch read."""
    counts = ctx.tx.count_in_sites(tree.SITE_SPACE, [s.id for s in sites], alive="space")
    return [site_view(ctx, site, counts.get(site.id, 0)) for site in sites]


def site_view(ctx: Ctx, site: Row, site_spaces: int | None = None) -> Doc:
    """A `Site` with the caller's permissions; `proxy` reads back as `{origin, target}`."""
    data = site.data
    if site_spaces is None:
        site_spaces = len(tree.all_site_spaces(ctx.tx, site))
    content = can(ctx.member, Access.CONTENT)
    admin = can(ctx.member, Access.CONTENT_ADMIN)
    urls: Doc = {
        "location": ctx.url(f"/orgs/{site.org}/sites/{site.id}"),
        "app": ctx.app_url(f"/o/{site.org}/sites/{site.id}"),
        "preview": ctx.app_url(f"/o/{site.org}/sites/{site.id}/preview"),
    }
    if data.get("published"):
        urls["published"] = published_url(ctx, site)
    body: Doc = {
        "object": "site",
        "id": site.id,
        "type": data["type"],
        "appliedType": data["type"],
        "title": data["title"],
        "visibility": data["visibility"],
        "defaultLevel": data.get("defaultLevel", "inherit"),
        "published": bool(data.get("published")),
        "siteSpaces": site_spaces,
        "createdAt": data["createdAt"],
        "features": [],
        "urls": urls,
        "permissions": {
            "view": True,
            "access": True,
            "edit": ctx.role in ("admin", "create", "edit"),
            "create": content,
            "admin": admin,
            "installIntegration": admin,
            "viewAdaptiveSchema": True,
            "editAdaptiveSchema": content,
        },
    }
    if not ctx.production:
        body["agentsContext"] = data.get("agentsContext", "excluded")  # the description's only
    if data.get("basename") is not None:
        body["basename"] = data["basename"]
    if data.get("proxy"):
        # production reads the origin back as written: host and path, no scheme
        body["proxy"] = {"origin": data["proxy"], "target": published_url(ctx, site)}
    if data.get("adaptiveContent") is not None:
        body["adaptiveContent"] = data["adaptiveContent"]
    if data.get("styleguide"):
        body["styleguide"] = {"kind": "space", "space": data["styleguide"]}
    synced = git_sync.state(ctx.tx, site.id)
    if synced is not None:
        body["gitSync"] = synced  # its structure is its repository's gitbook-docs.yaml
    return body


def _join(base: str | None, path: str, is_default: bool) -> str | None:
    if base is None:
        return None
    return base if is_default else f"{base}/{segment(path)}"


def _urls(url: str | None) -> Doc:
    return {} if url is None else {"published": url}


def level_views(ctx: Ctx, site: Row, container: Row, base_url: str | None) -> list[Doc]:
    """The site spaces of one level (`container` = section or site) with their `default` flag."""
    level = tree.level_spaces(ctx.tx, container.id)  # without site spaces of purged spaces
    container = tree.reload(ctx.tx, container)
    pointer = container.data.get("defaultSiteSpace")
    default = tree.pick_default(pointer, [row.id for row, _ in level])
    views: list[Doc] = []
    for row, space in level:
        body: Doc = {
            "object": "site-space",
            "id": row.id,
            "path": row.data["path"],
            "space": space_view(ctx, space),
            "title": row.data.get("title") or space.data["title"],
            "default": row.id == default,
            "draft": bool(row.data.get("draft")),
            "urls": _urls(_join(base_url, row.data["path"], row.id == default)),
        }
        if row.data.get("section"):
            body["section"] = row.data["section"]
        for key in ("condition", "pageId", "hidden"):
            if row.data.get(key) is not None:
                body[key] = row.data[key]
        if ctx.production:  # production answers it on every site space (issue 39)
            body.setdefault("hidden", False)
        views.append(body)
    return views


def _site_base(ctx: Ctx, site: Row) -> str | None:
    return published_url(ctx, site) if site.data.get("published") else None


def site_space_view(ctx: Ctx, site: Row, row: Row) -> Doc:
    """One `SiteSpace` (rendered with its level, to know whether it is the default)."""
    base = _site_base(ctx, site)
    container = ctx.tx.get_row(tree.SECTION, row.parent or "")
    if container is None:
        container = site
    else:
        is_default = container.id == tree.default_section(ctx.tx, site)
        base = _join(base, container.data["path"], is_default)
    found = [v for v in level_views(ctx, site, container, base) if v["id"] == row.id]
    if not found:
        raise not_found(f"Site space {row.id!r} not found: its space no longer exists")
    return found[0]


def site_spaces_views(ctx: Ctx, site: Row) -> list[Doc]:
    """Every `SiteSpace` of the site in structure order."""
    if not tree.has_sections(ctx.tx, site):
        return level_views(ctx, site, site, _site_base(ctx, site))
    return [ss for s in section_views(ctx, site) for ss in s["siteSpaces"]]


def section_view(ctx: Ctx, site: Row, row: Row, default: str | None = None) -> Doc:
    """A `SiteSection` embedding its site spaces."""
    default = default if default is not None else tree.default_section(ctx.tx, site)
    url = _join(_site_base(ctx, site), row.data["path"], row.id == default)
    body: Doc = {
        "object": "site-section",
        "id": row.id,
        "title": row.data["title"],
        "path": row.data["path"],
        "default": row.id == default,
        "draft": bool(row.data.get("draft")),
        "siteSpaces": level_views(ctx, site, row, url),
        "urls": _urls(url),
    }
    return _with_optional(ctx, site, row, body, SECTION_OPTIONAL)


SECTION_OPTIONAL = ("icon", "description", "condition", "localizedTitle", "localizedDescription")
GROUP_OPTIONAL = ("icon", "localizedTitle")


def _with_optional(ctx: Ctx, site: Row, row: Row, body: Doc, optional: Sequence[str]) -> Doc:
    """A section's or group's view with the optional fields it holds, and the group it is in.
    Production answers `localizedTitle` on every section and group, `{}` when it has no
    language (issue 39); the description's mode leaves it out until one is written."""
    for key in optional:
        if row.data.get(key) is not None:
            body[key] = row.data[key]
    if ctx.production:
        body.setdefault("localizedTitle", {})
    if row.parent != site.id:
        body["sectionGroup"] = row.parent
    return body


def section_views(ctx: Ctx, site: Row) -> list[Doc]:
    """Every `SiteSection` of the site in structure order."""
    tree.preload_levels(ctx.tx, site)
    default = tree.default_section(ctx.tx, site)
    return [section_view(ctx, site, row, default) for row in tree.sections(ctx.tx, site)]


def group_view(ctx: Ctx, site: Row, row: Row) -> Doc:
    """A `SiteSectionGroup`: its items in order as `children` (sections, links and nested
    groups), its own sections as `sections`."""
    children = _level_views(ctx, site, ctx.tx.rows(tree.GROUP_KINDS, parent=row.id))
    body: Doc = {
        "object": "site-section-group",
        "id": row.id,
        "title": row.data["title"],
        "draft": bool(row.data.get("draft")),
        "sections": [c for c in children if c["object"] == tree.SECTION],
        "children": children,
    }
    return _with_optional(ctx, site, row, body, GROUP_OPTIONAL)


def _level_views(ctx: Ctx, site: Row, rows: Sequence[Row]) -> list[Doc]:
    """The sections, groups and links of one level (the root, a group), in order."""
    default = tree.default_section(ctx.tx, site)
    return [
        section_view(ctx, site, row, default)
        if row.kind == tree.SECTION
        else group_view(ctx, site, row)
        if row.kind == tree.GROUP
        else link_view(row)
        for row in rows
    ]


def link_view(row: Row) -> Doc:
    """A `SiteExternalLink` (at the root: no `sectionGroup`)."""
    body: Doc = {
        "object": "site-external-link",
        "id": row.id,
        "title": row.data["title"],
        "url": row.data["url"],
        "draft": bool(row.data.get("draft")),
    }
    for key in ("description", "icon", "condition", "localizedTitle", "localizedDescription"):
        if row.data.get(key) is not None:
            body[key] = row.data[key]
    if row.parent != row.data["site"]:
        body["sectionGroup"] = row.parent
    return body


def item_view(ctx: Ctx, site: Row, row: Row) -> Doc:
    """A `SiteStructureItem` of any kind."""
    if row.kind == tree.LINK:
        return link_view(row)
    if row.kind == tree.SECTION:
        return section_view(ctx, site, row)
    if row.kind == tree.GROUP:
        return group_view(ctx, site, row)
    return site_space_view(ctx, site, row)


def structure_view(ctx: Ctx, site: Row) -> Doc:
    """A `SiteStructure`: `sections` (sections, groups and external links) or `siteSpaces`
    (root site spaces)."""
    tree.preload_levels(ctx.tx, site)
    if not tree.has_sections(ctx.tx, site):
        return {"type": "siteSpaces", "structure": site_spaces_views(ctx, site)}
    return {"type": "sections", "structure": _level_views(ctx, site, tree.root_items(ctx.tx, site))}


PREFERENCES = ("return=minimal", "return=representation")


def answer(ctx: Ctx, body: Doc, status: int = 200, location: str | None = None) -> Response:
    """`body`, or 204 without it when the request says `Prefer: return=minimal` (production);
    another `Prefer` than production's two is a 400 (nothing is written)."""
    prefer = ctx.request.headers.get("prefer")
    if prefer is not None and prefer.strip() not in PREFERENCES:
        raise bad_request(f"prefer: must be one of {', '.join(PREFERENCES)}; got {prefer[:80]!r}")
    if prefer is not None and prefer.strip() == "return=minimal":
        response = empty(204)
        response.headers["Preference-Applied"] = "return=minimal"
        if location:
            response.headers["Location"] = location
        return response
    headers = {"Location": location} if location else None
    return ok(body, status, headers)

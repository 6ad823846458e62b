"""Sites: list, create, get, update, delete, publish, unpublish, published profile (+ sub-routes).

The routes of sections, section groups, site spaces, structure and adaptive schema live in the
`sites_*` modules and are registered through this module's `routes`. Choices the API
description leaves open are documented in docs/emulator-sites.md.
"""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.errors import bad_request, conflict, not_found
from docsync.emulator.http import Ctx, api_route, created, empty, new_id, ok
from docsync.emulator.paging import paginate, query_bool
from docsync.emulator.refs import site_is_default_content
from docsync.emulator.routes import (
    sites_adaptive,
    sites_external_links,
    sites_groups,
    sites_sections,
    sites_spaces,
    sites_structure,
)
from docsync.emulator.routes import sites_tree as tree
from docsync.emulator.routes.sites_customization import (
    effective_customization,
    site_customization,
)
from docsync.emulator.routes.sites_views import site_view, site_views, structure_view
from docsync.emulator.store import Row
from docsync.emulator.validate import ROLES, Fields

SITE_TYPES = ("basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium")
VISIBILITIES = ("public", "unlisted", "share-link", "visitor-auth")
AGENTS_CONTEXT = ("excluded", "included")
PROXY_PATTERN = r"^([A-Za-z0-9_-]+[.])*[A-Za-z0-9_-]+[.][a-zA-Z]{2,}(/[A-Za-z0-9_-]+)+$"
BASE = "/v1/orgs/{organizationId}/sites"
SITE = BASE + "/{siteId}"
_PATCHABLE = (
    "title",
    "visibility",
    "basename",
    "agentsContext",
    "defaultLevel",
    "defaultSiteSpace",
    "defaultSiteSection",
    "adaptiveContent",
    "styleguide",
    "proxy",
)


def list_sites(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    rows = ctx.tx.rows(tree.SITE, org=org)
    space = ctx.query.get("space")
    if space is not None:
        rows = [
            r
            for r in rows
            if any(s.data["space"] == space for s in tree.all_site_spaces(ctx.tx, r))
        ]
    title = ctx.query.get("title")
    if title is not None:
        rows = [r for r in rows if title.lower() in str(r.data["title"]).lower()]
    published = query_bool(ctx, "published")
    if published is not None:
        rows = [r for r in rows if bool(r.data.get("published")) is published]
    types = ctx.query.getlist("type")
    for value in types:
        if value not in SITE_TYPES:
            raise bad_request(f"type: must be one of {', '.join(SITE_TYPES)}, got {value!r}")
    if types:
        rows = [r for r in rows if r.data["type"] in types]
    return paginate(ctx, rows, lambda page: site_views(ctx, page))


def create_site(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT)["id"]
    body = Fields(ctx.body(required=False), ("type", "title", "visibility", "spaces"))
    site_type = body.enum("type", SITE_TYPES) or "basic"
    title = body.string("title", min_len=2, max_len=128) or "Untitled site"
    visibility = body.enum("visibility", VISIBILITIES) or "public"
    spaces = [
        tree.find_space(ctx, org, space, f"spaces[{i}]")
        for i, space in enumerate(body.strings("spaces") or [])
    ]
    site_id = new_id()
    data: dict[str, Any] = {
        "id": site_id,
        "type": site_type,
        "title": title,
        "visibility": visibility,
        "published": False,
        "agentsContext": "excluded",
        "defaultLevel": "inherit",
        "createdAt": ctx.now,
        "defaultSection": None,
        "defaultSiteSpace": None,
    }
    ctx.tx.insert(tree.SITE, site_id, data, org=org)
    site = tree.find_site(ctx, org, site_id)
    for space in spaces:
        tree.add_site_space(ctx, site, site, space)
    location = ctx.url(f"/orgs/{org}/sites/{site_id}")
    return created(site_view(ctx, tree.reload(ctx.tx, site)), location)


def get_site(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    return ok(site_view(ctx, tree.find_site(ctx, org)))


def _default_site_space(ctx: Ctx, site: Row, id_: str) -> None:
    """PATCH site `defaultSiteSpace`: the root default, or the default section's default."""
    row = tree.find_child(ctx.tx, site, tree.SITE_SPACE, id_, "defaultSiteSpace")
    if not tree.has_sections(ctx.tx, site):
        tree.patch(ctx.tx, site, {"defaultSiteSpace": row.id})
        return
    section = tree.default_section(ctx.tx, site)
    if section is None or row.parent != section:
        raise bad_request(
            f"defaultSiteSpace: site space {row.id!r} is in section {row.parent!r}, not in the "
            f"default section {section!r}; set it with PATCH .../sections/{row.parent} "
            "{defaultSiteSpace} instead"
        )
    tree.patch(
        ctx.tx, tree.find_child(ctx.tx, site, tree.SECTION, section), {"defaultSiteSpace": row.id}
    )


def update_site(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT)["id"]
    site = tree.find_site(ctx, org)
    # `agentsContext` is the description's alone: production's updateSiteById has no such field.
    patchable = [f for f in _PATCHABLE if not (ctx.production and f == "agentsContext")]
    body = Fields(ctx.body(), patchable)
    changes: dict[str, Any] = {}
    if body.has("title"):
        changes["title"] = body.string("title", min_len=2, max_len=128)
    if body.has("visibility"):
        changes["visibility"] = body.enum("visibility", VISIBILITIES)
    if body.has("basename"):
        changes["basename"] = body.string("basename", min_len=1, max_len=100)
    if body.has("agentsContext"):
        changes["agentsContext"] = body.enum("agentsContext", AGENTS_CONTEXT)
    if body.has("defaultLevel"):
        changes["defaultLevel"] = body.enum("defaultLevel", (*ROLES, "inherit"), nullable=True)
    if body.has("adaptiveContent"):
        adaptive = Fields(body.obj("adaptiveContent") or {}, ("enabled",), "adaptiveContent.")
        changes["adaptiveContent"] = {"enabled": adaptive.boolean("enabled", required=True)}
    if body.has("proxy"):
        changes["proxy"] = body.string("proxy", nullable=True, max_len=512, pattern=PROXY_PATTERN)
    if body.string("styleguide", nullable=True) is not None:
        # production attaches a style guide space of the organization; the emulator holds no
        # style guide (createSpace makes none), so any id names nothing; null detaches nothing
        raise not_found(f"styleguide: no style guide space {body.data['styleguide']!r}")
    if body.has("defaultSiteSection"):
        section_id = body.string("defaultSiteSection") or ""
        section = tree.find_child(ctx.tx, site, tree.SECTION, section_id, "defaultSiteSection")
        changes["defaultSection"] = section.id
    site = tree.patch(ctx.tx, site, changes)
    if body.has("defaultSiteSpace"):
        _default_site_space(ctx, site, body.string("defaultSiteSpace") or "")
    return ok(site_view(ctx, tree.reload(ctx.tx, site)))


def delete_site(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT_ADMIN)["id"]
    row = ctx.tx.get_row(tree.SITE, ctx.params["siteId"])
    if row is None or row.org != org:
        return empty(204)
    if site_is_default_content(ctx.tx, org, row.id):
        raise conflict(
            "site-is-default-content",
            f"Site {row.data['title']!r} is the defaultContent of organization {org!r}: "
            "change the organization's defaultContent first, then delete the site",
        )
    ctx.tx.delete_tree(tree.SITE, row.id)
    return empty(205)


def _set_published(ctx: Ctx, published: bool) -> Response:
    org = ctx.org(Access.CONTENT)["id"]
    site = tree.patch(ctx.tx, tree.find_site(ctx, org), {"published": published})
    return ok(site_view(ctx, site))


def publish_site(ctx: Ctx) -> Response:
    return _set_published(ctx, True)


def unpublish_site(ctx: Ctx) -> Response:
    return _set_published(ctx, False)


def get_published(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    site = tree.find_site(ctx, org)
    site_spaces = tree.all_site_spaces(ctx.tx, site)
    return ok(
        {
            "object": "published-content-site",
            "site": site_view(ctx, site),
            "structure": structure_view(ctx, site),
            "customizations": {
                "site": site_customization(site),
                "siteSpaces": {row.id: effective_customization(site, row) for row in site_spaces},
            },
            "scripts": [],
        }
    )


routes: list[BaseRoute] = [
    api_route("GET", BASE, list_sites),
    api_route("POST", BASE, create_site),
    api_route("GET", SITE, get_site),
    api_route("PATCH", SITE, update_site),
    api_route("DELETE", SITE, delete_site),
    api_route("POST", SITE + "/publish", publish_site),
    api_route("POST", SITE + "/unpublish", unpublish_site),
    api_route("GET", SITE + "/published", get_published),
    *sites_adaptive.routes,
    *sites_structure.routes,
    *sites_sections.routes,
    *sites_groups.routes,
    *sites_external_links.routes,
    *sites_spaces.routes,
]

"""A redirect to a page by its path (`{kind: path, spaceId, path}`), as production serves it.

Production takes a path destination on input only and answers every redirect with a resolved
destination (`SiteRedirectDestination` has no `path` kind): a page of a site space. The emulator
holds no page content, so the page is the one that path names in the first site space of the
site that publishes the space, under a stable id made from the space and the path.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from docsync.emulator import site_tree as tree
from docsync.emulator.errors import ApiError, not_found
from docsync.emulator.store import Row, Tx


def page_id(space: str, path: str) -> str:
    """The id of the page `path` names in `space` (the same path gives the same page)."""
    return hashlib.sha1(f"{space}/{path.strip('/')}".encode()).hexdigest()[:20]


def resolve_path(tx: Tx, site: Row, destination: dict[str, Any], name: str) -> dict[str, Any]:
    """A `site-page` destination for a `path` one; 404 naming the field when no site space of
    the site publishes the space."""
    space, path = str(destination["spaceId"]), str(destination["path"])
    for row in tree.all_site_spaces(tx, site):
        if row.data.get("space") == space:
            return {"kind": "site-page", "siteSpaceId": row.id, "pageId": page_id(space, path)}
    raise not_found(f"{name}.spaceId: no site space of site {site.id!r} publishes space {space!r}")


def checked(
    tx: Tx,
    site: Row,
    destination: dict[str, Any],
    outside: Callable[[Tx, Row, dict[str, Any]], str | None],
) -> tuple[dict[str, Any], str | None]:
    """A bulk item's destination resolved, and why it is not in the site (None when it is)."""
    if destination.get("kind") == "path":
        try:
            destination = resolve_path(tx, site, destination, "destination")
        except ApiError as error:
            return destination, error.message
    return destination, outside(tx, site, destination)

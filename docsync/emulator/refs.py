"""Cross-resource queries for referential integrity between route modules.

The sites routes use `site_is_default_content` to refuse deleting an organization's default
site (409), and `live_space` to check the `spaceId` of sections and site spaces.
"""

from __future__ import annotations

from typing import Any

from docsync.emulator.store import Row, Tx


def default_content_site(tx: Tx, org: str) -> str | None:
    """The id of the site the organization's `defaultContent` names, or None."""
    found = tx.get("organization", org) or {}
    content = found.get("defaultContent")
    if isinstance(content, dict) and content.get("type") == "site":
        site = content.get("site")
        return site if isinstance(site, str) else None
    return None


def site_is_default_content(tx: Tx, org: str, site: str) -> bool:
    """True when deleting `site` would leave the organization's `defaultContent` dangling."""
    return default_content_site(tx, org) == site


def live_space(tx: Tx, org: str, space: str) -> Row | None:
    """The space row when it exists in `org` and is not soft-deleted, else None."""
    row = tx.get_row("space", space)
    if row is None or row.org != org or row.data.get("deletedAt"):
        return None
    return row


def live_children(tx: Tx, collection: str) -> list[Row]:
    """Collections and live (not deleted) spaces directly inside `collection`."""
    return [
        row
        for row in tx.rows(["collection", "space"], parent=collection)
        if not row.data.get("deletedAt")
    ]


def saml_using_team(tx: Tx, org: str, team: str) -> dict[str, Any] | None:
    """A SAML provider of `org` whose defaultTeam is `team`, or None."""
    for row in tx.rows("saml-provider", org=org):
        if row.data.get("defaultTeam") == team:
            return row.data
    return None

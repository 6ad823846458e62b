"""Grants of a role to a team or a member on a collection, space or site, and their cascades.

Rows (id / org / parent): `team-grant` ("resource/team" / org / resource) with data `{team, role}`
and `user-grant` ("resource/user" / org / resource) with data `{user, role}`. Being children of
their resource, a site's grants go with `delete_tree` of the site; the other owners of a grant
call the `drop_*` functions here when they go: a team deleted, a member removed from the
organization, a space or collection deleted or transferred to another organization.
"""

from __future__ import annotations

from docsync.emulator.store import Tx

TEAM_GRANT = "team-grant"
USER_GRANT = "user-grant"
KINDS = (TEAM_GRANT, USER_GRANT)


def grant_id(resource: str, principal: str) -> str:
    """Store id of the grant of `principal` (a team or user id) on `resource`."""
    return f"{resource}/{principal}"


def drop_resource(tx: Tx, resource: str) -> None:
    """Remove every grant on a collection, space or site."""
    for kind in KINDS:
        for row in tx.rows(kind, parent=resource):
            tx.delete(kind, row.id)


def drop_team(tx: Tx, org: str, team: str) -> None:
    """Remove the grants of a team (it is being deleted)."""
    for row in tx.by_team(TEAM_GRANT, org, team):
        tx.delete(TEAM_GRANT, row.id)


def drop_user(tx: Tx, org: str, user: str) -> None:
    """Remove the direct grants of a user in `org` (they are leaving the organization)."""
    for row in tx.by_user(USER_GRANT, org, user):
        tx.delete(USER_GRANT, row.id)

"""Git Sync installations as the emulator holds them: their rows, what each waits for, and
what goes with what (the operations: routes/sync/git_sync.py).

Rows (id / org / parent): git-sync-installation (id / org / its site or space) with `{provider,
providerConfiguration, common, target, parentInstallationId?, ...}`: deleting a site deletes
its installation (a child row), a space's delete (to the bin) drops its own (`drop_on`), and an
uninstall drops the installations it manages (`drop`).
"""

from __future__ import annotations

from docsync.emulator.store import Row, Tx

KIND = "git-sync-installation"
#: what each provider needs besides its branch to be active: where the repository is
WHERE = {"github": "repositoryId", "gitlab": "projectId"}


def parent_of(tx: Tx, row: Row) -> Row | None:
    parent = row.data.get("parentInstallationId")
    return None if parent is None else tx.get_row(KIND, str(parent))


def status(tx: Tx, row: Row) -> str:
    """What the installation waits for (a child's is its parent's)."""
    source = parent_of(tx, row) or row
    data, config = source.data, source.data["providerConfiguration"]
    configured = WHERE[data["provider"]] in config and "branch" in config
    if data["provider"] == "github":
        org = tx.get("organization", str(source.org)) or {}
        return "active" if org.get("githubAccountConnected") and configured else "pending"
    if "accessToken" not in config:
        return "unauthenticated"
    return "active" if configured else "pending"


def state(tx: Tx, target: str) -> dict[str, str] | None:
    """Production's GitSyncState of a site or space (its `gitSync`): the installation on it,
    what it waits for and, for a space a site's installation manages, that parent; None when
    nothing is installed there. A site's `gitSync` says its structure is its repository's."""
    found = tx.rows(KIND, parent=target)
    if not found:
        return None
    row = found[0]
    source = parent_of(tx, row) or row
    shown = {
        "installationId": row.id,
        "installationProvider": str(source.data["provider"]),
        "installationStatus": status(tx, row),
        "updatedAt": str(row.data["updatedAt"]),
    }
    if source is not row:
        shown["parentInstallationId"] = source.id
    return shown


def drop(tx: Tx, row: Row) -> None:
    """Remove an installation and the ones it manages."""
    for child in tx.rows(KIND, org=row.org):
        if child.data.get("parentInstallationId") == row.id:
            tx.delete(KIND, child.id)
    tx.delete(KIND, row.id)


def drop_on(tx: Tx, target: str) -> None:
    """Remove the installation on a site or space that goes (a space to the bin)."""
    for row in tx.rows(KIND, parent=target):
        drop(tx, row)

"""Integration installations as the routes share them: the rows, production's views, the check
of a configuration against its integration's schema, and the lookups of an installation.

Rows (id / org / parent): integration-installation (id / org / -) with `{integration,
configuration, ...}`; integration-site-installation and integration-space-installation
(`<installation>:<site or space>` / org / the site or space) with `{integration, installation,
target, configuration}`. A site's delete takes its installations with it (they are its children);
a space's delete (to the bin) drops them (`drop_space`); an uninstall drops both (`drop_all`).
"""

from __future__ import annotations

from typing import Any

from docsync.emulator.auth import Access
from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.http import Ctx
from docsync.emulator.store import Doc, Row, Tx

INSTALLATION = "integration-installation"
ON_SITE = "integration-site-installation"
ON_SPACE = "integration-space-installation"


def _fits(given: Any, kind: str) -> bool:
    """Whether a value is of a configuration property's type (a `button` holds none)."""
    if kind == "boolean":
        return isinstance(given, bool)
    if kind == "number":
        return isinstance(given, int | float) and not isinstance(given, bool)
    return isinstance(given, str) if kind == "string" else True


def integration(ctx: Ctx, name: str) -> Row:
    found = ctx.tx.get_row("integration", name)
    if found is None:
        raise not_found(f"No integration {name!r}")
    return found


def check_configuration(value: Any, schema: Doc | None, name: str) -> Doc:
    """A configuration as its integration's schema at its level takes it (properties, their
    types, the required ones); 400 naming the first property it refuses."""
    if not isinstance(value, dict):
        raise bad_request(f"{name}: must be an object")
    properties = (schema or {}).get("properties") or {}
    for key, given in value.items():
        prop = properties.get(key)
        if prop is None:
            known = ", ".join(sorted(properties)) or "none"
            raise bad_request(f"{name}.{key}: not a property of this configuration ({known})")
        if not _fits(given, str(prop.get("type"))):
            raise bad_request(f"{name}.{key}: must be a {prop['type']}")
        if prop.get("enum") and given not in prop["enum"]:
            raise bad_request(f"{name}.{key}: must be one of {prop['enum']}")
    missing = [key for key in (schema or {}).get("required") or [] if key not in value]
    if missing:
        raise bad_request(f"{name}: {', '.join(missing)} required")
    return dict(value)


def external_ids(value: Any) -> list[str]:
    """Production's IntegrationInstallationExternalIds: at most 5 strings."""
    if not isinstance(value, list) or len(value) > 5 or not all(isinstance(i, str) for i in value):
        raise bad_request("externalIds: at most 5 strings")
    return value


def installation(ctx: Ctx, access: Access = Access.READ) -> Row:
    """The installation of the path, of the path's integration, in an organization the caller
    belongs to (else 404, as production answers an id it does not show)."""
    name, ident = ctx.params["integrationName"], ctx.params["installationId"]
    row = ctx.tx.get_row(INSTALLATION, ident)
    missing = f"No installation {ident!r} of integration {name!r}"
    if row is None or row.data["integration"] != name:
        raise not_found(missing)
    ctx.org(access, str(row.org), unseen=missing)
    return row


def installation_view(ctx: Ctx, row: Row) -> Doc:
    """Production's IntegrationInstallation."""
    data = row.data
    location = f"/integrations/{data['integration']}/installations/{row.id}"
    sites = len(on_rows(ctx.tx, ON_SITE, row))
    spaces = len(on_rows(ctx.tx, ON_SPACE, row))
    return {
        "id": row.id,
        "status": data["status"],
        # as written; never written: `selected` once it is installed on one
        "space_selection": data.get("space_selection") or ("selected" if spaces else "all"),
        "site_selection": data.get("site_selection") or ("selected" if sites else "all"),
        "spaces": spaces,
        "configuration": data["configuration"],
        "createdAt": data["createdAt"],
        "updatedAt": data["updatedAt"],
        "urls": {
            "location": ctx.url(location),
            "app": ctx.app_url(f"/o/{row.org}/integrations/{data['integration']}"),
            "publicEndpoint": ctx.url(f"{location}/public"),
            "publicContentEndpoint": ctx.url(f"{location}/public"),
        },
        "externalIds": list(data.get("externalIds") or []),
        "target": {"organization": row.org},
    }


def on_view(ctx: Ctx, row: Row, field: str, target: Doc | str) -> Doc:
    """Production's IntegrationSiteInstallation or IntegrationSpaceInstallation: `target` is the
    site or space, its id unless the caller asked `extended`."""
    data = row.data
    location = (
        f"/integrations/{data['integration']}/installations/{data['installation']}"
        f"/{field}s/{row.parent}"
    )
    return {
        "integration": data["integration"],
        "installation": data["installation"],
        "status": data["status"],
        "configuration": data["configuration"],
        "externalIds": list(data.get("externalIds") or []),
        "urls": {
            "location": ctx.url(location),
            "publicEndpoint": ctx.url(f"{location}/public"),
            "publicContentEndpoint": ctx.url(f"{location}/public"),
        },
        field: target,
    }


def status(configuration: Doc, schema: Doc | None) -> str:
    """`pending` until every required property is set, as production's installation waits for
    its configuration; then `active`."""
    required = (schema or {}).get("required") or []
    return "active" if all(key in configuration for key in required) else "pending"


def on_rows(tx: Tx, kind: str, installation_row: Row) -> list[Row]:
    """The site or space installations of one installation, in the order made."""
    rows = tx.rows(kind, org=installation_row.org)
    return [row for row in rows if row.data["installation"] == installation_row.id]


def drop_all(tx: Tx, installation_row: Row) -> None:
    """An uninstall: the installation and every site and space installation of it."""
    for kind in (ON_SITE, ON_SPACE):
        for row in on_rows(tx, kind, installation_row):
            tx.delete(kind, row.id)
    tx.delete(INSTALLATION, installation_row.id)


def drop_space(tx: Tx, space: str) -> None:
    """A space deleted (to the bin) is no longer one an integration is installed on."""
    for row in tx.rows(ON_SPACE, parent=space):
        tx.delete(ON_SPACE, row.id)

"""An integration's configuration (on the organization, a site, a space), compared, shown and
exported: only the keys written are managed, one change per key; a key is a secret on either
side of a change (`Field.secret_text`): read from env() by the manifest, or live text not known
to be plain, since no one can tell a key from a label."""

from __future__ import annotations

from typing import Any

from docsync.core.context import PlanContext
from docsync.core.model import FieldChange, leaf_change
from docsync.kinds.declaration import Field
from docsync.kinds.kind import ExportNames, Path


def exported_configuration(
    configuration: dict[str, Any], owner: str, names: ExportNames, at: str = ""
) -> dict[str, Any]:
    """A configuration as export writes it: text as an `env()` placeholder (it may be a key,
    and export cannot tell), numbers and flags as they are."""
    prefix = f"{at}." if at else ""
    return {
        key: names.secret(owner, f"{prefix}configuration.{key}") if isinstance(v, str) else v
        for key, v in configuration.items()
    }


def plain(value: Any, prop: Any) -> bool:
    """Whether a live configuration value is known not to be a secret: nothing, a number, a
    flag, or one of the choices its property's schema lists. Any other text may be a key."""
    if value is None or isinstance(value, bool | int | float):
        return True
    choices = prop.get("enum") if isinstance(prop, dict) else None
    return isinstance(value, str) and isinstance(choices, list) and value in choices


def schema_properties(ctx: PlanContext, integration: str, level: str) -> dict[str, Any]:
    """The properties of an integration's configuration at `level` (`account`, `site`,
    `space`), as read with its installations ({}: not read)."""
    schemas = (ctx.live.read_aside.get("integration") or {}).get(integration) or {}
    found = (schemas.get(level) or {}).get("properties") if isinstance(schemas, dict) else None
    return found if isinstance(found, dict) else {}


def configuration_changes(
    written: dict[str, Any] | None,
    before: dict[str, Any],
    path: Path,
    ctx: PlanContext,
    new: bool,
    field: Field,
    properties: dict[str, Any],
) -> list[FieldChange]:
    """One change per configuration key written that differs, at its path (a key not set
    before is added); for a new installation, the keys written as one value. A key secret on
    either side (from env(), or live text not known to be plain: `Field.secret_text`) is
    named at its path and shown `(sensitive)`."""
    out, shown = [], {}
    for key, value in (written or {}).items():
        if not new and before.get(key) == value:
            continue
        old = before.get(key)
        hidden = field.secret_text and not plain(old, properties.get(key))
        if field.sensitive or ctx.sensitive((*path, key)) or hidden:
            out.append(leaf_change("configuration", (key,), old, value, True))
        elif new:
            shown[key] = value
        elif key not in before:
            out.append(FieldChange("configuration", {}, {key: value}))
        else:
            out.append(leaf_change("configuration", (key,), old, value, False))
    return [FieldChange("configuration", None, shown)] * bool(shown) + out


def holds(found: Any, sent: dict[str, Any]) -> bool:
    """Whether a configuration read back holds every key sent, as sent (a write whose answers
    were lost is done when it does)."""
    return isinstance(found, dict) and all(found.get(k) == v for k, v in sent.items())

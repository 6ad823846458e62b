"""The seed's integrations (../shared/INTERFACE.md §3): what organizations can install, each
with its name, title, target, scopes and the schema of its configuration at each level
(the description's `configurations.{account, site, space}`: `properties` and `required`).

Row (id / org / parent): integration (its name / - / -): no organization owns one here.
"""

from __future__ import annotations

import re
from typing import Any

from docsync.emulator.errors import SeedError
from docsync.emulator.store import Tx

#: production's integration name (the path's `integrationName`)
NAME = re.compile(r"^[a-zA-Z0-9-_.]+$")
#: production's IntegrationTarget
TARGETS = ("all", "site", "space", "organization")
#: the levels of a configuration, as production's IntegrationConfigurations names them
LEVELS = ("account", "site", "space")
#: the property types production's IntegrationConfigurationSchema has
TYPES = ("string", "number", "boolean", "button")


def _schema(value: Any, where: str) -> None:
    if not isinstance(value, dict) or not isinstance(value.get("properties", {}), dict):
        raise SeedError(f"{where}: a configuration schema is {{properties: {{NAME: {{type}}}}}}")
    for name, prop in (value.get("properties") or {}).items():
        if not isinstance(prop, dict) or prop.get("type") not in TYPES:
            raise SeedError(f"{where}.properties.{name}: type must be one of {TYPES}")
    required = value.get("required", [])
    props = value.get("properties") or {}
    if not isinstance(required, list) or any(r not in props for r in required):
        raise SeedError(f"{where}.required: must name properties of the schema")


def check_integrations(entries: list[dict[str, Any]], origin: str) -> None:
    """Raise SeedError for the first integration that is malformed or named twice."""
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        where = f"{origin}: integrations[{i}]"
        name = entry.get("name")
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise SeedError(f"{where}: name is required and must match {NAME.pattern}")
        if name in seen:
            raise SeedError(f"{where}: integration {name!r} is listed twice")
        seen.add(name)
        if entry.get("target", "all") not in TARGETS:
            raise SeedError(f"{where}: target must be one of {TARGETS}")
        scopes = entry.get("scopes", [])
        if not isinstance(scopes, list) or not all(isinstance(s, str) for s in scopes):
            raise SeedError(f"{where}: scopes must be a list of strings")
        configurations = entry.get("configurations") or {}
        if not isinstance(configurations, dict) or set(configurations) - set(LEVELS):
            raise SeedError(f"{where}: configurations has the levels {LEVELS} only")
        for level, schema in configurations.items():
            _schema(schema, f"{where}.configurations.{level}")


def apply_integrations(tx: Tx, entries: list[dict[str, Any]]) -> None:
    for entry in entries:
        data = {
            "name": entry["name"],
            "title": entry.get("title") or entry["name"],
            "description": entry.get("description", ""),
            "target": entry.get("target", "all"),
            "scopes": list(entry.get("scopes") or []),
            "categories": list(entry.get("categories") or []),
            "configurations": dict(entry.get("configurations") or {}),
        }
        tx.insert("integration", entry["name"], data)

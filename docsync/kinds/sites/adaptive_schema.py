"""The shape a site's adaptive (visitor claims) schema must have for PUT .../adaptive-schema.

Production's rules (`SiteAdaptiveJSONSchema` of the production contract), checked offline so that
`docsync validate` refuses what the API would refuse after the site is created:

- the root: `type: object`, `properties`, `additionalProperties: false`, optional
  `$schema: "http://json-schema.org/draft-07/schema#"`, nothing else;
- a claim: `{type: boolean, description}`, `{type: string, description, enum?: [text...]}`,
  `{type: number, description}`, `{type: array, description, items: <a boolean, string or
  number claim>}` or `{type: object, description, properties: {name: claim}, additionalProperties:
  false}`; `description` is text and required everywhere;
- `unsigned`: `{type: object, description: "Unsigned claims of the site visitor.", properties,
  additionalProperties: false}` (that exact description), its properties claims as above.

`tests/contract/test_adaptive.py` checks these rules against the production document.
"""

from __future__ import annotations

from typing import Any

from docsync.core.paths import Path

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
UNSIGNED_DESCRIPTION = "Unsigned claims of the site visitor."
_PRIMITIVES = ("boolean", "string", "number")
_CLAIM_KEYS: dict[str, frozenset[str]] = {
    "boolean": frozenset({"type", "description"}),
    "number": frozenset({"type", "description"}),
    "string": frozenset({"type", "description", "enum"}),
    "array": frozenset({"type", "description", "items"}),
    "object": frozenset({"type", "description", "properties", "additionalProperties"}),
}
Found = list[tuple[Path, str]]


def check_adaptive_schema(schema: dict[str, Any], path: Path) -> Found:
    """Every way ``schema`` departs from the accepted shape, as (path, message) pairs."""
    found: Found = []
    _unknown(schema, {"$schema", "type", "properties", "additionalProperties"}, path, found)
    if "$schema" in schema and schema["$schema"] != DRAFT_07:
        found.append(((*path, "$schema"), f"must be '{DRAFT_07}'; got {schema['$schema']!r}"))
    if schema.get("type") != "object":
        found.append(((*path, "type"), f"must be 'object'{_got(schema, 'type')}"))
    _closed(schema, path, found)
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        found.append(((*path, "properties"), "must be a mapping of claim names to claims"))
        return found
    for name, claim in properties.items():
        claim_path = (*path, "properties", name)
        if name == "unsigned":
            _unsigned(claim, claim_path, found)
        else:
            _claim(claim, claim_path, found)
    return found


def _got(node: dict[str, Any], key: str) -> str:
    return f"; got {node[key]!r}" if key in node else " (missing)"


def _closed(node: dict[str, Any], path: Path, found: Found) -> None:
    if node.get("additionalProperties") is not False:
        message = f"must be false{_got(node, 'additionalProperties')}"
        found.append(((*path, "additionalProperties"), message))


def _unknown(
    node: dict[str, Any], allowed: set[str] | frozenset[str], path: Path, found: Found
) -> None:
    for key in node:
        if key not in allowed:
            names = ", ".join(sorted(allowed))
            found.append(((*path, key), f"'{key}' is not allowed here (allowed: {names})"))


def _unsigned(claim: Any, path: Path, found: Found) -> None:
    """``unsigned`` holds the visitor's unsigned claims, with production's fixed description."""
    if not isinstance(claim, dict):
        found.append((path, "must be a mapping"))
        return
    if claim.get("type") != "object":
        found.append(((*path, "type"), f"must be 'object'{_got(claim, 'type')}"))
    if claim.get("description") != UNSIGNED_DESCRIPTION:
        message = f"must be exactly {UNSIGNED_DESCRIPTION!r}{_got(claim, 'description')}"
        found.append(((*path, "description"), message))
    _closed(claim, path, found)
    _properties(claim, path, found)


def _properties(claim: dict[str, Any], path: Path, found: Found) -> None:
    properties = claim.get("properties")
    if not isinstance(properties, dict):
        found.append(((*path, "properties"), "must be a mapping of claim names to claims"))
        return
    for name, inner in properties.items():
        _claim(inner, (*path, "properties", name), found)


def _claim(
    claim: Any, path: Path, found: Found, kinds: tuple[str, ...] = tuple(_CLAIM_KEYS)
) -> None:
    if not isinstance(claim, dict):
        found.append((path, "a claim must be a mapping with 'type' and 'description'"))
        return
    kind = claim.get("type")
    if not isinstance(kind, str) or kind not in kinds:
        names = ", ".join(f"'{name}'" for name in kinds)
        found.append(((*path, "type"), f"must be one of {names}{_got(claim, 'type')}"))
        return
    _unknown(claim, _CLAIM_KEYS[kind], path, found)
    if not isinstance(claim.get("description"), str):
        found.append(((*path, "description"), "every claim needs a 'description' (text)"))
    if kind == "string" and "enum" in claim:
        enum = claim["enum"]
        if not isinstance(enum, list) or not all(isinstance(item, str) for item in enum):
            found.append(((*path, "enum"), f"must be a list of strings; got {enum!r}"))
    elif kind == "array":
        if "items" not in claim:
            found.append(((*path, "items"), "is required: a boolean, string or number claim"))
        else:
            _claim(claim["items"], (*path, "items"), found, _PRIMITIVES)
    elif kind == "object":
        _closed(claim, path, found)
        _properties(claim, path, found)

"""The shape a site's adaptive (visitor claims) schema must have for PUT .../adaptive-schema.

From ../shared/reference/docs-platform-api.md §2.7 and the contract digest §5: a draft-07 object
schema with ``additionalProperties: false`` whose every claim carries a description.
"""

from __future__ import annotations

from typing import Any

from docsync.manifest.problems import Path

DRAFT_07 = ("http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema")
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
    allowed = {"$schema", "$id", "type", "properties", "additionalProperties"}
    _unknown(schema, allowed, path, found)
    if "$schema" in schema and schema["$schema"] not in DRAFT_07:
        found.append(((*path, "$schema"), f"must be '{DRAFT_07[0]}' (JSON Schema draft-07)"))
    if schema.get("type") != "object":
        found.append(((*path, "type"), "must be 'object'"))
    if schema.get("additionalProperties") is not False:
        found.append(((*path, "additionalProperties"), "must be false"))
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


def _unknown(
    node: dict[str, Any], allowed: set[str] | frozenset[str], path: Path, found: Found
) -> None:
    for key in node:
        if key not in allowed:
            names = ", ".join(sorted(allowed))
            found.append(((*path, key), f"'{key}' is not allowed here (allowed: {names})"))


def _unsigned(claim: Any, path: Path, found: Found) -> None:
    """``unsigned`` holds the visitor's unsigned claims: an object of boolean claims."""
    if not isinstance(claim, dict):
        found.append((path, "must be a mapping"))
        return
    _unknown(claim, _CLAIM_KEYS["object"], path, found)
    if claim.get("type") != "object":
        found.append(((*path, "type"), "must be 'object'"))
    _description(claim, path, found)
    if claim.get("additionalProperties") is not False:
        found.append(((*path, "additionalProperties"), "must be false"))
    properties = claim.get("properties")
    if not isinstance(properties, dict):
        found.append(((*path, "properties"), "must be a mapping of claim names to claims"))
        return
    for name, inner in properties.items():
        inner_path = (*path, "properties", name)
        if isinstance(inner, dict) and inner.get("type") != "boolean":
            found.append(((*inner_path, "type"), "unsigned claims must be of type 'boolean'"))
        _claim(inner, inner_path, found)


def _claim(claim: Any, path: Path, found: Found) -> None:
    if not isinstance(claim, dict):
        found.append((path, "a claim must be a mapping with 'type' and 'description'"))
        return
    kind = claim.get("type")
    if not isinstance(kind, str) or kind not in _CLAIM_KEYS:
        kinds = ", ".join(f"'{name}'" for name in _CLAIM_KEYS)
        found.append(((*path, "type"), f"must be one of {kinds}"))
        return
    _unknown(claim, _CLAIM_KEYS[kind], path, found)
    _description(claim, path, found)
    if kind == "string" and "enum" in claim:
        enum = claim["enum"]
        if not isinstance(enum, list) or not all(isinstance(item, str) for item in enum):
            found.append(((*path, "enum"), "must be a list of strings"))
    elif kind == "array":
        items = claim.get("items")
        if not isinstance(items, dict) or items.get("type") not in ("boolean", "string", "number"):
            message = "must be {type: boolean | string | number}"
            found.append(((*path, "items"), message))
    elif kind == "object":
        if claim.get("additionalProperties") is not False:
            found.append(((*path, "additionalProperties"), "must be false"))
        properties = claim.get("properties")
        if not isinstance(properties, dict):
            found.append(((*path, "properties"), "must be a mapping of claim names to claims"))
            return
        for name, inner in properties.items():
            _claim(inner, (*path, "properties", name), found)


def _description(claim: dict[str, Any], path: Path, found: Found) -> None:
    description = claim.get("description")
    if not isinstance(description, str) or not description.strip():
        found.append(((*path, "description"), "every claim needs a 'description' (text)"))

"""What the contract fuzzer generates from: production's document, restricted to the operations
the emulator serves, with the narrowings listed in `NARROWED`, each with its reason.

The operations are read from the emulator's routes (`collect_routes` of the contract mode), so an
operation added to the emulator is fuzzed from the day it is served. Nothing else of the document
changes: a narrowing is a place where the emulator is knowingly stricter than production's
schemas or holds nothing to check against, and a reader can verify each reason there.
"""

from __future__ import annotations

import copy
from typing import Any

from docsync.emulator.app import Contract, collect_routes
from tests.contract.checker import Contract as Checker

_METHODS = ("get", "post", "put", "patch", "delete")

#: Where the fuzzer's document departs from production's, and why. The keys name what
#: `fuzz_document` changes.
NARROWED: dict[str, str] = {
    "undeclared body fields": (
        "production's request bodies declare their fields but do not say additionalProperties: "
        "false, so a body with a field no schema names is valid there; the emulator refuses it "
        "(400 naming the field: docs/emulator.md, 'Unknown body fields are rejected'), so that a "
        "misspelt field in a manifest's request fails here instead of being dropped there. The "
        "fuzzer's request bodies are closed (additionalProperties: false where a schema declares "
        "properties and says nothing else), so generated valid bodies carry declared fields only "
        "and invalid ones may carry others, which the emulator must refuse"
    ),
    "JSONDocument": (
        "a translation's `instructions` are a JSONDocument, GitBook's content model of pages "
        "(105 schemas of blocks and inlines); the emulator holds no page content and keeps "
        "instructions as written ({object: document, ...}), so the fuzzer writes them as an "
        "object whose `object` is 'document' and reads back what was written"
    ),
}


def served_operations(spec: dict[str, Any], mode: Contract) -> dict[str, set[str]]:
    """Production's templates the emulator serves in `mode`, with their (lower-case) methods."""
    checker = Checker(spec)
    served: dict[str, set[str]] = {}
    for route in collect_routes(mode):
        path = getattr(route, "path", "")
        if not path.startswith("/v1/"):
            continue
        for method in getattr(route, "methods", None) or ():
            template = checker.operation_of(method, path)
            if method != "HEAD" and template is not None:
                served.setdefault(template, set()).add(method.lower())
    return served


def fuzz_document(spec: dict[str, Any], mode: Contract, base_url: str) -> dict[str, Any]:
    """Production's document as the fuzzer reads it for an emulator of `mode` at `base_url`."""
    served = served_operations(spec, mode)
    doc = copy.deepcopy(spec)
    doc["servers"] = [{"url": base_url}]
    doc["paths"] = {
        template: {
            key: value
            for key, value in doc["paths"][template].items()
            if key not in _METHODS or key in methods
        }
        for template, methods in sorted(served.items())
    }
    schemas = doc["components"]["schemas"]
    schemas["JSONDocument"] = {
        "type": "object",
        "properties": {"object": {"type": "string", "enum": ["document"]}},
        "required": ["object"],
    }
    _close_bodies(doc)
    return doc


def _close_bodies(doc: dict[str, Any]) -> None:
    """Close the object schemas of request bodies: each schema a body reaches is copied
    (`<name>.Request`) so that answers are still checked against production's own schemas."""
    schemas = doc["components"]["schemas"]
    copies: dict[str, str] = {}

    def close(node: Any, in_all_of: bool = False) -> Any:
        if isinstance(node, list):
            return [close(item, in_all_of) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            name = ref.rsplit("/", 1)[1]
            if in_all_of:
                return node  # a part of an allOf stays open: its siblings add fields
            if name not in copies:
                copies[name] = f"{name}.Request"
                schemas[copies[name]] = {}
                schemas[copies[name]] = close(schemas[name])
            return {**node, "$ref": f"#/components/schemas/{copies[name]}"}
        own = isinstance(node.get("properties"), dict)
        closed: dict[str, Any] = {}
        for key, value in node.items():
            if key == "properties" and own:
                closed[key] = {name: close(sub) for name, sub in value.items()}
            elif key in ("anyOf", "oneOf", "allOf"):
                # the parts of a composition stay open where they add to the fields around them
                # (an object's own properties, or the other parts of an allOf)
                shared = own or (key == "allOf" and len(value) > 1)
                closed[key] = close(value, shared)
            elif key in ("items", "additionalProperties"):
                closed[key] = close(value)
            else:
                closed[key] = value
        parts = node.get("allOf")
        if not own and not in_all_of and isinstance(parts, list) and len(parts) > 1:
            # an allOf of several parts is closed around the fields they all declare, which
            # each part still constrains
            names = {n for part in parts for n in _declared_deep(part, schemas)}
            closed["properties"] = {name: {} for name in sorted(names)}
            closed["additionalProperties"] = False
        if own and not in_all_of and "additionalProperties" not in node:
            # the fields the parts declare are declared here too (additionalProperties sees
            # only this object's own properties)
            for key in ("anyOf", "oneOf", "allOf"):
                for part in node.get(key, []):
                    for name, sub in _declared(part, schemas).items():
                        closed["properties"].setdefault(name, close(sub))
            closed["additionalProperties"] = False
        return closed

    for operations in doc["paths"].values():
        for method, operation in operations.items():
            body = operation.get("requestBody") if method in _METHODS else None
            if not body:
                continue
            content = body.get("content", {}).get("application/json")
            if content and "schema" in content:
                content["schema"] = close(content["schema"])


def _declared(part: Any, schemas: dict[str, Any]) -> dict[str, Any]:
    """The properties a part of a composition declares (through one `$ref`)."""
    if isinstance(part, dict) and isinstance(part.get("$ref"), str):
        part = schemas.get(part["$ref"].rsplit("/", 1)[1], {})
    properties = part.get("properties") if isinstance(part, dict) else None
    return dict(properties) if isinstance(properties, dict) else {}


def _declared_deep(part: Any, schemas: dict[str, Any]) -> list[str]:
    """The property names a part declares, its own compositions' parts included."""
    if isinstance(part, dict) and isinstance(part.get("$ref"), str):
        part = schemas.get(part["$ref"].rsplit("/", 1)[1], {})
    if not isinstance(part, dict):
        return []
    names = list(_declared(part, schemas))
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in part.get(key, []):
            names += _declared_deep(sub, schemas)
    return names

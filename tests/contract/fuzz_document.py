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

from docsync.emulator.app import collect_routes
from docsync.emulator.defaults import Contract
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
        "properties and says nothing else; an allOf around the fields all its parts declare; each "
        "option of a oneOf among those parts around its own fields and the other parts'), so "
        "generated valid bodies carry declared fields only and invalid ones may carry others, "
        "which the emulator must refuse"
    ),
    "CreateSpace": (
        "createSpace's body is allOf [its fields, anyOf [an object that takes anything, oneOf "
        "[{template}, {computedSource}, {empty: true}]]]: the open part makes any template or "
        "computedSource valid, whatever its shape, so the fuzzer reads the choice as the oneOf "
        "describes it: a plain space (neither template nor computedSource, `empty` a boolean), "
        "or one made from an ApplySpaceTemplate, or from a ComputedContentSourceRevision"
    ),
    "PlainObject": (
        "PlainObject (an integration's free-form props) declares properties but no type, so "
        "under JSON Schema any value is one, and in its oneOf of values a string matches both "
        "PlainObject and string (so no string would be valid); the fuzzer reads it as the "
        "object of strings, booleans, numbers, arrays and plain objects it describes"
    ),
    "JSONDocument": (
        "a translation's `instructions` are a JSONDocument, GitBook's content model of pages "
        "(105 schemas of blocks and inlines); the emulator holds no page content and keeps "
        "instructions (a translation's, the docs agent's) as written, checking the document's "
        "frame, so the fuzzer writes them as that frame ({object: document, data, nodes of "
        "blocks {object: block, type, and what else a block holds}}) and reads back what was "
        "written"
    ),
}


#: a block of a document as the fuzzer writes it (JSONDocument's note): open, as what else a
#: block holds (its key, data, nodes, per production's 105 block and inline schemas) is kept as
#: written, not checked
BLOCK = {
    "type": "object",
    "properties": {"object": {"type": "string", "enum": ["block"]}, "type": {"type": "string"}},
    "required": ["object", "type"],
    "additionalProperties": True,
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
    schemas["CreateSpace"] = _create_space(schemas["CreateSpace"])
    schemas["PlainObject"] = {"type": "object", **schemas["PlainObject"]}
    schemas["JSONDocument"] = {
        "type": "object",
        "properties": {
            "object": {"type": "string", "enum": ["document"]},
            "data": {"type": "object"},
            "nodes": {"type": "array", "items": BLOCK},
        },
        "required": ["object", "data", "nodes"],
    }
    _close_bodies(doc)
    return doc


def _create_space(schema: dict[str, Any]) -> dict[str, Any]:
    """CreateSpace with its open anyOf part made the plain space it stands for (NARROWED)."""
    fields = schema["allOf"][0]
    empty = {"type": "boolean"}
    made_from = {
        "template": {"$ref": "#/components/schemas/ApplySpaceTemplate"},
        "computedSource": {"$ref": "#/components/schemas/ComputedContentSourceRevision"},
    }
    either = [{"required": [name]} for name in made_from]
    return {
        "allOf": [
            fields,
            {
                "oneOf": [
                    {"properties": {"empty": empty}, "not": {"anyOf": either}},
                    *(
                        {"required": [name], "properties": {name: shape, "empty": empty}}
                        for name, shape in made_from.items()
                    ),
                ]
            },
        ]
    }


def _close_bodies(doc: dict[str, Any]) -> None:
    """Close the object schemas of request bodies: each schema a body reaches is copied
    (`<name>.Request`) so that answers are still checked against production's own schemas."""
    schemas = doc["components"]["schemas"]
    copies: dict[tuple[str, bool], str] = {}

    def close(node: Any, in_all_of: bool = False) -> Any:
        if isinstance(node, list):
            return [close(item, in_all_of) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            name = ref.rsplit("/", 1)[1]
            # a part of an allOf stays open at its own level (its siblings add fields), the
            # objects inside it are closed
            key = (name, in_all_of)
            if key not in copies:
                copies[key] = f"{name}.Request" + ("Part" if in_all_of else "")
                schemas[copies[key]] = {}
                schemas[copies[key]] = close(schemas[name], in_all_of)
            return {**node, "$ref": f"#/components/schemas/{copies[key]}"}
        own = isinstance(node.get("properties"), dict)
        closed: dict[str, Any] = {}
        for key, value in node.items():
            if key == "properties" and own:
                closed[key] = {name: close(sub) for name, sub in value.items()}
            elif key == "allOf" and not own and len(value) > 1:
                closed[key] = [part_of(value, index) for index in range(len(value))]
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

    def part_of(parts: list[Any], index: int) -> Any:
        """One part of an allOf: open, as its siblings add fields; but a choice (oneOf, anyOf)
        among objects is closed option by option around the fields the other parts declare, so
        that `{title, emoji}` is one of a space PATCH's choices and `{emoji, icon: null}` none."""
        part = parts[index]
        choice = next((k for k in ("oneOf", "anyOf") if isinstance(part, dict) and k in part), None)
        if choice is None:
            return close(part, True)
        around = {n for i, p in enumerate(parts) if i != index for n in _declared_deep(p, schemas)}
        return {**part, choice: [option(o, around) for o in part[choice]]}

    def option(node: Any, around: set[str]) -> Any:
        if isinstance(node, dict) and isinstance(node.get("$ref"), str):
            node = copy.deepcopy(schemas[node["$ref"].rsplit("/", 1)[1]])
        closed = close(node)
        if isinstance(closed, dict) and isinstance(closed.get("properties"), dict):
            for name in sorted(around):
                closed["properties"].setdefault(name, {})
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

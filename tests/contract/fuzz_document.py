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

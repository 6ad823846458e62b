"""What the contract fuzzer generates from: production's document, restricted to the operations
the emulator serves, with the departures listed once each, with its reason: the schemas of
`DEPARTURES` read as they describe, and the 409s of `EMULATOR_409S` added where the emulator
answers one production's operation does not declare.

The operations are read from the emulator's routes (`collect_routes` of the contract mode), so an
operation added to the emulator is fuzzed from the day it is served. Nothing else of the document
changes (`tests/contract/test_fuzz_document.py` compares it with production's): a reader can
verify each reason there.
"""

from __future__ import annotations

import copy
from typing import Any

from docsync.emulator.app import collect_routes
from docsync.emulator.defaults import Contract
from tests.contract.checker import Contract as Checker

_METHODS = ("get", "post", "put", "patch", "delete")

#: The schemas the fuzzer's document reads otherwise than production's, and why (by name).
DEPARTURES: dict[str, str] = {
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


_CONFLICTS = "the emulator's 409 `{}` (README, 'The emulator's 409s')"
#: The operations whose answers the fuzzer takes a 409 from, which production's document does
#: not declare, and why: the emulator's own conflicts, each refusing what production would have
#: to refuse or cascade in some way its document does not say.
EMULATOR_409S: dict[str, str] = {
    "DELETE /collections/{collectionId}": _CONFLICTS.format("collection-not-empty")
    + ": whether deleting a collection deletes what it holds, production does not say",
    "PATCH /orgs/{organizationId}/members/{userId}": _CONFLICTS.format("last-admin")
    + ": an organization nobody could administer",
    "DELETE /orgs/{organizationId}/members/{userId}": _CONFLICTS.format("last-admin"),
    "DELETE /orgs/{organizationId}/teams/{teamId}": _CONFLICTS.format("team-is-saml-default")
    + ": a SAML provider would name a team that is gone",
    "DELETE /orgs/{organizationId}/sites/{siteId}": _CONFLICTS.format("site-is-default-content")
    + ": the organization's defaultContent would name a site that is gone",
    "PATCH /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}": _CONFLICTS.format(
        "path-taken"
    )
    + ": two sections at one URL",
    "PATCH /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}": _CONFLICTS.format(
        "path-taken"
    )
    + ": two site spaces of one level at one URL",
    "POST /orgs/{organizationId}/sites/{siteId}/redirects": _CONFLICTS.format(
        "redirect-source-taken"
    )
    + ": two rules for one path cannot both apply",
    "PATCH /orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}": _CONFLICTS.format(
        "redirect-source-taken"
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
    for operation in EMULATOR_409S:
        method, template = operation.split(" ", 1)
        if template in doc["paths"] and method.lower() in doc["paths"][template]:
            responses = doc["paths"][template][method.lower()]["responses"]
            responses["409"] = {"$ref": "#/components/responses/ConflictError"}
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
    """CreateSpace with its open anyOf part made the plain space it stands for (DEPARTURES)."""
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

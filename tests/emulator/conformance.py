"""Validate emulator answers against the response schemas of the production OpenAPI document.

The document is the pinned contract of `tests/contract/document.py` (fetched by
`scripts/contract.sh`, else `../shared/reference/gitbook-openapi.json`); when it is absent,
`conformance()` skips the calling test with the reason, or fails it under `CI=true`. Usage::

    from tests.emulator.conformance import check_response, conformance

    def test_my_operation(emulator):
        response = emulator.client().get("/v1/orgs/org_acme/teams")
        check_response("GET", "/v1/orgs/{organizationId}/teams", response)

`check_response` asserts that the status is one the operation declares and that the JSON body
validates against that status's schema ($refs resolved). For operations where
docs-platform-api.md and the production document disagree, use `check_schema` with a schema
written from the description instead.
"""

from __future__ import annotations

import functools
from typing import Any

import httpx
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.contract.document import MISSING, load_spec, missing

_URI = "urn:gitbook-openapi"


class Conformance:
    """The production document with a $ref-resolving validator per response schema."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        resource = Resource.from_contents(spec, default_specification=DRAFT202012)
        self.registry: Registry[Any] = Registry().with_resource(_URI, resource)

    def operation(self, method: str, template: str) -> dict[str, Any]:
        """The operation object of `method template` (template with or without `/v1`)."""
        path = template.removeprefix("/v1")
        try:
            operation: dict[str, Any] = self.spec["paths"][path][method.lower()]
        except KeyError:
            raise AssertionError(f"{method} {path} is not in the production document") from None
        return operation

    def check(self, method: str, template: str, status: int, body: Any) -> None:
        """Assert `status` is declared for the operation and `body` matches its schema."""
        operation = self.operation(method, template)
        responses = operation["responses"]
        declared = responses.get(str(status))
        assert declared is not None, (
            f"{method} {template}: status {status} is not declared (declared: {sorted(responses)})"
        )
        pointer = f"/paths/{_escape(template.removeprefix('/v1'))}/{method.lower()}"
        pointer += f"/responses/{status}"
        if "$ref" in declared:
            pointer = declared["$ref"].removeprefix("#")
            declared = self._resolve(pointer)
        content = declared.get("content", {}).get("application/json")
        if content is None:
            assert body in (None, b"", ""), f"{method} {template}: {status} must have no body"
            return
        schema = {"$ref": f"{_URI}#{pointer}/content/application~1json/schema"}
        validator = Draft202012Validator(schema, registry=self.registry)
        errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
        assert not errors, f"{method} {template} {status}: " + "; ".join(
            f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message[:300]}"
            for e in errors[:5]
        )

    def _resolve(self, pointer: str) -> dict[str, Any]:
        node: Any = self.spec
        for part in pointer.strip("/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        assert isinstance(node, dict)
        return node


def _escape(path: str) -> str:
    return path.replace("~", "~0").replace("/", "~1")


@functools.cache
def _load() -> Conformance | None:
    spec = load_spec()
    return None if spec is None else Conformance(spec)


def conformance() -> Conformance:
    """The loaded checker; skips the current test when the reference document is absent."""
    checker = _load()
    if checker is None:
        missing(MISSING)
    assert checker is not None
    return checker


def check_response(method: str, template: str, response: httpx.Response) -> None:
    """Validate one emulator answer against the production document (see module docstring)."""
    body = response.json() if response.content else None
    conformance().check(method, template, response.status_code, body)


def check_schema(schema: dict[str, Any], body: Any, what: str) -> None:
    """Validate `body` against a schema written from docs-platform-api.md (for conflicts)."""
    errors = list(Draft202012Validator(schema).iter_errors(body))
    assert not errors, f"{what}: " + "; ".join(e.message for e in errors[:5])

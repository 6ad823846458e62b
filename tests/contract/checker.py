"""Check requests and answers against the production contract, operation by operation.

`Contract.operation_of(method, path)` finds the production operation behind a concrete URL path
(literal segments beat parameters, so `/sites/published` is not `/sites/{siteId}`).
`check_request` validates the query and JSON body docsync sends against the operation's
parameters and request schema; `check_answer` validates the status and JSON body the emulator
answers against the operation's response schema. Both return `Violation`s naming the operation,
the field and the schema path; what is listed in `tests.contract.conflicts` is not a violation.

The validator is `jsonschema`'s Draft 2020-12 validator with a `referencing` registry: OpenAPI 3.1
schemas are JSON Schema 2020-12, so the reference implementation of that draft reads them exactly
(`$ref` into components, `oneOf` with null, `const`, patterns) with no OpenAPI-3.0 translation
layer in between; one validator per schema is built once and cached. Nearly every body the suite
sees is valid, so each is first given to `jsonschema_rs` (the same draft, in Rust, which
schemathesis brings), a thousand times faster: what it takes passes, and what it refuses is
validated again by `jsonschema`, whose verdict and messages are the check's.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.contract import conflicts
from tests.contract.named import Names

_URI = "urn:gitbook-openapi"
#: a request's field production's schema does not name (conflicts.UNKNOWN_FIELDS)
_UNNAMED = "not named by production's schema: production ignores it (conflicts.UNKNOWN_FIELDS)"
_METHODS = ("get", "post", "put", "patch", "delete")


@dataclass(frozen=True)
class Violation:
    """One refusal: which operation, which side, which field, what the schema says."""

    operation: str  # "POST /orgs/{organizationId}/collections"
    side: str  # "request", "query", "answer 200"
    field: str  # "parent" or "<root>"
    message: str
    schema_path: str  # "properties/parent/type"

    def __str__(self) -> str:
        return (
            f"{self.operation} {self.side}: {self.field}: {self.message} "
            f"(schema path: {self.schema_path})"
        )


@dataclass(frozen=True)
class _RequestSide:
    """What production's document says a request of one operation may carry."""

    #: the query parameters: the pointer to each one's schema, and the schema
    params: dict[str, tuple[str, Any]]
    #: whether the operation takes a request body at all
    takes_body: bool
    #: the pointer to its JSON body's schema (None: it takes none, or not JSON)
    json_schema: str | None


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def _field(error: ValidationError) -> str:
    return ".".join(map(str, error.absolute_path)) or "<root>"


class Contract:
    """The production document, its operations by URL pattern, cached validators."""

    def __init__(self, spec: dict[str, Any], *, strict: bool = False, fast: bool = True) -> None:
        self.spec = spec
        #: no documented conflict is forgiven (an emulator serving `--contract production`)
        self.strict = strict
        resource = Resource.from_contents(spec, default_specification=DRAFT202012)
        self._registry: Registry[Any] = Registry().with_resource(_URI, resource)
        self._validators: dict[str, Draft202012Validator] = {}
        #: the fast path (jsonschema_rs) first; False: jsonschema alone, the reference
        self.fast = fast
        self._fast_registry = jsonschema_rs.Registry([(_URI, spec)])
        self._fast: dict[str, Any] = {}
        #: by number of path segments (a parameter is one), the templates with the most literal
        #: segments first: a request is matched against the templates of its length only
        self._routes: dict[int, list[tuple[int, str, str]]] = {}
        for template in spec["paths"]:
            parts = template.strip("/").split("/")
            literal = sum(1 for p in parts if not p.startswith("{"))
            pattern = "/".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
            self._routes.setdefault(len(parts), []).append((literal, f"/{pattern}", template))
        for routes in self._routes.values():
            routes.sort(key=lambda route: -route[0])
        #: by method and length, those templates in one expression (`_matcher`)
        self._matchers: dict[tuple[str, int], tuple[re.Pattern[str], list[str]]] = {}
        #: what a request to an operation is checked against, by method and template
        self._requests: dict[tuple[str, str], _RequestSide] = {}
        #: what an answer is checked against, by method, template and status (`_answer_side`)
        self._answers: dict[tuple[str, str, int], str | ValidationError | None] = {}
        self._names = Names(spec)

    # -- lookup ---------------------------------------------------------------------------

    def operation_of(self, method: str, path: str) -> str | None:
        """The template of the production operation for `method path` (`/v1` prefix allowed)."""
        path = path.removeprefix("/v1")
        pattern, templates = self._matcher(method.lower(), path.strip("/").count("/") + 1)
        found = pattern.fullmatch(path)
        return None if found is None else templates[int(str(found.lastgroup)[1:])]

    def _matcher(self, method: str, length: int) -> tuple[re.Pattern[str], list[str]]:
        """The templates of `length` segments that have `method`, most literal segments first,
        as one expression of alternatives: the first that matches a path whole is the one a
        scan of them in turn would find, in one call instead of one per template."""
        key = (method, length)
        if key not in self._matchers:
            routes = [
                (pattern, template)
                for _, pattern, template in self._routes.get(length, ())
                if method in self.spec["paths"][template]
            ]
            either = "|".join(f"(?P<t{i}>{pattern})" for i, (pattern, _) in enumerate(routes))
            self._matchers[key] = (
                re.compile(either or "(?!)"),
                [template for _, template in routes],
            )
        return self._matchers[key]

    def _resolve(self, pointer: str) -> Any:
        node: Any = self.spec
        for part in pointer.strip("/").split("/"):
            key = part.replace("~1", "/").replace("~0", "~")
            node = node[int(key)] if isinstance(node, list) else node[key]
        return node

    def _deref(self, node: Any, pointer: str) -> tuple[Any, str]:
        while isinstance(node, dict) and "$ref" in node:
            pointer = node["$ref"].removeprefix("#")
            node = self._resolve(pointer)
        return node, pointer

    def _validate(self, pointer: str, value: Any) -> list[ValidationError]:
        """The errors of `value` under the schema at `pointer` (none when the fast one takes it)."""
        if self.fast and self._fast_validator(pointer).is_valid(value):
            return []
        return self._errors(pointer, value)

    def _fast_validator(self, pointer: str) -> Any:
        fast = self._fast.get(pointer)
        if fast is None:
            fast = jsonschema_rs.Draft202012Validator(
                {"$ref": f"{_URI}#{quote(pointer, safe='/~')}"}, registry=self._fast_registry
            )
            self._fast[pointer] = fast
        return fast

    def _validator(self, pointer: str) -> Draft202012Validator:
        validator = self._validators.get(pointer)
        if validator is None:
            validator = Draft202012Validator({"$ref": f"{_URI}#{pointer}"}, registry=self._registry)
            self._validators[pointer] = validator
        return validator

    def _errors(self, pointer: str, value: Any) -> list[ValidationError]:
        errors = self._validator(pointer).iter_errors(value)
        return sorted(errors, key=lambda e: list(e.absolute_path))

    def _violations(
        self, operation: str, side: str, errors: list[ValidationError], prefix: str = ""
    ) -> list[Violation]:
        found = []
        for error in errors:
            field = prefix + _field(error) if prefix else _field(error)
            if not self.strict and conflicts.allowed(operation, side, field):
                continue
            found.append(
                Violation(
                    operation,
                    side,
                    field,
                    error.message[:300],
                    "/".join(map(str, error.relative_schema_path)),
                )
            )
        return found

    # -- requests --------------------------------------------------------------------------

    def _request_side(self, method: str, template: str) -> _RequestSide:
        """What a request of `method template` is checked against, found in the document once."""
        key = (method, template)
        side = self._requests.get(key)
        if side is not None:
            return side
        base = f"/paths/{_escape(template)}"
        op_pointer = f"{base}/{method.lower()}"
        op = self._resolve(op_pointer)
        params: dict[str, tuple[str, Any]] = {}
        for where, holder in ((base, self.spec["paths"][template]), (op_pointer, op)):
            for index, param in enumerate(holder.get("parameters", [])):
                resolved, pointer = self._deref(param, f"{where}/parameters/{index}")
                if resolved.get("in") == "query":
                    schema, _ = self._deref(self._resolve(f"{pointer}/schema"), f"{pointer}/schema")
                    params[resolved["name"]] = (f"{pointer}/schema", schema)
        request_body, pointer = self._deref(op.get("requestBody"), f"{op_pointer}/requestBody")
        body: str | None = None
        if request_body is not None and "application/json" in request_body.get("content", {}):
            body = f"{pointer}/content/application~1json/schema"
        side = _RequestSide(params, request_body is not None, body)
        self._requests[key] = side
        return side

    def check_request(
        self, method: str, path: str, query: list[tuple[str, str]], body: bytes
    ) -> list[Violation] | None:
        """Violations of one request; None when `path` is no production operation."""
        template = self.operation_of(method, path)
        if template is None:
            return None
        operation = f"{method.upper()} {template}"
        side = self._request_side(method, template)
        found: list[Violation] = []
        for name, raw in query:
            if name not in side.params:
                found += self._violations(
                    operation,
                    "query",
                    [ValidationError(f"unknown query parameter (declared: {sorted(side.params)})")],
                    name,
                )
                continue
            pointer, schema = side.params[name]
            value = _coerce(raw, schema)
            found += self._violations(
                operation, "query", self._validate(pointer, value), name + "="
            )
        if not body:
            return found
        if not side.takes_body:
            found += self._violations(
                operation, "request", [ValidationError("the operation takes no request body")]
            )
            return found
        if side.json_schema is None:
            return found
        value = json.loads(body)
        schema_pointer = side.json_schema
        found += self._violations(operation, "request", self._validate(schema_pointer, value))
        unnamed = self._names.unnamed([self._resolve(schema_pointer)], value)
        errors = [ValidationError(_UNNAMED, path=path.split(".")) for path in unnamed]
        found += self._violations(operation, "request", errors)
        return found

    def accepts(self, method: str, path: str, value: Any) -> bool:
        """Whether production's request schema of `method path` takes `value` as its JSON body,
        no documented conflict forgiven: `check_request`'s verdict, stopping at the first error."""
        template = self.operation_of(method, path)
        assert template is not None, f"{method} {path} is not a production operation"
        op_pointer = f"/paths/{_escape(template)}/{method.lower()}"
        _, pointer = self._deref(
            self._resolve(op_pointer).get("requestBody"), f"{op_pointer}/requestBody"
        )
        schema_pointer = f"{pointer}/content/application~1json/schema"
        # what the fast validator takes passes, as in `_validate`; jsonschema says the rest
        if self.fast and self._fast_validator(schema_pointer).is_valid(value):
            return True
        return bool(self._validator(schema_pointer).is_valid(value))

    # -- answers ---------------------------------------------------------------------------

    def check_answer(
        self, method: str, path: str, status: int, body: bytes
    ) -> list[Violation] | None:
        """Violations of one answer; None when `path` is no production operation."""
        template = self.operation_of(method, path)
        if template is None:
            return None
        operation = f"{method.upper()} {template}"
        side = f"answer {status}"
        schema_pointer = self._answer_side(method, template, status)
        if isinstance(schema_pointer, ValidationError):
            return self._violations(operation, side, [schema_pointer])
        if schema_pointer is None:
            if body:
                return self._violations(operation, side, [ValidationError("must have no body")])
            return []
        try:
            value = json.loads(body)
        except ValueError:
            return self._violations(operation, side, [ValidationError("body is not JSON")])
        return self._violations(operation, side, self._validate(schema_pointer, value))

    def _answer_side(self, method: str, template: str, status: int) -> str | ValidationError | None:
        """The pointer to the JSON schema of an answer of `status` (None: it has no body), or
        why the status is refused; found in the document once per operation and status."""
        key = (method, template, status)
        if key in self._answers:
            return self._answers[key]
        op_pointer = f"/paths/{_escape(template)}/{method.lower()}"
        responses = self._resolve(op_pointer)["responses"]
        found: str | ValidationError | None
        if str(status) in responses or status >= 400:
            # Production declares few error statuses; every error has its `Error` shape.
            pointer = (
                f"{op_pointer}/responses/{status}"
                if str(status) in responses
                else "/components/responses/UnexpectedError"
            )
            declared, pointer = self._deref(self._resolve(pointer), pointer)
            json_content = "application/json" in declared.get("content", {})
            found = f"{pointer}/content/application~1json/schema" if json_content else None
        else:
            message = f"status {status} is not declared (declared: {sorted(responses)})"
            found = ValidationError(message)
        self._answers[key] = found
        return found


def _coerce(raw: str, schema: Any) -> Any:
    """A query string value as the type its schema declares (query values are text on the wire)."""
    kind = schema.get("type") if isinstance(schema, dict) else None
    if kind in ("integer", "number"):
        try:
            return int(raw) if kind == "integer" else float(raw)
        except ValueError:
            return raw
    if kind == "boolean":
        return {"true": True, "false": False}.get(raw, raw)
    if kind == "array":
        return [raw]
    return raw

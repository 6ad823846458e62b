"""What docsync relies on in an answer agrees with production's response schema: every field a
kind's shape requires is one production promises (required), every type is production's, and
every operation a kind reads is one production has. The shapes are the kinds' declarations
(`answer`, read by its list or item routes, a declared route's `answer`, `answers`,
`docsync.api.answers`), so a kind added later is checked too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from docsync.api.answers import (
    ANY,
    FLAG,
    ID,
    NUMBER,
    TEXT,
    Check,
    Either,
    Items,
    Lazy,
    Named,
    Obj,
    Opt,
    Tagged,
)
from docsync.engine.planner import ORGANIZATION
from docsync.kinds import KINDS, CrudKind
from docsync.kinds.kind import Kind
from docsync.kinds.nested.parts import SitePart
from tests.contract.document import require_spec

_TYPES = {id(TEXT): ("string",), id(ID): ("string",), id(FLAG): ("boolean",)}
_TYPES[id(NUMBER)] = ("number", "integer")


def _template(path: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", path.removeprefix("/v1"))


def reads() -> Iterator[tuple[str, str, Check]]:
    """(who, path, shape) of every answer docsync reads and relies on."""
    yield "planner", "/v1/orgs", ORGANIZATION
    for kind in KINDS:
        own = _own(kind)
        for name in own:
            yield kind.name, kind.route(name).path, kind.route(name).answer
        routes = kind.declaration.routes
        for name, route in routes.every().items() if routes is not None else ():
            answer = route.answer or kind.answers.get(name)  # one made of the catalogue
            if name not in own and route.method == "GET" and answer is not None:
                yield kind.name, route.path, answer


def _own(kind: Kind) -> tuple[str, ...]:
    """The routes by which a kind reads its own items, checked for its `answer`: a flat kind's
    list and an item by its path; a site's part's list, or its one object (`read`)."""
    routes = kind.declaration.routes
    if routes is None:
        return ()
    if isinstance(kind, CrudKind):
        return ("list", "read") if routes.read else ("list",)
    if isinstance(kind, SitePart) and kind.declaration.answer is not None:
        return ("read",) if routes.read else ("list",)
    return ()


class Schemas:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.ops = {_template(p): ops for p, ops in spec["paths"].items()}

    def resolve(self, schema: Any) -> dict[str, Any]:
        while isinstance(schema, dict) and "$ref" in schema:
            schema = self.spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
        return schema if isinstance(schema, dict) else {}

    def answer(self, path: str) -> dict[str, Any] | None:
        """The schema of what GET `path` answers: a list's item, or the object."""
        op = self.ops.get(_template(path), {}).get("get")
        if op is None:
            return None
        ok = op["responses"].get("200") or {}
        schema = self.resolve(ok.get("content", {}).get("application/json", {}).get("schema"))
        listed = self.resolve(self.merged(schema).get("properties", {}).get("items", {}))
        return self.resolve(listed["items"]) if listed.get("type") == "array" else schema

    def variants(self, schema: dict[str, Any]) -> list[dict[str, Any]]:
        """A schema's alternatives (oneOf, anyOf, within allOf too), null left out."""
        schema = self.resolve(schema)
        for key in ("oneOf", "anyOf"):
            if key in schema:
                found = [v for s in schema[key] for v in self.variants(s)]
                return [v for v in found if v.get("type") != "null"]
        if "allOf" in schema:
            combos: list[dict[str, Any]] = [{"type": "object", "properties": {}, "required": []}]
            for part in schema["allOf"]:
                combos = [_joined(c, v) for c in combos for v in self.variants(part)]
            return combos
        return [schema]

    def merged(self, schema: dict[str, Any]) -> dict[str, Any]:
        return self.variants(schema)[0] if "allOf" in self.resolve(schema) else schema


def _joined(one: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {**one.get("properties", {}), **other.get("properties", {})},
        "required": [*one.get("required", []), *other.get("required", [])],
    }


def problems(
    shape: Check, schema: dict[str, Any], at: str, s: Schemas, seen: set[Any]
) -> list[str]:
    marker = (id(shape), id(schema))
    if marker in seen:
        return []
    seen = seen | {marker}
    if shape is ANY:
        return []
    if isinstance(shape, Lazy):
        return problems(shape.build(), schema, at, s, seen)
    if isinstance(shape, Named):
        return problems(shape.shapes[shape.name], schema, at, s, seen)
    if isinstance(shape, Opt):
        return problems(shape.check, schema, at, s, seen)
    if isinstance(shape, Either):
        found = [problems(c, schema, at, s, seen) for c in shape.checks]
        return [] if any(not f for f in found) else found[0]
    out: list[str] = []
    for variant in s.variants(schema):
        if isinstance(shape, Tagged):
            tag = s.resolve(variant.get("properties", {}).get(shape.tag, {}))
            values = tag.get("enum") or ([tag["const"]] if "const" in tag else [])
            for value in values:
                if value in shape.shapes:
                    out += problems(shape.shapes[value], variant, f"{at}[{value}]", s, seen)
        elif isinstance(shape, Obj):
            if variant.get("type") not in ("object", None):
                out.append(f"{at}: docsync reads an object, production says {variant.get('type')}")
                continue
            props = variant.get("properties", {})
            for name, field in shape.fields.items():
                where = f"{at}.{name}" if at else name
                if name not in props:
                    out.append(f"{where}: production's answer has no such field")
                    continue
                if not isinstance(field, Opt) and name not in variant.get("required", []):
                    out.append(f"{where}: docsync requires it, production does not promise it")
                out += problems(field, s.resolve(props[name]), where, s, seen)
        elif isinstance(shape, Items):
            if variant.get("type") != "array":
                out.append(f"{at}: docsync reads a list, production says {variant.get('type')}")
            else:
                out += problems(
                    shape.check, s.resolve(variant.get("items", {})), f"{at}[]", s, seen
                )
        elif id(shape) in _TYPES and variant.get("type") not in _TYPES[id(shape)]:
            out.append(
                f"{at}: docsync reads {shape.expected}, production says {variant.get('type')}"
            )
    return out


READS = list(reads())


@pytest.mark.parametrize(("who", "path", "shape"), READS, ids=[f"{w} {p}" for w, p, _ in READS])
def test_what_docsync_relies_on_is_what_production_promises(
    who: str, path: str, shape: Check
) -> None:
    schemas = Schemas(require_spec())
    schema = schemas.answer(path)
    assert schema is not None, f"{who} reads GET {path}, which production does not have"
    assert problems(shape, schema, "", schemas, set()) == [], f"{who}: GET {path}"

"""A site's visitor attributes schema (adaptive content) and the conditions derived from it.

The schema is checked against the production shape `SiteAdaptiveJSONSchema`: an object schema
whose `properties` are claims (`{type, description}` with boolean, string (optional `enum`),
number, array of a primitive, or object of claims), plus an optional `unsigned` object of claims;
`additionalProperties` is false everywhere and every claim needs a `description`.
"""

from __future__ import annotations

from typing import Any

from starlette.routing import BaseRoute

from docsync.emulator.body import UPDATE, At, Body, Field
from docsync.emulator.errors import bad_request
from docsync.emulator.http import Ctx
from docsync.emulator.routes.sites.sites import SITES
from docsync.emulator.singleton import Held, Singleton
from docsync.emulator.snapshot import Loading, kept, obj
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields, json_type

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
UNSIGNED_DESCRIPTION = "Unsigned claims of the site visitor."
MAX_DEPTH = 8
_CLAIM_FIELDS: dict[str, tuple[str, ...]] = {
    "boolean": ("type", "description"),
    "string": ("type", "description", "enum"),
    "number": ("type", "description"),
    "array": ("type", "description", "items"),
    "object": ("type", "description", "properties", "additionalProperties"),
}
_PRIMITIVES = ("boolean", "string", "number")
_ALL_FIELDS = ("type", "description", "enum", "items", "properties", "additionalProperties")


def _require_false(fields: Fields, name: str) -> None:
    if fields.boolean(name, required=True) is not False:
        raise bad_request(f"{fields.prefix}{name}: must be false")


def _as_object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise bad_request(f"{where}: must be an object")
    return value


def _claim(value: Any, where: str, kinds: tuple[str, ...], depth: int) -> None:
    if depth > MAX_DEPTH:
        raise bad_request(f"{where}: claims nest at most {MAX_DEPTH} levels deep")
    data = _as_object(value, where)
    kind = Fields(data, _ALL_FIELDS, f"{where}.", closed=True).enum("type", kinds, required=True)
    assert kind is not None
    fields = Fields(data, _CLAIM_FIELDS[kind], f"{where}.", closed=True)
    fields.string("description", required=True)
    if kind == "string":
        fields.strings("enum")
    elif kind == "array":
        _claim(fields.obj("items", required=True), f"{where}.items", _PRIMITIVES, depth + 1)
    elif kind == "object":
        _require_false(fields, "additionalProperties")
        _claims(fields.obj("properties", required=True) or {}, f"{where}.properties", depth + 1)


def _claims(properties: dict[str, Any], where: str, depth: int) -> None:
    for name, claim in properties.items():
        _claim(claim, f"{where}.{name}", tuple(_CLAIM_FIELDS), depth)


def check_schema(value: Any) -> dict[str, Any]:
    """The `jsonSchema` of a PUT as kept, after checking its shape; 400 naming the offending
    path. Production closes the schema and its claims; `unsigned` is open, so what it does not
    name is dropped."""
    data = _as_object(value, "jsonSchema")
    named = ("$schema", "type", "properties", "additionalProperties")
    fields = Fields(data, named, "jsonSchema.", closed=True)
    fields.enum("$schema", (DRAFT_07,))
    fields.enum("type", ("object",), required=True)
    _require_false(fields, "additionalProperties")
    properties = dict(fields.obj("properties", required=True) or {})
    for name, claim in properties.items():
        where = f"jsonSchema.properties.{name}"
        if name != "unsigned":
            _claim(claim, where, tuple(_CLAIM_FIELDS), 1)
            continue
        unsigned = Fields(
            _as_object(claim, where),
            ("type", "description", "properties", "additionalProperties"),
            f"{where}.",
        )
        unsigned.enum("type", ("object",), required=True)
        unsigned.enum("description", (UNSIGNED_DESCRIPTION,), required=True)
        _require_false(unsigned, "additionalProperties")
        _claims(unsigned.obj("properties", required=True) or {}, f"{where}.properties", 2)
        properties[name] = unsigned.data
    return {**data, "properties": properties}


def template_conditions(properties: dict[str, Any], prefix: str = "visitor.claims") -> list[Any]:
    """One `{description, condition}` per boolean claim, e.g. `visitor.claims.beta`."""
    items: list[Any] = []
    for name, claim in properties.items():
        if claim.get("type") == "boolean":
            items.append({"description": claim["description"], "condition": f"{prefix}.{name}"})
        elif claim.get("type") == "object" or name == "unsigned":
            items.extend(template_conditions(claim.get("properties") or {}, f"{prefix}.{name}"))
    return items


def _schema(at: At, value: Any, name: str) -> Doc:
    if not isinstance(value, dict):
        raise bad_request(f"{name}: must be an object; got {json_type(value)}")
    return check_schema(value)


def _conditions(ctx: Ctx, site: Row, stored: Doc | None) -> Doc:
    properties = stored["jsonSchema"]["properties"] if stored is not None else {}
    return {"items": template_conditions(properties)}


class Schema(Held):
    def seeded(
        self, at: Loading, one: Singleton, params: dict[str, str], answer: Any
    ) -> Doc | None:
        """A site's visitor attributes schema as read."""
        return {"adaptiveSchema": kept(obj(answer), ("jsonSchema", "updatedAt"))}


ADAPTIVE_SCHEMA = Singleton(
    SITES,
    "adaptive-schema",
    lambda ctx, site, stored: {"object": "site-adaptive-schema", **(stored or {})},
    stored_in="adaptiveSchema",
    body=Body((Field("jsonSchema", required=UPDATE, resolve=_schema),)),
    rules=Schema(),
    stamps=("updatedAt",),
    missing="No visitor attributes schema found for site {id!r}",
)

routes: list[BaseRoute] = [
    *ADAPTIVE_SCHEMA.routes(),
    ADAPTIVE_SCHEMA.read("template-conditions", _conditions),
]

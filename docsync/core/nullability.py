"""Where a manifest may write `null`: only where production's request schema takes it.

A field of an entry model accepts `null` only when its annotation carries `NULL` (e.g.
`defaultRole: Annotated[Role | None, NULL] = None`); elsewhere `None` stays the "not written"
default, and an explicit `null` is refused by `docsync validate`, located, with the value. The
markers travel with the models; `tests/contract/test_nullability.py` compares them with the
production OpenAPI document, so a marker can never say more than the API accepts. The JSON
Schema generated from the models (`docsync schema`) follows the same markers, so an editor
refuses the `null` that `validate` refuses.
"""

from __future__ import annotations

import types
import typing
from functools import cache
from typing import Any, NoReturn

from pydantic import (
    BaseModel,
    ConfigDict,
    GetJsonSchemaHandler,
    ModelWrapValidatorHandler,
    ValidationError,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, InitErrorDetails

#: what `validate` says of a refused null (after the field's location)
REFUSED = (
    "null is not accepted here: the API refuses null for this field, so it cannot be removed "
    "(leave the field out to leave it unmanaged); got null"
)
_REFUSED = {"error": ValueError(REFUSED)}


class _Nullable:
    """The marker: `null` written in a manifest means "remove" (or "top level") for this field."""

    def __repr__(self) -> str:
        return "NULL"


NULL = _Nullable()


def nullable(model: type[BaseModel], name: str) -> bool:
    """True when `model.name` carries the NULL marker."""
    field = model.model_fields.get(name)
    return field is not None and any(m is NULL for m in field.metadata)


def admits_none(annotation: Any) -> bool:
    """Whether a field of this type validates `None` (an optional field): only such a field
    needs the marker's check, any other refuses `null` by its type."""
    if annotation is None or annotation is type(None) or annotation is Any:
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return admits_none(typing.get_args(annotation)[0])
    if origin is typing.Union or origin is types.UnionType:
        return any(admits_none(arg) for arg in typing.get_args(annotation))
    if origin is typing.Literal:
        return None in typing.get_args(annotation)
    return False


class NullChecked(BaseModel):
    """Refuses an explicit `null` on every field without the NULL marker.

    One check a model, not a validator a field: pydantic inspects and wraps each field's
    validator when it builds the schema (416 fields: 15 ms of `validate examples/acme`) and
    calls it for each value validated; the model's check looks at the written mapping once,
    and a mapping without a `null` costs one scan of its values."""

    # built with the first model that validates (a kind's entry), not when docsync is imported
    model_config = ConfigDict(defer_build=True)

    @model_validator(mode="wrap")
    @classmethod
    def _null_only_where_accepted(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        if not isinstance(data, dict) or None not in data.values():
            return handler(data)
        refusing = _refusing_null(cls)
        refused = [key for key, value in data.items() if value is None and key in refusing]
        if not refused:
            return handler(data)
        _refuse(cls, data, refused, handler)

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """The model's schema without `null` for a field that has no NULL marker."""
        schema = handler(core_schema)
        properties = handler.resolve_ref_schema(schema).get("properties", {})
        for name, field in cls.model_fields.items():
            prop = properties.get(field.alias or name)
            if prop is not None and not nullable(cls, name):
                _without_null(prop)
        return schema


@cache
def _refusing_null(model: type[BaseModel]) -> frozenset[str]:
    """The keys (as written) whose `null` the check refuses: an optional field's without the
    NULL marker (any other field refuses `null` by its type)."""
    return frozenset(
        field.alias or name
        for name, field in model.model_fields.items()
        if admits_none(field.annotation) and not nullable(model, name)
    )


@cache
def _positions(model: type[BaseModel]) -> dict[str, int]:
    """Each key's field position: pydantic reports a model's errors in its fields' order."""
    return {field.alias or name: i for i, (name, field) in enumerate(model.model_fields.items())}


def _refuse(
    model: type[BaseModel],
    data: dict[str, Any],
    refused: list[str],
    handler: ModelWrapValidatorHandler[Any],
) -> NoReturn:
    """Raise the refused nulls with whatever else the mapping breaks, as one error.

    The other fields are validated without the refused ones, as when each field had its own
    check: a field's error stops the model's own checks (its `model_validator`s of mode
    "after"), whose errors, located at the model, are left out; so is the `missing` of a
    required field written null. The errors keep the fields' order, unknown keys last."""
    found: list[tuple[Any, InitErrorDetails]] = [
        (key, InitErrorDetails(type="value_error", loc=(key,), input=None, ctx=_REFUSED))
        for key in refused
    ]
    try:
        handler({key: value for key, value in data.items() if key not in refused})
    except ValidationError as error:
        for item in error.errors(include_url=False):
            loc = item["loc"]
            if not loc or (item["type"] == "missing" and loc[0] in refused):
                continue
            detail = InitErrorDetails(type=item["type"], loc=loc, input=item["input"])
            if "ctx" in item:
                detail["ctx"] = item["ctx"]
            found.append((loc[0], detail))
    positions = _positions(model)
    found.sort(key=lambda pair: positions.get(pair[0], len(positions)))
    raise ValidationError.from_exception_data(model.__name__, [detail for _, detail in found])


def _without_null(prop: dict[str, Any]) -> None:
    """Drops the `null` alternative (and a `null` default) from one property's schema."""
    if prop.get("default", ...) is None:
        del prop["default"]
    branches = prop.get("anyOf")
    if isinstance(branches, list):
        kept = [b for b in branches if b != {"type": "null"}]
        if len(kept) == 1:
            del prop["anyOf"]
            prop.update(kept[0])
        else:
            prop["anyOf"] = kept
    if isinstance(prop.get("type"), list):
        kinds = [t for t in prop["type"] if t != "null"]
        prop["type"] = kinds[0] if len(kinds) == 1 else kinds
    if isinstance(prop.get("enum"), list):
        prop["enum"] = [v for v in prop["enum"] if v is not None]

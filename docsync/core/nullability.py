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

from typing import Any

from pydantic import BaseModel, ConfigDict, GetJsonSchemaHandler, ValidationInfo, field_validator
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema


class _Nullable:
    """The marker: `null` written in a manifest means "remove" (or "top level") for this field."""

    def __repr__(self) -> str:
        return "NULL"


NULL = _Nullable()


def nullable(model: type[BaseModel], name: str) -> bool:
    """True when `model.name` carries the NULL marker."""
    field = model.model_fields.get(name)
    return field is not None and any(m is NULL for m in field.metadata)


class NullChecked(BaseModel):
    """Refuses an explicit `null` on every field without the NULL marker."""

    # built with the first model that validates (a kind's entry), not when docsync is imported
    model_config = ConfigDict(defer_build=True)

    @field_validator("*", mode="after")
    @classmethod
    def _null_only_where_accepted(cls, value: Any, info: ValidationInfo) -> Any:
        if value is None and info.field_name is not None and not nullable(cls, info.field_name):
            raise ValueError(
                "null is not accepted here: the API refuses null for this field, so it cannot "
                "be removed (leave the field out to leave it unmanaged); got null"
            )
        return value

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

"""Where a manifest may write `null`: only where production's request schema takes it.

A field of an entry model accepts `null` only when its annotation carries `NULL` (e.g.
`defaultRole: Annotated[Role | None, NULL] = None`); elsewhere `None` stays the "not written"
default, and an explicit `null` is refused by `docsync validate`, located, with the value. The
markers travel with the models; `tests/contract/test_nullability.py` compares them with the
production OpenAPI document, so a marker can never say more than the API accepts.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationInfo, field_validator


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

    @field_validator("*", mode="after")
    @classmethod
    def _null_only_where_accepted(cls, value: Any, info: ValidationInfo) -> Any:
        if value is None and info.field_name is not None and not nullable(cls, info.field_name):
            raise ValueError(
                "null is not accepted here: the API refuses null for this field, so it cannot "
                "be removed (leave the field out to leave it unmanaged); got null"
            )
        return value

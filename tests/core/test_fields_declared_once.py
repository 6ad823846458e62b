"""A managed field is declared once: on its entry model's field (`Api`), from which the kind's
`fields` and `answer` are derived. A field or an answer declared twice is refused when the
declaration is made, and every kind's fields come from its model."""

from __future__ import annotations

from typing import Any, get_args

import pytest
from pydantic import BaseModel, RootModel, ValidationError
from pydantic import Field as Limits

from docsync.api.answers import FLAG, ID, TEXT, Obj, Opt
from docsync.kinds.catalogue import CATALOGUE
from docsync.kinds.changes import declared_on
from docsync.kinds.declaration import Api, Declaration, Field


class Font(BaseModel):
    name: str | None = Api(update=False, answer=TEXT).limits(default=None, max_length=64)
    weight: int | None = Api(create=False).limits(default=None)
    italic: bool | None = Api(wire="slanted", answer=Opt(FLAG), answered_as="slanted").limits(
        default=None
    )
    note: str | None = None


class PlainFont(BaseModel):
    name: str | None = Limits(default=None, max_length=64)
    weight: int | None = None
    italic: bool | None = None
    note: str | None = None


def _font(**more: Any) -> Declaration:
    return Declaration("font", "fonts", "font", "name", entry=Font, **more)


def test_the_fields_and_the_answer_are_the_entry_models() -> None:
    font = _font()
    assert [f.name for f in font.fields] == ["name", "weight", "italic"]
    assert font.field("name") == Field("name", update=False, answer=TEXT)
    assert font.field("italic").wire_name == "slanted"
    assert font.answer == Obj({"id": ID, "name": TEXT, "slanted": Opt(FLAG)})
    more = _font(answer_more={"deletedAt": Opt(TEXT)})
    assert more.answer == Obj(
        {"id": ID, "name": TEXT, "slanted": Opt(FLAG), "deletedAt": Opt(TEXT)}
    )


class Fonts(RootModel[dict[str, Font | None]]):
    """Fonts by family: a mapping whose items are the entries."""


def test_a_mappings_fields_are_its_items() -> None:
    assert declared_on(Fonts) == _font().fields


def test_the_plan_order_is_named_when_not_the_models() -> None:
    font = _font(order=("weight", "italic", "name"))
    assert [f.name for f in font.fields] == ["weight", "italic", "name"]
    with pytest.raises(ValueError, match="must name each field"):
        _font(order=("weight", "name"))
    with pytest.raises(ValueError, match="must name each field"):
        _font(order=("weight", "italic", "name", "style"))


def test_a_field_declared_on_the_model_and_in_fields_is_refused() -> None:
    with pytest.raises(ValueError, match="on its entry model and in `fields`"):
        _font(fields=(Field("name"),))


def test_an_answer_declared_twice_is_refused() -> None:
    with pytest.raises(ValueError, match=r"declares the answer's \['name'\] twice"):
        _font(answer_more={"name": TEXT})
    with pytest.raises(ValueError, match="whole and on its fields"):
        _font(answer=Obj({"id": ID, "name": TEXT}))


def test_the_model_validates_and_is_described_as_without_its_fields_declarations() -> None:
    with pytest.raises(ValidationError, match="at most 64 characters"):
        Font(name="x" * 65)
    schema, plain = Font.model_json_schema(), PlainFont.model_json_schema()
    assert schema == {**plain, "title": "Font"}


@pytest.mark.parametrize("declared", [pytest.param(d, id=d.name) for d in CATALOGUE])
def test_every_kind_has_its_fields_from_its_entry_model(declared: Declaration) -> None:
    """Its entry model's (a mapping's: its items'), in the plan's order."""
    on_model = declared_on(declared.entry)
    assert sorted(f.name for f in declared.fields) == sorted(f.name for f in on_model)
    assert all(f in on_model for f in declared.fields)


def _models(entry: type[BaseModel] | None) -> list[type[BaseModel]]:
    """An entry model, or a mapping's item models."""
    if entry is None or not getattr(entry, "__pydantic_root_model__", False):
        return [entry] if entry else []
    values = get_args(get_args(entry.model_fields["root"].annotation)[-1])
    return [v for v in values if isinstance(v, type) and issubclass(v, BaseModel)]


@pytest.mark.parametrize("declared", [pytest.param(d, id=d.name) for d in CATALOGUE])
def test_pydantic_never_meets_a_fields_declaration(declared: Declaration) -> None:
    """Taken out of the model's metadata when the declaration is made, before pydantic builds
    its validator (each unknown item costs it about 20 us a field and a model built)."""
    for model in _models(declared.entry):
        for name, info in model.model_fields.items():
            assert not [m for m in info.metadata if isinstance(m, Field)], name

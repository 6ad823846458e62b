"""A managed field is declared once: on its entry model's field (`Api`), from which the kind's
`fields` and `answer` are derived. A field or an answer declared twice is refused when the
declaration is made, and every kind's fields come from its model."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from pydantic import BaseModel, RootModel

from docsync.api.answers import FLAG, ID, TEXT, Obj, Opt
from docsync.kinds.catalogue import CATALOGUE
from docsync.kinds.changes import declared_on
from docsync.kinds.declaration import Api, Declaration, Field


class Font(BaseModel):
    name: Annotated[str | None, Api(update=False, answer=TEXT)] = None
    weight: Annotated[int | None, Api(create=False)] = None
    """Not managed by itself: the next one is."""
    italic: Annotated[bool | None, Api(wire="slanted", answer=Opt(FLAG), answered_as="slanted")] = (
        None
    )
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


def test_a_marker_naming_what_comes_after_the_model_is_refused() -> None:
    namespace: dict[str, object] = {}
    source = (
        "from __future__ import annotations\n"
        "from typing import Annotated\n"
        "from pydantic import BaseModel\n"
        "from docsync.kinds.declaration import Api\n"
        "class Late(BaseModel):\n"
        "    size: Annotated[int | None, Api(live=_size)] = None\n"
    )
    exec(source, namespace)
    late = namespace["Late"]
    assert isinstance(late, type) and issubclass(late, BaseModel)
    with pytest.raises(TypeError, match=r"Late\.size: its `Api\(...\)` names something"):
        declared_on(late)


@pytest.mark.parametrize("declared", [pytest.param(d, id=d.name) for d in CATALOGUE])
def test_every_kind_has_its_fields_from_its_entry_model(declared: Declaration) -> None:
    """Its entry model's (a mapping's: its items'), in the plan's order."""
    on_model = declared_on(declared.entry)
    assert sorted(f.name for f in declared.fields) == sorted(f.name for f in on_model)
    assert all(f in on_model for f in declared.fields)


@pytest.mark.parametrize("declared", [pytest.param(d, id=d.name) for d in CATALOGUE])
def test_no_field_declares_a_lambda_on_its_model(declared: Declaration) -> None:
    """What a field's `Api(...)` calls is named before its model: pydantic compiles the text of
    each annotation when the model is made, at every import, and a lambda there costs about
    0.1 ms (a name, next to nothing)."""
    for f in declared_on(declared.entry):
        hooks = (f.live, f.normalize, f.write_only)
        named = [getattr(hook, "__name__", "") for hook in hooks if callable(hook)]
        assert "<lambda>" not in named, f"{declared.name}.{f.name}: name its function"

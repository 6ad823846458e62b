"""An explicit `null` is refused on a field without the NULL marker (`docsync.core.nullability`),
with whatever else the mapping breaks, located and in the fields' order, as if each field had
its own check: a refused null stops the model's own rules, a field that is not optional refuses
it by its type, an unknown key is reported after the fields."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from pydantic import ValidationError, model_validator

from docsync.core.entries import Model
from docsync.core.nullability import NULL, REFUSED, NullChecked, admits_none

NAMED = "a rule names something"


class Rule(NullChecked, Model):
    must: str | None
    name: str | None = None
    kept: Annotated[str | None, NULL] = None
    count: int = 0

    @model_validator(mode="after")
    def _named(self) -> Rule:
        if self.name is None and self.kept is None:
            raise ValueError(NAMED)
        return self


class Rules(Model):
    items: list[Rule]


NULL_AT = "Value error, " + REFUSED
CASES: list[tuple[str, dict[str, Any], list[tuple[tuple[Any, ...], str]]]] = [
    ("valid", {"must": "x", "name": "n"}, []),
    ("null where the marker takes it", {"must": "x", "name": "n", "kept": None}, []),
    ("the model's rule alone", {"must": "x", "kept": None}, [((), "Value error, " + NAMED)]),
    ("a refused null stops the model's rule", {"must": "x", "name": None}, [(("name",), NULL_AT)]),
    ("a required field written null", {"must": None, "name": "n"}, [(("must",), NULL_AT)]),
    (
        "with another field's error, in the fields' order",
        {"count": "many", "name": None, "must": "x"},
        [
            (("name",), NULL_AT),
            (("count",), "Input should be a valid integer, unable to parse string as an integer"),
        ],
    ),
    (
        "a field that is not optional refuses null by its type",
        {"must": "x", "name": "n", "count": None},
        [(("count",), "Input should be a valid integer")],
    ),
    (
        "an unknown key after the fields",
        {"other": 1, "name": None, "must": "x"},
        [(("name",), NULL_AT), (("other",), "Extra inputs are not permitted")],
    ),
    (
        "two refused nulls",
        {"name": None, "must": None},
        [(("must",), NULL_AT), (("name",), NULL_AT)],
    ),
]


@pytest.mark.parametrize(("written", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_null_is_refused_where_no_marker_takes_it(
    written: dict[str, Any], expected: list[tuple[tuple[Any, ...], str]]
) -> None:
    nested = {"items": [{"must": "x", "name": "n"}, written]}  # located under its holder
    for model, data, at in ((Rule, written, ()), (Rules, nested, ("items", 1))):
        try:
            model.model_validate(data)
            found: list[tuple[tuple[Any, ...], str]] = []
        except ValidationError as error:
            found = [(tuple(e["loc"]), e["msg"]) for e in error.errors()]
        assert found == [((*at, *loc), message) for loc, message in expected]


@pytest.mark.parametrize(
    ("annotation", "admits"),
    [
        (str, False),
        (str | None, True),
        (Annotated[int | None, NULL], True),
        (Annotated[int, NULL], False),
        (list[str | None], False),
        (Any, True),
    ],
)
def test_only_an_optional_field_needs_the_check(annotation: Any, admits: bool) -> None:
    assert admits_none(annotation) is admits

"""The emulator writes the JSON text Starlette's `JSONResponse` writes and reads what it reads."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.responses import JSONResponse

from docsync.emulator import jsonio

_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.text(st.characters(exclude_categories=["Cs"])),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@given(_values)
def test_answers_are_the_text_starlette_writes(value: Any) -> None:
    assert jsonio.dumps(value) == JSONResponse(value).body
    assert jsonio.FastJSONResponse(value).body == JSONResponse(value).body


@pytest.mark.parametrize("value", [{1: "a", "b": 2}, {"big": 2**70}, [True, {2: [None]}]])
def test_what_orjson_refuses_is_written_by_the_standard_library(value: Any) -> None:
    assert jsonio.dumps(value) == JSONResponse(value).body


def test_reads_fall_back_to_the_standard_library() -> None:
    assert jsonio.loads('{"a": [1, "é", null]}') == {"a": [1, "é", None]}
    assert math.isnan(jsonio.loads('{"x": NaN}')["x"])
    assert jsonio.loads(json.dumps({"s": "\ud800"})) == {"s": "\ud800"}

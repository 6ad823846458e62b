"""The manifest models check what production's request schemas check, field by field.

The requests are read off the kinds' declarations (`Declaration.routes`, `Field.route`, a
part's fields or whole entry): a kind added later is compared without a line here. For each, the
walk (`schema_walk`) compares production's request schema with the JSON Schema of the manifest
model that fills it: types, enums, limits, patterns and formats, nested objects, required keys,
`null`; a field production has and the model lacks is a failure unless `unmanaged` lists it
with its reason. The samples (`schema_samples`) then show it: values production accepts are
accepted by the model, and values it refuses (one field broken at a time) are refused.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError
from pydantic import Field as Limits

from docsync.core.nullability import NULL
from docsync.kinds.declaration import Field
from docsync.kinds.partial import Setting
from tests.contract import unmanaged
from tests.contract.checker import Contract
from tests.contract.declared import operation
from tests.contract.document import require_spec
from tests.contract.observed import as_production_answers
from tests.contract.schema_samples import EXAMPLES, Samples, put
from tests.contract.schema_walk import Doc, Walk
from tests.contract.sent import (
    SENT,
    Sent,
    body_schema,
    compare,
    concrete,
    field_at,
    operation_of,
)
from tests.depth import examples


@pytest.fixture(scope="module")
def contract() -> Contract:
    """What production takes: its document, with what it takes beyond it (`observed`)."""
    return Contract(as_production_answers(require_spec()), strict=True)


@pytest.mark.parametrize("sent", SENT, ids=str)
def test_the_model_checks_what_production_checks(contract: Contract, sent: Sent) -> None:
    findings = compare(contract, sent, set())
    assert not findings, f"{sent}:\n" + "\n".join(findings)


def test_every_listed_difference_is_still_one(contract: Contract) -> None:
    used: set[Any] = set()
    for sent in SENT:
        compare(contract, sent, used)
    tables = unmanaged.listed(contract)
    listed = {
        *tables.unmanaged,
        *tables.differs,
        *tables.same_pattern,
        *tables.not_sent,
        *tables.own_check,
        *(("format", name) for name in unmanaged.UNCHECKED),
    }
    assert not listed - used, f"listed but no longer different: {sorted(listed - used)}"


# -- samples: what production accepts is accepted, what it refuses is refused ----------------

#: what an entry needs besides the field a sample fills (its key, a destination)
BASE: dict[str, dict[str, Any]] = {
    "redirect": {"source": "/old", "destination": {"url": "https://acme.example/new"}},
    "share_link": {"name": "Partners"},
    "mcp_server": {"name": "Billing", "url": "https://mcp.acme.example"},
    "context_connection": {"label": "Status", "connector": "builtin:email"},
    "channel": {"type": "builtin:slack"},
    "translation": {"space": "Guides"},
    "git_sync": {"provider": "github"},
}


def _refuses(model: type[BaseModel], value: Any) -> bool:
    try:
        model.model_validate(value)
    except ValidationError:
        return True
    return False


@dataclass(frozen=True)
class Sample:
    what: str
    body: Any  # what production's request carries
    entry: Any  # what the model validates
    #: None: production accepts it; True: refuses it; False: refuses it, unchecked by its
    #: validator (a format, an unknown key)
    refused: bool | None = None


def _samples(contract: Contract, sent: Sent, operation: str) -> Iterator[Sample]:
    """Every variant of a valid value, then every leaf broken once."""
    production = Doc(contract.spec)
    node = body_schema(contract, operation)
    if sent.items:
        node = production.alternatives(node)[0][0]["properties"][sent.items]["items"]

    def wrap(value: Any) -> Any:
        return {sent.items: [value]} if sent.items else value

    if sent.fields is None:
        # a part written in a shape of docsync's own is not sampled: a valid one is put there
        opaque = [
            tuple(w.split("."))
            for op, w, a in unmanaged.listed(contract).differs
            if (op, a) == (operation, "shape")
        ]
        for path in opaque:
            node = _opaque(production, node, path)

        def whole(value: Any) -> tuple[Any, Any]:
            for path in opaque:
                holder = value
                for name in path[:-1]:
                    holder = holder.get(name) if isinstance(holder, dict) else None
                if isinstance(holder, dict):  # not where a broken sample put another value
                    value = put(value, path, SHAPED[path[-1]])
            return wrap(value), value

        yield from _filled(production, node, (), whole)
        return
    # the shape of production's body that takes what docsync sends (a redirect to upsert)
    shape = max(
        production.alternatives(node)[0],
        key=lambda s: len({f.wire_name for f in sent.fields or ()} & set(s.get("properties", {}))),
    )
    props, required = shape.get("properties", {}), shape.get("required", [])
    minimal = {name: Samples(production).valid(props[name], 0) for name in required}
    base = BASE.get(sent.kind, {})
    for f in sent.fields:
        if f.wire_name in props and f.ref is None and not _listed_shape(contract, operation, f):
            yield from _filled(
                production,
                props[f.wire_name],
                (f.name,),
                lambda v, f=f: (wrap(minimal | {f.wire_name: v}), base | {f.name: v}),
            )


#: a valid value of each field written in a shape of docsync's own, by its name
SHAPED = {"customInstructions": {"object": "document", "data": {}, "nodes": []}}


def _opaque(production: Doc, node: Any, path: tuple[str, ...]) -> Any:
    """`node` with the schema at `path` made an object of no known field (nothing to sample)."""
    if not path:
        return {"type": "object"}
    shapes, _ = production.alternatives(node)
    (shape,) = shapes
    properties = dict(shape["properties"])
    properties[path[0]] = _opaque(production, properties[path[0]], path[1:])
    return {**shape, "properties": properties}


def _filled(
    production: Doc, node: Any, where: tuple[str, ...], place: Callable[[Any], tuple[Any, Any]]
) -> Iterator[Sample]:
    samples = Samples(production)
    for variant in range(samples.width(node)):
        yield Sample(f"{where} variant {variant}", *place(samples.valid(node, variant)))
    for broken in samples.broken():
        value = put(Samples(production).valid(node, broken.variant), broken.path, broken.value)
        yield Sample(f"{where}{broken.path}: {broken.why}", *place(value), broken.checked)


def _listed_shape(contract: Contract, operation: str, f: Field) -> bool:
    return (operation, f.wire_name, "shape") in unmanaged.listed(contract).differs


@pytest.mark.parametrize("sent", SENT, ids=str)
def test_what_production_accepts_is_accepted_and_what_it_refuses_refused(
    contract: Contract, sent: Sent
) -> None:
    operation = operation_of(contract, sent)
    if operation is None or operation in unmanaged.listed(contract).own_check:
        return  # a request docsync never sends (NOT_SENT), or one checked by its own test
    path = concrete(sent.path)
    wrong = []
    for sample in _samples(contract, sent, operation):
        refused = not contract.accepts(sent.method, path, sample.body)
        if (sample.refused is None and refused) or (sample.refused and not refused):
            said = "refuses" if refused else "accepts"
            wrong.append(f"{sample.what}: production {said} it: the sample is wrong")
        elif _refuses(sent.model, sample.entry) == (sample.refused is None):
            said = "accepts" if sample.refused is None else "refuses"
            wrong.append(
                f"{sample.what}: production {said} {json.dumps(sample.entry)[:150]}, the model not"
            )
    assert not wrong, f"{sent}:\n" + "\n".join(wrong[:40])


@functools.cache
def _pattern(contract: Contract, where: tuple[str, str]) -> tuple[str, Sent, Field]:
    """Production's pattern of a field (its kind's route and the field), the request and the
    manifest field."""
    schema, sent, f = field_at(contract, str(operation(contract, where[0])), where[1])
    (theirs,) = [s["pattern"] for s in Doc(contract.spec).alternatives(schema)[0]]
    return theirs, sent, f


#: what texts near a pattern's own are made of
PIECES = (*"/.*%-_~+ aZ09é", "%2F", "%zz", "io")


def _edits(text: str) -> Iterator[str]:
    """Every text one edit away: a piece put in, put instead, or a character taken out."""
    for at in range(len(text) + 1):
        yield text[:at] + text[at + 1 :]
        for piece in PIECES:
            yield text[:at] + piece + text[at:]
            yield text[:at] + piece + text[at + 1 :]


def _agree(contract: Contract, where: tuple[str, str], text: str) -> bool:
    theirs, sent, f = _pattern(contract, where)
    production = re.search(theirs, text, re.ASCII) is not None
    return _refuses(sent.model, BASE.get(sent.kind, {}) | {f.name: text}) != production


@pytest.mark.parametrize("where", unmanaged.SAME_PATTERNS, ids=" ".join)
def test_patterns_written_differently_take_the_same_texts(
    contract: Contract, where: tuple[str, str]
) -> None:
    """Production's pattern (JSON Schema: ECMA, `\\w` ASCII) against the model's check, on
    every text one edit away from those production takes (a proxy's host and path, a
    redirect's source)."""
    theirs, _, _ = _pattern(contract, where)
    texts = {near for text in EXAMPLES[theirs][0] for near in _edits(text)}
    assert not [t for t in sorted(texts) if not _agree(contract, where, t)]


@pytest.mark.parametrize("where", unmanaged.SAME_PATTERNS, ids=" ".join)
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_patterns_written_differently_agree_on_drawn_texts(
    contract: Contract, where: tuple[str, str], data: st.DataObject
) -> None:
    """The same, on texts several edits away, and on texts of those pieces alone."""
    theirs, _, _ = _pattern(contract, where)
    text = data.draw(
        st.one_of(
            st.sampled_from(EXAMPLES[theirs][0]), st.lists(st.sampled_from(PIECES)).map("".join)
        )
    )
    for _ in range(data.draw(st.integers(1, 4))):
        text = data.draw(st.sampled_from(sorted(_edits(text))))
    assert _agree(contract, where, text), text


class _Planted(Setting):
    """A model that differs from `_PLANTED` in every way the walk looks at."""

    required = ("theme",)
    theme: Literal["clean"] | None = None
    size: str | None = Limits(default=None, max_length=6)
    colour: Annotated[str | None, NULL] = None


_PLANTED = {
    "type": "object",
    "properties": {
        "theme": {"type": "string", "enum": ["clean", "bold"]},
        "size": {"type": "string", "maxLength": 5},
        "colour": {"type": "string"},
        "depth": {"type": "boolean"},
    },
    "required": ["theme", "size"],
}


def test_the_walk_finds_what_differs() -> None:
    """The comparison can fail: each difference planted in a model is a finding."""
    mine = _Planted.model_json_schema()
    walk = Walk(Doc(_PLANTED), Doc(mine), lambda *_: False, {"_Planted": _Planted}, {})
    walk.value("", _PLANTED, mine)
    assert sorted(f.split(": ")[0] for f in walk.findings) == [
        "<body>",  # required: production asks for `size` too
        "colour",  # null: the model takes it, production not
        "depth",  # unmanaged: production has it, the model not
        "size",  # maxLength
        "theme",  # enum: `bold`
    ]
    samples = list(_filled(Doc(_PLANTED), _PLANTED, (), lambda v: (v, v)))
    accepted = [s for s in samples if s.refused is None]
    assert any(_refuses(_Planted, s.entry) for s in accepted)  # `bold`, `depth`: refused

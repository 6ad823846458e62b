"""The managed shares of production's configuration, counted as docs/manifest.md says: every
write operation of production's document classified once (`write_operations.py`, the managed
ones read off the catalogue where its declarations name them), and every property of a managed
operation's request body (`write_fields.py`, the manifest keys read off the declarations);
nothing listed that the document or the catalogue no longer has; at least 90% of the
configuration operations managed and 98% of their configuration fields written by a manifest;
the figures the documents state the ones counted (`shares.py`)."""

from __future__ import annotations

from collections import Counter

import pytest

from docsync.api.contract import (
    DIFFERS,
    KEY,
    LEAVES,
    LEFT_OUT,
    NOT_CONFIGURATION,
    NOT_MANAGED,
    NOT_SENT,
    OF_A_FIELD,
    OWN_CHECK,
    SENDS,
    STRUCTURE,
)
from tests.contract import shares
from tests.contract import write_fields as fields
from tests.contract import write_operations as table
from tests.contract.checker import Contract
from tests.contract.declared import Noted, located, notes, operation
from tests.contract.document import require_spec

#: what the kinds say of an operation
OF_AN_OPERATION = (SENDS, LEAVES, NOT_SENT, OWN_CHECK)
#: what the kinds say of how a property of a request they send is written, or why not
FIELD_SHARE = (KEY, STRUCTURE, NOT_CONFIGURATION, LEFT_OUT, NOT_MANAGED)


@pytest.fixture(scope="module")
def contract() -> Contract:
    return Contract(require_spec())


def test_every_write_operation_is_classified_once(contract: Contract) -> None:
    derived = table.managed_by(contract)
    said = [op for op, _ in located(contract, SENDS, LEAVES)]
    listed = Counter([*derived, *said, *table.NOT_CONFIGURATION])
    every = table.writes(contract)
    unclassified = [op for op in every if op not in listed]
    assert unclassified == [], (
        "classify each: in its kind's module (`contract`: SENDS, LEAVES), or as not "
        "configuration in tests/contract/write_operations.py"
    )
    twice = sorted(op for op, n in listed.items() if n > 1)
    who = _who(contract, twice)
    assert twice == [], f"classified twice (a kind manages it now: drop the note): {who}"
    gone = sorted(op for op in listed if op not in every)
    assert gone == [], "listed, but not an operation of production's document"


def _who(contract: Contract, operations: list[str]) -> dict[str, list[str]]:
    """The kinds whose notes name each operation."""
    found: dict[str, list[str]] = {op: [] for op in operations}
    for op, said in located(contract, SENDS, LEAVES):
        if op in found:
            found[op].append(_named(said))
    return found


def _named(said: Noted) -> str:
    return f"{said.kind}: {said.note.what} {said.note.operation}"


def test_every_note_names_an_operation_of_production(contract: Contract) -> None:
    """A kind's note of an operation names it by the kind's own route: one production has."""
    wrong = [
        _named(said)
        for said in notes(*OF_AN_OPERATION, *OF_A_FIELD, *DIFFERS)
        if said.note.what != NOT_SENT and operation(contract, said.note.operation) is None
    ]
    assert wrong == []


def test_at_least_90_percent_of_configuration_writes_are_managed(contract: Contract) -> None:
    share = table.share(contract)
    print(share.line())  # `pytest -s`, or `bash scripts/managed-share` with what is left
    assert share.percent >= 90, share.line()


def test_every_field_of_a_managed_operation_is_classified_once(contract: Contract) -> None:
    every = fields.properties(contract)
    derived = fields.derived_keys(contract)
    said = [prop for prop, _ in _properties(contract, *FIELD_SHARE)]
    listed = Counter([*derived, *said])
    unclassified = [prop for prop in every if prop not in listed]
    assert unclassified == [], (
        "classify each in the module of the kind that sends it (`contract`: KEY, STRUCTURE, "
        "NOT_CONFIGURATION, LEFT_OUT, NOT_MANAGED)"
    )
    twice = sorted(prop for prop, n in listed.items() if n > 1)
    assert twice == [], "classified twice (a declaration now names it: drop its note)"
    gone = sorted(prop for prop in listed if prop not in every)
    assert gone == [], "listed, but no property of a managed operation's request body"


def _properties(contract: Contract, *what: str) -> list[tuple[tuple[str, str], str]]:
    return [((op, said.note.field), said.kind) for op, said in located(contract, *what)]


def test_at_least_98_percent_of_the_fields_a_manifest_can_write_are_written(
    contract: Contract,
) -> None:
    share = fields.share(contract)
    print(share.line())  # `pytest -s`, or `bash scripts/managed-share` with what is left
    assert share.percent >= 98, share.line()


def test_the_documents_state_the_figures_counted(contract: Contract) -> None:
    for path in shares.STATED:
        text = path.read_text("utf-8")
        named = {match["name"] for match in shares.COUNTED.finditer(text)}
        assert named == set(shares.FIGURES), f"{path.name} states {sorted(named)}"
        assert shares.stated(text, contract) == text, (
            f"{path.name} states other figures than those counted: bash scripts/generate"
        )

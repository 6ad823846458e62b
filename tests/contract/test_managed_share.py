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

from docsync.kinds.catalogue import CATALOGUE
from tests.contract import shares
from tests.contract import write_fields as fields
from tests.contract import write_operations as table
from tests.contract.checker import Contract
from tests.contract.document import require_spec


@pytest.fixture(scope="module")
def contract() -> Contract:
    return Contract(require_spec())


def test_every_write_operation_is_classified_once(contract: Contract) -> None:
    derived = table.managed_by(contract)
    listed = Counter(
        [
            *derived,
            *table.ALSO_MANAGED,
            *table.NOT_CONFIGURATION,
            *table.NOT_MANAGED,
        ]
    )
    every = table.writes(contract)
    unclassified = [op for op in every if op not in listed]
    assert unclassified == [], "classify each in tests/contract/write_operations.py"
    twice = sorted(op for op, n in listed.items() if n > 1)
    assert twice == [], "classified twice (a kind now names it: drop its line)"
    gone = sorted(op for op in listed if op not in every)
    assert gone == [], "listed, but not an operation of production's document"


def test_what_is_managed_by_hand_names_a_kind_of_the_catalogue() -> None:
    unknown = {
        op: kind for op, (kind, _) in table.ALSO_MANAGED.items() if kind not in CATALOGUE.by_name
    }
    assert unknown == {}


def test_at_least_90_percent_of_configuration_writes_are_managed(contract: Contract) -> None:
    share = table.share(contract)
    print(share.line())  # `pytest -s`, or `bash scripts/managed-share` with what is left
    assert share.percent >= 90, share.line()


def test_every_field_of_a_managed_operation_is_classified_once(contract: Contract) -> None:
    every = fields.properties(contract)
    derived = fields.derived_keys(contract)
    listed = Counter(
        [
            *derived,
            *fields.KEYS,
            *fields.STRUCTURE,
            *fields.NOT_CONFIGURATION,
            *fields.LEFT_OUT,
            *fields.NOT_MANAGED,
        ]
    )
    unclassified = [prop for prop in every if prop not in listed]
    assert unclassified == [], "classify each in tests/contract/write_fields.py"
    twice = sorted(prop for prop, n in listed.items() if n > 1)
    assert twice == [], "classified twice (a declaration now names it: drop its line)"
    gone = sorted(prop for prop in listed if prop not in every)
    assert gone == [], "listed, but no property of a managed operation's request body"


def test_at_least_98_percent_of_the_fields_a_manifest_can_write_are_written(
    contract: Contract,
) -> None:
    share = fields.share(contract)
    print(share.line())  # `pytest -s`, or `bash scripts/managed-share` with what is left
    assert share.percent >= 98, share.line()


def test_the_keys_by_hand_name_a_kind_of_the_catalogue() -> None:
    unknown = {
        prop: kind for prop, (kind, _) in fields.KEYS.items() if kind not in CATALOGUE.by_name
    }
    assert unknown == {}


def test_the_documents_state_the_figures_counted(contract: Contract) -> None:
    for path in shares.STATED:
        text = path.read_text("utf-8")
        named = {match["name"] for match in shares.COUNTED.finditer(text)}
        assert named == set(shares.FIGURES), f"{path.name} states {sorted(named)}"
        assert shares.stated(text, contract) == text, (
            f"{path.name} states other figures than those counted: bash scripts/generate"
        )

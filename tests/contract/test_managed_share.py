"""The managed share of production's configuration writes, counted as docs/manifest.md says
(`write_operations.py`): every write operation of production's document classified once (the
managed ones read off the catalogue where its declarations name them), nothing listed that the
document or the catalogue no longer has, at least 90% of the configuration ones managed, and
the figure the documents state the one counted."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from docsync.kinds.catalogue import CATALOGUE
from tests.contract import write_operations as table
from tests.contract.checker import Contract
from tests.contract.document import require_spec

REPO = Path(__file__).resolve().parents[2]
#: where the documents state the figure
STATED = (REPO / "docs" / "manifest.md", REPO / "README.md")
FIGURE = re.compile(r"(\d+) of (\d+)\s+configuration\s+write\s+operations")


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


def test_the_documents_state_the_figure_counted(contract: Contract) -> None:
    counted = table.share(contract)
    for path in STATED:
        found = FIGURE.findall(path.read_text("utf-8"))
        assert found, f"{path.name} states no figure ('N of M configuration write operations')"
        for managed, configuration in found:
            assert (int(managed), int(configuration)) == (
                len(counted.managed),
                len(counted.configuration),
            ), f"{path.name}: {counted.line()}"

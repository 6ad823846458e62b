"""Contract fuzzing in the suite: schemathesis generates requests from production's document for
every configuration operation the emulator serves, in both contract modes, with a fixed seed and
the five checks of tests/contract/fuzz.py; `scripts/fuzz` runs longer."""

from __future__ import annotations

import pytest

from docsync.emulator.defaults import Contract
from tests.contract.document import require_spec
from tests.contract.fuzz import run
from tests.contract.fuzz_document import served_operations
from tests.contract.fuzz_plugin import SUMMARIES

#: generated requests per operation and mode: ~180 operations give over 1,000 requests
EXAMPLES = 10
MINIMUM = 1000


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["description", "production"])
def test_the_emulator_answers_what_production_would(mode: Contract) -> None:
    require_spec()
    report = run(mode, examples=EXAMPLES)
    SUMMARIES.append(report.summary())
    assert not report.failures and not report.errors, f"{report.summary()}\n{report.problems()}"
    served = {
        f"{method.upper()} {template}"
        for template, methods in served_operations(require_spec(), mode).items()
        for method in methods
    }
    assert set(report.requests) == served, served ^ set(report.requests)  # none left out
    assert report.total >= MINIMUM, report.summary()

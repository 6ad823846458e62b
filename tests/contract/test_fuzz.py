"""Contract fuzzing in the suite: schemathesis generates requests from production's document for
every configuration operation the emulator serves, in both contract modes, with a fixed seed and
the five checks of tests/contract/fuzz.py; `scripts/fuzz` runs longer."""

from __future__ import annotations

import pytest

from docsync.emulator.defaults import Contract
from tests.contract.document import require_spec
from tests.contract.fuzz_document import served_operations
from tests.contract.fuzz_plugin import SUMMARIES
from tests.depth import examples

#: generated requests per operation and mode: the suite's fixed budget, ~180 operations giving
#: over 500 requests per mode (ten times that under `scripts/test --deep`; `scripts/fuzz` is the
#: long run, with the coverage and stateful phases). Each mode draws its own cases (a seed
#: each): most operations answer alike in both modes, so two seeds of 3 examples send 6
#: different requests to each such operation where one seed would send the same 3 twice
EXAMPLES = examples(3)
SEEDS: dict[Contract, int] = {"description": 25, "production": 26}
#: requests per mode at least: a few operations have fewer distinct requests than EXAMPLES
MINIMUM = 160 * EXAMPLES


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["description", "production"])
def test_the_emulator_answers_what_production_would(mode: Contract) -> None:
    require_spec()
    # schemathesis is imported here, by the one worker that fuzzes: every xdist worker collects
    # every module, and the others would each pay its import (about a fifth of a collection)
    from tests.contract.fuzz import run

    report = run(mode, examples=EXAMPLES, seed=SEEDS[mode])
    SUMMARIES.append(report.summary())
    assert not report.failures and not report.errors, f"{report.summary()}\n{report.problems()}"
    served = {
        f"{method.upper()} {template}"
        for template, methods in served_operations(require_spec(), mode).items()
        for method in methods
    }
    assert set(report.requests) == served, served ^ set(report.requests)  # none left out
    assert report.total >= MINIMUM, report.summary()

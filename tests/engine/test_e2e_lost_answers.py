"""Every kind, and every part a kind writes under its entries, converges in one apply when the
answers of its writes are lost: cut after the server carried them out, or refused with a 5xx
before it did (a create then cannot tell which: it looks before it sends again). Each kind
declares its scenario in its module (`Declaration.lost_answers`: a flat kind's entry created,
changed and made absent; a site's parts in one organization), read here off the catalogue;
`COVERED` is what the catalogue test holds every kind's `writes` to, so a kind added without a
scenario fails there."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.kinds import CATALOGUE
from docsync.kinds.requests import Lose, LostAnswers
from tests.emulator_harness import EmulatorHandle
from tests.engine.conftest import Docsync, Write, apply_ok, assert_converged
from tests.engine.faultkit import duplicates

#: what is retried and that it converges is tested here, not how long the client waits
pytestmark = pytest.mark.usefixtures("quick_retries")

#: every kind's scenarios, by name
SCENARIOS: dict[str, LostAnswers] = {
    scenario.name: scenario for declared in CATALOGUE for scenario in declared.lost_answers
}
#: the writes the scenarios cover (`Kind.writes`' names): the declaring kind's, and `covers`
COVERED = {
    name
    for declared in CATALOGUE
    for scenario in declared.lost_answers
    for name in (declared.name, *scenario.covers)
}


def rule(lose: Lose) -> dict[str, Any]:
    """The emulator's fault rule: the next `count` writes matching carried out, then the
    connection cut; or answered 500 without being carried out."""
    matched = {"method": lose.method, "path": lose.path, "count": lose.count}
    return matched | ({"drop": True} if lose.carried_out else {"status": 500})


def injected(emulator: EmulatorHandle) -> int:
    return sum(emulator.stats()["faults"].values())


def test_scenarios_are_named_once() -> None:
    named = [s.name for declared in CATALOGUE for s in declared.lost_answers]
    assert len(named) == len(SCENARIOS), named


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_writes_whose_answers_are_lost_converge_in_one_apply(
    docsync: Docsync, emulator: EmulatorHandle, write: Write, name: str
) -> None:
    scenario = SCENARIOS[name]
    apply_ok(docsync, write("m.yaml", scenario.setup))
    for step in scenario.steps:
        path = write("m.yaml", step.manifest)
        before = injected(emulator)
        emulator.set_faults(rules=[rule(lose) for lose in step.lose])
        result = apply_ok(docsync, path)
        assert injected(emulator) - before == sum(lose.count for lose in step.lose), result.output
        emulator.set_faults()
        assert_converged(docsync, path)
        assert duplicates(emulator) == []

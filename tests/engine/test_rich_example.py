"""The rich example writes every kind of the catalogue and every part a kind writes under its
entries, in one of its stages: the fault soak (scripts/soak) covers a kind only where the
example writes it, so a kind added without a stage writing it fails here."""

from __future__ import annotations

import itertools

from tests.engine.rich import STAGES, every_written, written_by


def test_every_kind_and_part_is_written_by_a_stage_of_the_rich_example() -> None:
    written = set().union(*(written_by(stage) for stage in STAGES))
    assert [name for name in every_written() if name not in written] == []


def test_each_stage_writes_what_the_one_before_it_wrote() -> None:
    stages = [written_by(stage) for stage in STAGES]
    for before, after in itertools.pairwise(stages):
        assert before <= after

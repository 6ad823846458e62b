"""The bound on problems shown: the first ones, how many more and how to see them all; a long
list of allowed values written out once; plan problems (plain lines) bounded alike."""

from __future__ import annotations

import click
import pytest

from docsync.cli.problems import DEFAULT_LIMIT, ProblemLimit, problem_lines
from docsync.manifest.problems import Location, Problem

LANGUAGES = ("en", "fr", "de")


def _unknown(line: int) -> Problem:
    return Problem(Location("a.yaml", line, 7), ("x", f"k{line}"), "not an allowed key", LANGUAGES)


def test_the_first_problems_then_how_many_more() -> None:
    problems = [_unknown(line) for line in range(1, 31)]
    lines = problem_lines(problems, DEFAULT_LIMIT)
    assert len(lines) == DEFAULT_LIMIT + 1
    assert lines[0] == "a.yaml:1:7: x.k1: not an allowed key (allowed: 'en', 'fr', 'de')"
    assert lines[1] == "a.yaml:2:7: x.k2: not an allowed key (allowed: the 3 values listed above)"
    assert lines[-1] == (
        "... and 10 more problems; --max-problems all (or DOCSYNC_MAX_PROBLEMS=all) shows every one"
    )
    assert len(problem_lines(problems, None)) == 30
    assert problem_lines(problems[:2], 1)[-1].startswith("... and 1 more problem;")


def test_another_list_is_written_out_where_it_first_comes() -> None:
    other = Problem(Location("a.yaml", 9, 1), ("y",), "should be one of 2 values", ("a", "b"))
    lines = problem_lines([_unknown(1), other, _unknown(10)], None)
    assert lines[1].endswith("(allowed: 'a', 'b')")
    assert lines[2].endswith("(allowed: the 3 values listed above)")


def test_plan_problems_are_bounded_alike() -> None:
    lines = problem_lines([f"a.yaml:{i}:1: names nothing" for i in range(25)], 3)
    assert lines[:3] == [f"a.yaml:{i}:1: names nothing" for i in range(3)]
    assert lines[3].startswith("... and 22 more problems;")


@pytest.mark.parametrize(("given", "limit"), [("20", 20), ("1", 1), ("all", None), ("ALL", None)])
def test_a_limit_is_a_count_or_all(given: str, limit: int | None) -> None:
    assert ProblemLimit().convert(given, None, None) == limit


@pytest.mark.parametrize("given", ["0", "-1", "many", ""])
def test_no_problems_at_all_is_not_a_limit(given: str) -> None:
    with pytest.raises(click.BadParameter, match="a count of at least 1, or 'all'"):
        ProblemLimit().convert(given, None, None)

"""The `--cpu` table (tests/cpu_report.py): what workers send adds up, and the table ranks it."""

from __future__ import annotations

import pytest

from tests.cpu_report import LARGEST, Account, report


def test_what_workers_send_adds_up_in_the_controller() -> None:
    first = Account(1.5, 0.25, {"tests/a.py::one": (2.0, 0.5), "tests/b.py::two": (1.0, 0.0)})
    second = Account(1.25, 0.5, {"tests/a.py::three": (0.5, 3.0)})
    merged = Account()
    for sent in (first, second):
        merged.merge(Account.loads(sent.dumps()))
    assert merged == Account(
        2.75,
        0.75,
        {
            "tests/a.py::one": (2.0, 0.5),
            "tests/b.py::two": (1.0, 0.0),
            "tests/a.py::three": (0.5, 3.0),
        },
        workers=2,
    )
    lines = report(merged)
    assert lines[0] == (
        "cpu: 9.8 s in 2 test process(es): 2.8 s before their first test (imports, "
        "collection), 3.5 s in the tests themselves (the cycle collector 0.8 s of the whole), "
        "3.5 s in processes the tests started"
    )
    modules = lines[2:4]
    assert modules == [
        "    6.00 s  tests/a.py  (2.50 + 3.50)",
        "    1.00 s  tests/b.py  (1.00 + 0.00)",
    ]
    assert lines[5].startswith("    3.50 s  tests/a.py::three  (0.50 + 3.00)")


@pytest.mark.parametrize("count", [LARGEST - 1, LARGEST, LARGEST + 5])
def test_the_table_lists_at_most_the_largest(count: int) -> None:
    tests = {f"tests/m{i}.py::t": (float(i), 0.0) for i in range(count)}
    lines = report(Account(0.0, 0.0, tests))
    shown = min(count, LARGEST)
    assert len(lines) == 3 + 2 * shown
    assert lines[2].startswith(f"  {count - 1:6.2f} s  tests/m{count - 1}.py")

"""Golden tests: each directory under golden/ is a broken manifest set with its exact output.

Regenerate after an intended change with DOCSYNC_UPDATE_GOLDEN=1 (tests/golden.py) and review the
diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden import check_golden
from tests.manifest.conftest import run_validate

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(path.name for path in GOLDEN.iterdir() if path.is_dir())
SECRET = "hunter2-golden-secret"


@pytest.mark.parametrize("case", CASES)
def test_golden(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(GOLDEN)
    monkeypatch.setenv("DOCSYNC_GOLDEN_SECRET", SECRET)
    monkeypatch.delenv("DOCSYNC_GOLDEN_UNSET", raising=False)
    # Every problem, as each case's lines are: the bound is tested on its own (test_mistakes).
    result = run_validate(case, "--var", "team_name=From Var", "--max-problems", "all")
    assert result.exception is None or isinstance(result.exception, SystemExit)
    actual = f"exit {result.exit_code}\n--- stdout\n{result.stdout}--- stderr\n{result.stderr}"
    check_golden(GOLDEN / case / "expected.txt", actual)
    assert SECRET not in actual


def test_every_golden_error_line_is_located() -> None:
    for case in CASES:
        expected = (GOLDEN / case / "expected.txt").read_text(encoding="utf-8")
        stderr = expected.split("--- stderr\n", 1)[1]
        for line in stderr.splitlines():
            assert line.startswith(f"{case}/"), line
            location = line.split(": ", 1)[0]
            _, row, column = location.rsplit(":", 2)
            assert int(row) >= 1 and int(column) >= 1, line

"""The golden helper itself: a difference or a missing file fails, the update mode writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden import UPDATE, check_golden, golden_files, stable


def test_stable_numbers_generated_ids_and_keeps_seeded_ones() -> None:
    made, other = "abcdefghij0123456789", "ZYXWVUTSRQ9876543210"
    text = f"{made} u_ada 2026-11-23T13:10:45.123Z {made} {other}"
    assert stable(text) == "<id-1> u_ada <time> <id-1> <id-2>"
    assert stable('"docsync_version": "0.1.0+g1234"') == '"docsync_version": "<version>"'


def test_a_difference_or_a_missing_file_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(UPDATE, raising=False)
    path = tmp_path / "out.txt"
    with pytest.raises(AssertionError, match="missing"):
        check_golden(path, "text\n")
    path.write_text("text\n", encoding="utf-8")
    check_golden(path, "text\n")
    with pytest.raises(AssertionError, match=f"differs.*{UPDATE}=1"):
        check_golden(path, "other\n")


def test_the_update_mode_writes_what_it_compares(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(UPDATE, "1")
    golden_files(tmp_path / "golden", stable)("case/out.txt", "id abcdefghij0123456789\n")
    assert (tmp_path / "golden/case/out.txt").read_text("utf-8") == "id <id-1>\n"

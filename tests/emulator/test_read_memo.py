"""The store's read memo: reads are remembered across transactions, never past a change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from docsync.emulator import store_rows
from docsync.emulator.store import Store


def _counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many rows were decoded from the database (not answered from the memo)."""
    counted = {"rows": 0}
    real = store_rows.decode

    def counting(values: tuple[Any, ...]) -> Any:
        counted["rows"] += 1
        return real(values)

    monkeypatch.setattr(store_rows, "decode", counting)
    return counted


def _store() -> Store:
    store = Store()
    with store.transaction() as tx:
        tx.insert("team", "t1", {"title": "A"}, org="o")
        tx.insert("team", "t2", {"title": "B"}, org="o")
        tx.insert("team-member", "t1/u1", {"user": "u1"}, org="o", parent="t1")
        tx.insert("user", "u1", {"id": "u1", "email": "a@x.example", "token": "tok"})
    return store


def test_reads_are_remembered_across_transactions(monkeypatch: pytest.MonkeyPatch) -> None:
    store = _store()
    counted = _counting(monkeypatch)
    for _ in range(3):
        with store.transaction() as tx:
            assert [r.id for r in tx.rows("team", org="o")] == ["t1", "t2"]
            assert tx.get("team", "t2") == {"title": "B"}
            assert sorted(tx.get_many("team", ["t2", "t1", "t9"])) == ["t1", "t2"]
            assert tx.count_under("team-member", ["t1", "t2"]) == {"t1": 1, "t2": 0}
            assert tx.count_by_user("team-member", "o", ["u1", "u2"]) == {"u1": 1}
            assert [r.id for r in tx.by_user("team-member", "o", "u1")] == ["t1/u1"]
            assert tx.user_by_token("tok") == {"id": "u1", "email": "a@x.example", "token": "tok"}
    assert counted["rows"] == 3  # the teams once, the membership once


def test_a_write_is_read_back_at_once_and_afterwards() -> None:
    store = _store()
    with store.transaction() as tx:
        assert tx.get("team", "t1") == {"title": "A"}
        assert tx.count("team-member", parent="t2") == 0
        tx.update("team", "t1", {"title": "A2"})
        tx.insert("team-member", "t2/u1", {"user": "u1"}, org="o", parent="t2")
        assert tx.get("team", "t1") == {"title": "A2"}
        assert tx.count("team-member", parent="t2") == 1
    with store.transaction() as tx:
        assert tx.get("team", "t1") == {"title": "A2"}
        assert tx.count_by_user("team-member", "o", ["u1"]) == {"u1": 2}
        tx.delete("team", "t2")
    with store.transaction() as tx:
        assert tx.get("team", "t2") is None
        assert [r.id for r in tx.rows("team", org="o")] == ["t1"]
        tx.reorder([("team", "t1")])
        tx.insert("team", "t0", {"title": "Z"}, org="o")
    with store.transaction() as tx:
        assert [r.id for r in tx.rows("team", org="o")] == ["t1", "t0"]


def test_a_rolled_back_write_is_not_remembered() -> None:
    store = _store()
    with pytest.raises(RuntimeError), store.transaction() as tx:
        tx.update("team", "t1", {"title": "Gone"})
        assert tx.get("team", "t1") == {"title": "Gone"}  # read after the write: in the memo
        raise RuntimeError("boom")
    with store.transaction() as tx:
        assert tx.get("team", "t1") == {"title": "A"}


def test_a_commit_by_another_connection_to_the_file_is_seen(tmp_path: Path) -> None:
    path = str(tmp_path / "state.db")
    first, second = Store(path), Store(path)
    with first.transaction() as tx:
        tx.insert("team", "t1", {"title": "A"}, org="o")
    with first.transaction() as tx:
        assert tx.get("team", "t1") == {"title": "A"}
        assert tx.count("team-member", parent="t1") == 0
    with second.transaction() as tx:
        tx.update("team", "t1", {"title": "B"})
        tx.insert("team-member", "t1/u1", {"user": "u1"}, org="o", parent="t1")
    with first.transaction() as tx:
        assert tx.get("team", "t1") == {"title": "B"}
        assert tx.count("team-member", parent="t1") == 1
    first.close()
    second.close()


def test_preload_answers_as_rows_does() -> None:
    store = Store()
    with store.transaction() as tx:
        for parent in ("a", "b", "c"):
            for i in range(3):
                tx.insert("site-space", f"{parent}{i}", {"i": i}, org="o", parent=parent)
        tx.insert("site-section", "a-section", {}, org="o", parent="a")
        tx.move("site-space", "a0", after=("site-space", "a2"))
    expected = {}
    with store.transaction() as tx:
        expected = {p: tx.rows("site-space", parent=p) for p in ("a", "b", "c", "d")}
        tx.insert("team", "t", {}, org="o")  # a write: the memo starts afresh
    with store.transaction() as tx:
        loaded = tx.preload("site-space", ["b", "a", "d", "b"])
        assert [r.id for r in loaded] == ["b0", "b1", "b2", "a1", "a2", "a0"]
        assert {p: tx.rows("site-space", parent=p) for p in "abcd"} == expected

"""The SQLite store: atomic transactions, ordering, moves and cascades (unit tests)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docsync.emulator.store import Store


def test_failed_transaction_writes_nothing() -> None:
    store = Store()
    with pytest.raises(RuntimeError), store.transaction() as tx:
        tx.insert("team", "t1", {"title": "A"}, org="o")
        raise RuntimeError("boom")
    with store.transaction() as tx:
        assert tx.get("team", "t1") is None
        tx.insert("team", "t1", {"title": "A"}, org="o")
    with store.transaction() as tx:
        assert tx.get("team", "t1") == {"title": "A"}


def test_rows_filters_and_order() -> None:
    store = Store()
    with store.transaction() as tx:
        tx.insert("space", "a", {}, org="o")
        tx.insert("space", "b", {}, org="o", parent="c1")
        tx.insert("space", "c", {}, org="p")
        tx.insert("collection", "c1", {}, org="o")
        assert [r.id for r in tx.rows("space", org="o")] == ["a", "b"]
        assert [r.id for r in tx.rows("space", parent="c1")] == ["b"]
        assert [r.id for r in tx.rows("space", org="o", any_parent=False)] == ["a"]
        assert [r.id for r in tx.rows(["space", "collection"], org="o")] == ["a", "b", "c1"]
        with pytest.raises(KeyError):
            tx.update("space", "zz", {})


def test_delete_tree_removes_descendants() -> None:
    store = Store()
    with store.transaction() as tx:
        tx.insert("site", "s", {}, org="o")
        tx.insert("site-section", "sec", {}, org="o", parent="s")
        tx.insert("site-space", "ss", {}, org="o", parent="sec")
        tx.insert("site", "other", {}, org="o")
        assert tx.delete_tree("site", "s") == 3
        assert [r.id for r in tx.rows(["site", "site-section", "site-space"])] == ["other"]
        assert tx.delete_tree("site", "s") == 0


def test_meta_and_clear() -> None:
    store = Store()
    with store.transaction() as tx:
        tx.meta_set("k", "1")
        tx.meta_set("k", "2")
        tx.insert("user", "u", {})
        assert tx.meta_get("k") == "2"
        tx.clear()
        assert tx.meta_get("k") is None and tx.get("user", "u") is None


MOVES = st.lists(
    st.tuples(st.integers(0, 5), st.sampled_from(["before", "after", "end"]), st.integers(0, 5)),
    max_size=20,
)


@given(moves=MOVES)
def test_moves_match_a_list_model(moves: list[tuple[int, str, int]]) -> None:
    store = Store()
    names = [f"i{n}" for n in range(6)]
    model = list(names)
    with store.transaction() as tx:
        tx.insert("space", "elsewhere", {}, org="o", parent="p2")
        for name in names:
            tx.insert("space", name, {}, org="o", parent="p")
        for item, side, anchor in moves:
            moving, target = names[item], names[anchor]
            if side != "end" and moving == target:
                continue
            model.remove(moving)
            if side == "end":
                tx.move("space", moving)
                model.append(moving)
            else:
                index = model.index(target) + (1 if side == "after" else 0)
                model.insert(index, moving)
                tx.move("space", moving, **{side: ("space", target)})  # type: ignore[arg-type]
        assert [r.id for r in tx.rows("space", parent="p")] == model
        with pytest.raises(KeyError):
            tx.move("space", "i0", before=("space", "elsewhere"))

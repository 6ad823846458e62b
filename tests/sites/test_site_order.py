"""site_order.plan_moves, without a network: the moves reach the desired order, never move more
items than are out of place, and do nothing when the order is already right."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.kinds.nested.order import Move, apply_moves, placement, plan_moves
from tests.depth import examples

ITEMS = st.lists(st.text("abcdefghij", min_size=1, max_size=2), max_size=12, unique=True)


def out_of_place(current: list[str], desired: list[str]) -> int:
    return sum(1 for a, b in zip(current, desired, strict=True) if a != b)


@settings(max_examples=examples(300), deadline=None)
@given(data=st.data(), items=ITEMS)
def test_moves_reach_the_desired_order(data: st.DataObject, items: list[str]) -> None:
    current = data.draw(st.permutations(items))
    desired = data.draw(st.permutations(items))
    moves = plan_moves(current, desired)
    assert apply_moves(current, moves) == desired
    assert len(moves) <= out_of_place(current, desired)
    assert len({m.item for m in moves}) == len(moves), "an item moves at most once"
    for move in moves:
        assert move.item not in (move.after, move.before)
        assert (move.after is None) != (move.before is None)


@given(items=ITEMS)
def test_no_move_when_already_in_order(items: list[str]) -> None:
    assert plan_moves(items, items) == []


@given(items=ITEMS.filter(lambda xs: len(xs) >= 2), data=st.data())
def test_one_item_out_of_place_is_one_move(items: list[str], data: st.DataObject) -> None:
    source = data.draw(st.integers(0, len(items) - 1))
    target = data.draw(st.integers(0, len(items) - 1).filter(lambda i: i != source))
    desired = list(items)
    desired.insert(target, desired.pop(source))
    moves = plan_moves(items, desired)
    assert len(moves) == 1
    assert apply_moves(items, moves) == desired


def test_fewest_moves_keep_the_longest_run_in_place() -> None:
    # a, b, c, d keep their relative order (the only run of 4): x alone moves, after d.
    assert plan_moves(["a", "x", "b", "c", "d"], ["a", "b", "c", "d", "x"]) == [
        Move("x", "d", None)
    ]
    # To the first place: before whatever is first now.
    assert plan_moves(["b", "c", "d", "a"], ["a", "b", "c", "d"]) == [Move("a", None, "b")]


def test_reversal_moves_all_but_one() -> None:
    items = [str(i) for i in range(8)]
    assert len(plan_moves(items, items[::-1])) == 7


def test_empty_and_single() -> None:
    assert plan_moves([], []) == []
    assert plan_moves(["a"], ["a"]) == []


S = 'site["Docs"]'


@pytest.mark.parametrize(
    ("order", "item", "said"),
    [
        ([f'{S}.section["A"]', f'{S}.section["B"]'], f'{S}.section["A"]', "first"),
        ([f'{S}.section["A"]', f'{S}.section["B"]'], f'{S}.section["B"]', 'after section["A"]'),
        # a dot inside a key does not split it; a group is named as the kind it is
        (
            [f'{S}.section_group["v1.2"]', f'{S}.section["v1.3"]'],
            f'{S}.section["v1.3"]',
            'after section_group["v1.2"]',
        ),
        (
            [f'{S}.section["API"].site_space["a.b"]', f'{S}.section["API"].site_space["a.c"]'],
            f'{S}.section["API"].site_space["a.c"]',
            'after site_space["a.b"]',
        ),
    ],
)
def test_a_move_is_said_by_the_neighbour_it_lands_after(
    order: list[str], item: str, said: str
) -> None:
    assert placement(order, item) == said

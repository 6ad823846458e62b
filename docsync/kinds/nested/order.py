"""Order among siblings of a site's structure: the fewest moves from the current order to the
desired one. Items already in place (the longest run that keeps its relative order) stay put."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Move:
    """Put `item` right after `after`, or first (before `before`) when `after` is None."""

    item: str
    after: str | None
    before: str | None


def _stable(current: Sequence[str], desired: Sequence[str]) -> set[str]:
    """The longest subsequence of `current` already in desired order (patience sorting)."""
    rank = {item: i for i, item in enumerate(desired)}
    ranks = [rank[item] for item in current if item in rank]
    tails: list[int] = []  # tails[k]: smallest last rank of an increasing run of length k+1
    tail_at: list[int] = []  # index in ranks of that last element
    parent = [-1] * len(ranks)
    for index, value in enumerate(ranks):
        k = bisect_left(tails, value)
        if k == len(tails):
            tails.append(value)
            tail_at.append(index)
        else:
            tails[k] = value
            tail_at[k] = index
        parent[index] = tail_at[k - 1] if k else -1
    keep: set[str] = set()
    index = tail_at[-1] if tail_at else -1
    while index >= 0:
        keep.add(desired[ranks[index]])
        index = parent[index]
    return keep


def plan_moves(current: Sequence[str], desired: Sequence[str]) -> list[Move]:
    """Moves that turn `current` into `desired` (both the same items); n - LIS of them, so
    never more than the number of items out of place."""
    stable = _stable(current, desired)
    order = list(current)
    moves = []
    for index, item in enumerate(desired):
        if item in stable:
            continue
        if index:
            move = Move(item, desired[index - 1], None)
        else:
            # First place: in front of whatever is first now.
            head = next((other for other in order if other != item), None)
            if head is None:
                continue
            move = Move(item, None, head)
        moves.append(move)
        order = apply_moves(order, [move])
    return moves


def apply_moves(current: Sequence[str], moves: Sequence[Move]) -> list[str]:
    """The order after the moves, as the API would leave it (for plans and tests)."""
    order = list(current)
    for move in moves:
        order.remove(move.item)
        if move.after is not None:
            order.insert(order.index(move.after) + 1, move.item)
        else:
            assert move.before is not None
            order.insert(order.index(move.before), move.item)
    return order


def placement(order: Sequence[str], item: str) -> str:
    """Where `item` stands in `order`, said by its neighbour as a reviewer reads it:
    `first`, or `after section["API"]` (named from their common parent)."""
    index = order.index(item)
    if index == 0:
        return "first"
    return f"after {_relative(order[index - 1], item)}"


def _relative(other: str, item: str) -> str:
    """`other`'s address from the parent it shares with `item`: the part past the last
    complete step (`].`) they have in common, so a dot inside a key never splits it."""
    common = 0
    for a, b in zip(other, item, strict=False):
        if a != b:
            break
        common += 1
    cut = other.rfind("].", 0, common)
    return other[cut + 2 :] if cut >= 0 else other

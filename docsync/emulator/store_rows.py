"""A stored resource as the store's readers see it, and what they share: the columns of a
query, the batch size of an `IN (...)` list, the read memo, a data field's JSON path, and the
one place a row is decoded (`decode`, which tests count)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from docsync.emulator import jsonio

Doc = dict[str, Any]
Memo = dict[tuple[Any, ...], Any]

COLUMNS = "kind, id, org, parent, position, data"
BATCH = 500  # ids per `IN (...)` query, well below SQLite's limit on parameters


@dataclass(frozen=True)
class Row:
    """One stored resource with its bookkeeping columns."""

    kind: str
    id: str
    org: str | None
    parent: str | None
    position: int
    data: Doc


def decode(values: tuple[Any, ...]) -> Row:
    """A row of `SELECT {COLUMNS}`, its data decoded."""
    kind, id_, org, parent, position, data = values
    return Row(kind, id_, org, parent, position, jsonio.loads(data))


def _field(name: str) -> str:
    """A data field name for a JSON path in SQL: code names it, never a request."""
    if not name.isidentifier():
        raise ValueError(f"not a field name: {name!r}")
    return name


def json_path(name: str) -> str:
    """The SQL of a data field's value."""
    return f"json_extract(data, '$.{_field(name)}')"


class Connected:
    """A transaction's connection and the store's read memo (any write empties it; callers
    never change a Row's data, or a Doc read from here, in place)."""

    def __init__(self, conn: sqlite3.Connection, memo: Memo) -> None:
        self._conn = conn
        self._memo = memo

    def _changed(self) -> None:
        self._memo.clear()

"""The emulator's state: JSON documents in one SQLite table, changed only inside transactions.

Every resource is a row `(kind, id, org, parent, position, data)`: `kind` names the resource
("team", "space", "site-section", ...), `org` the owning organization, `parent` the containing
resource (a collection for a space, a site for a section, a team for a team member...) and
`position` the order of siblings. `data` is the resource's stored fields as a JSON object; routes
render responses from it. A request runs in one transaction (`Store.transaction()`): an exception
rolls back everything, so a failed request never writes half of its work.

Kinds of the organization-level routes (id / org / parent):
  user (user id / - / -), organization (org id / itself / -), member ("org/user" / org / -),
  team (id / org / -), team-member ("team/user" / org / team), saml-provider (id / org / -),
  collection (id / org / parent collection), space (id / org / collection; `deletedAt` when
  soft-deleted), openapi-spec (id / org / -), openapi-version (id / org / spec),
  translation (id / org / -), team-grant and user-grant ("resource/principal" / org / the
  collection, space or site; see `docsync.emulator.grants`). See `docsync.emulator.refs` for
  cross-resource queries.

Indexes keep every request proportional to what it reads, not to the organization's size:
siblings by parent, resources by organization, memberships (`member`, `team-member`) and user grants
by user, team grants by team, users by token and by email, and the next free position.

The rows and what their readers share are `store_rows`; a transaction's reads are
`store_reads` (by id, kind, parent) and `store_indexed` (by a data field, counts, pages); its
writes are here.

Reads are remembered across transactions until the next write (the read memo): a plan reads each
organization, member row and space many times over, and decoding JSON is most of a read's cost.
Any write, a rolled-back transaction, and a commit by another connection to the same file forget
everything remembered, so a read never answers from a state that is not the database's.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from docsync.emulator.store_indexed import IndexedReads
from docsync.emulator.store_rows import Doc, Memo, Row

__all__ = ["Doc", "Row", "Store", "Tx"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS docs (
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    org TEXT,
    parent TEXT,
    position INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (kind, id)
);
CREATE INDEX IF NOT EXISTS docs_by_org ON docs (kind, org, position);
CREATE INDEX IF NOT EXISTS docs_by_parent ON docs (parent, position);
CREATE INDEX IF NOT EXISTS docs_by_position ON docs (position);
CREATE INDEX IF NOT EXISTS docs_by_user ON docs (kind, org, json_extract(data, '$.user'));
CREATE INDEX IF NOT EXISTS docs_by_site ON docs (kind, json_extract(data, '$.site'));
CREATE INDEX IF NOT EXISTS docs_by_team ON docs (kind, org, json_extract(data, '$.team'));
CREATE INDEX IF NOT EXISTS users_by_token ON docs (json_extract(data, '$.token'))
    WHERE kind = 'user';
CREATE INDEX IF NOT EXISTS users_by_email ON docs (py_lower(json_extract(data, '$.email')))
    WHERE kind = 'user';
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

# Entries of the read memo past which it starts afresh: about 50 MB of decoded rows at most.
_MEMO_MAX = 200_000


class Tx(IndexedReads):
    """The operations of one transaction; obtained from `Store.transaction()` only."""

    # -- writing ---------------------------------------------------------------------------
    def insert(
        self,
        kind: str,
        id_: str,
        data: Doc,
        *,
        org: str | None = None,
        parent: str | None = None,
    ) -> Doc:
        """Store a new resource after all others (position = last + 1) and return its data.

        A duplicate `(kind, id)` raises `sqlite3.IntegrityError` (a bug in the caller).
        """
        self._changed()
        position = self._next_position()
        self._conn.execute(
            "INSERT INTO docs (kind, id, org, parent, position, data) VALUES (?, ?, ?, ?, ?, ?)",
            (kind, id_, org, parent, position, json.dumps(data)),
        )
        return data

    def update(self, kind: str, id_: str, data: Doc) -> Doc:
        """Replace the data of an existing resource; KeyError when it does not exist."""
        self._changed()
        cur = self._conn.execute(
            "UPDATE docs SET data = ? WHERE kind = ? AND id = ?", (json.dumps(data), kind, id_)
        )
        if cur.rowcount != 1:
            raise KeyError(f"{kind} {id_}")
        return data

    def set_parent(
        self, kind: str, id_: str, parent: str | None, *, org: str | None = None
    ) -> None:
        """Move a resource under another parent (and organization when `org` is given), last."""
        self._changed()
        position = self._next_position()
        if org is None:
            self._conn.execute(
                "UPDATE docs SET parent = ?, position = ? WHERE kind = ? AND id = ?",
                (parent, position, kind, id_),
            )
        else:
            self._conn.execute(
                "UPDATE docs SET parent = ?, org = ?, position = ? WHERE kind = ? AND id = ?",
                (parent, org, position, kind, id_),
            )

    def delete(self, kind: str, id_: str) -> bool:
        """Remove one resource (not its children); True when it existed."""
        self._changed()
        cur = self._conn.execute("DELETE FROM docs WHERE kind = ? AND id = ?", (kind, id_))
        return cur.rowcount == 1

    def delete_tree(self, kind: str, id_: str) -> int:
        """Remove a resource and, recursively, every resource whose parent it is; returns the count.

        Use it for cascades such as "deleting a site removes its sections and site spaces".
        """
        removed = 1 if self.delete(kind, id_) else 0
        for child in self.children(id_):
            removed += self.delete_tree(child.kind, child.id)
        return removed

    def move(
        self,
        kind: str,
        id_: str,
        *,
        before: tuple[str, str] | None = None,
        after: tuple[str, str] | None = None,
        kinds: Sequence[str] | None = None,
    ) -> None:
        """Reorder a resource among its siblings: right before `before` or right after `after`.

        Siblings are the resources with the same parent and organization whose kind is in `kinds`
        (default: the same kind); `before`/`after` are `(kind, id)` of a sibling. With neither,
        the resource goes last. KeyError when the resource or the anchor is not a sibling.
        """
        row = self.get_row(kind, id_)
        if row is None:
            raise KeyError(f"{kind} {id_}")
        siblings = [
            (r.kind, r.id)
            for r in self.rows(kinds or [kind], org=row.org, parent=row.parent, any_parent=False)
        ]
        siblings.remove((kind, id_))
        anchor = before or after
        if anchor is None:
            index = len(siblings)
        else:
            if anchor not in siblings:
                raise KeyError(f"{anchor[0]} {anchor[1]}")
            index = siblings.index(anchor) + (0 if before else 1)
        siblings.insert(index, (kind, id_))
        self.reorder(siblings)

    def reorder(self, items: Sequence[tuple[str, str]]) -> None:
        """Give `items` ((kind, id) pairs) new consecutive positions, in the order given.

        Pass the complete list of siblings: they move after every other resource, which keeps
        their order among themselves exact and does not matter to anyone else.
        """
        self._changed()
        start = self._next_position()
        for offset, (k, i) in enumerate(items):
            self._conn.execute(
                "UPDATE docs SET position = ? WHERE kind = ? AND id = ?", (start + offset, k, i)
            )

    def clear(self) -> None:
        """Remove every resource and meta value (used by reset)."""
        self._changed()
        self._conn.execute("DELETE FROM docs")
        self._conn.execute("DELETE FROM meta")

    # -- meta ------------------------------------------------------------------------------
    def meta_get(self, key: str) -> str | None:
        """A bookkeeping value (e.g. whether the seed was applied)."""
        found = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if found is None else str(found[0])

    def meta_set(self, key: str, value: str) -> None:
        """Store a bookkeeping value."""
        self._conn.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def _next_position(self) -> int:
        found = self._conn.execute("SELECT MAX(position) FROM docs").fetchone()
        return 0 if found[0] is None else int(found[0]) + 1


def _lower(text: str | None) -> str | None:
    return text.lower() if isinstance(text, str) else text


class Store:
    """One SQLite database (a file, or memory when `path` is None) guarded by a lock."""

    def __init__(self, path: str | None = None) -> None:
        self._lock = threading.RLock()
        self._memo: Memo = {}
        self._shared = bool(path)  # a file another connection may write to
        self._version: int | None = None
        self._conn = sqlite3.connect(
            path or ":memory:", check_same_thread=False, isolation_level=None
        )
        # Python's own lowercasing (SQLite's lower() knows ASCII only), for the email index.
        self._conn.create_function("py_lower", 1, _lower, deterministic=True)
        if path:
            self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.executescript(_SCHEMA)

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        """Run a block atomically: commit when it ends, roll back when it raises."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            if self._shared:
                # changes whenever another connection commits to the file
                version = int(self._conn.execute("PRAGMA data_version").fetchone()[0])
                if version != self._version:
                    self._memo.clear()
                    self._version = version
            if len(self._memo) > _MEMO_MAX:
                self._memo.clear()
            try:
                yield Tx(self._conn, self._memo)
            except BaseException:
                self._conn.execute("ROLLBACK")
                self._memo.clear()  # it may hold what the transaction wrote
                raise
            self._conn.execute("COMMIT")

    def close(self) -> None:
        """Close the database; the store is unusable afterwards."""
        with self._lock:
            self._conn.close()

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
from dataclasses import dataclass
from typing import Any

from docsync.emulator import jsonio

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

Doc = dict[str, Any]


@dataclass(frozen=True)
class Row:
    """One stored resource with its bookkeeping columns."""

    kind: str
    id: str
    org: str | None
    parent: str | None
    position: int
    data: Doc


def _row(values: tuple[Any, ...]) -> Row:
    kind, id_, org, parent, position, data = values
    return Row(kind, id_, org, parent, position, jsonio.loads(data))


_COLUMNS = "kind, id, org, parent, position, data"
_BATCH = 500  # ids per `IN (...)` query, well below SQLite's limit on parameters
# Entries of the read memo past which it starts afresh: about 50 MB of decoded rows at most.
_MEMO_MAX = 200_000

Memo = dict[tuple[Any, ...], Any]


class Tx:
    """The operations of one transaction; obtained from `Store.transaction()` only."""

    def __init__(self, conn: sqlite3.Connection, memo: Memo) -> None:
        self._conn = conn
        # The store's read memo: repeated reads are served from here; any write empties it.
        # Callers never change a Row's data (or a Doc read from here) in place.
        self._memo = memo

    def _changed(self) -> None:
        self._memo.clear()

    # -- reading ---------------------------------------------------------------------------
    def get(self, kind: str, id_: str) -> Doc | None:
        """The data of one resource, or None when there is no such resource."""
        row = self.get_row(kind, id_)
        return None if row is None else row.data

    def get_row(self, kind: str, id_: str) -> Row | None:
        """One resource with its org, parent and position, or None."""
        key = ("get", kind, id_)
        if key in self._memo:
            memo: Row | None = self._memo[key]
            return memo
        cur = self._conn.execute(
            f"SELECT {_COLUMNS} FROM docs WHERE kind = ? AND id = ?", (kind, id_)
        )
        found = cur.fetchone()
        row = None if found is None else _row(found)
        self._memo[key] = row
        return row

    def rows(
        self,
        kind: str | Sequence[str],
        *,
        org: str | None = None,
        parent: str | None = None,
        any_parent: bool = True,
    ) -> list[Row]:
        """Resources of one kind (or several kinds) ordered by position.

        `org` filters on the organization; `parent` on the parent id. To list only the resources
        with NO parent, pass `parent=None, any_parent=False`.
        """
        kinds = [kind] if isinstance(kind, str) else list(kind)
        key = ("rows", tuple(kinds), org, parent, any_parent)
        if key in self._memo:
            return list(self._memo[key])
        sql = f"SELECT {_COLUMNS} FROM docs WHERE kind IN ({','.join('?' * len(kinds))})"
        args: list[Any] = list(kinds)
        if org is not None:
            sql += " AND org = ?"
            args.append(org)
        if parent is not None:
            sql += " AND parent = ?"
            args.append(parent)
        elif not any_parent:
            sql += " AND parent IS NULL"
        sql += " ORDER BY position, id"
        found = [_row(values) for values in self._conn.execute(sql, args)]
        self._memo[key] = found
        for row in found:
            self._memo[("get", row.kind, row.id)] = row
        return list(found)

    def get_many(self, kind: str, ids: Sequence[str]) -> dict[str, Row]:
        """The resources of one kind among `ids`, by id in the order of `ids` (missing ids are
        absent): one batch read of those not read before."""
        memo = self._memo
        missing = [id_ for id_ in dict.fromkeys(ids) if ("get", kind, id_) not in memo]
        for start in range(0, len(missing), _BATCH):
            chunk = missing[start : start + _BATCH]
            for id_ in chunk:
                memo[("get", kind, id_)] = None
            marks = ",".join("?" * len(chunk))
            cur = self._conn.execute(
                f"SELECT {_COLUMNS} FROM docs WHERE kind = ? AND id IN ({marks})", (kind, *chunk)
            )
            for values in cur:
                row = _row(values)
                memo[("get", kind, row.id)] = row
        found: dict[str, Row] = {}
        for id_ in ids:
            row = memo[("get", kind, id_)]
            if row is not None:
                found[id_] = row
        return found

    def preload(self, kind: str, parents: Sequence[str]) -> list[Row]:
        """`rows(kind, parent=p)` for every p of `parents` in one batch read, remembered for the
        calls that follow; returns them all, parent by parent."""
        memo = self._memo
        missing = [
            p for p in dict.fromkeys(parents) if ("rows", (kind,), None, p, True) not in memo
        ]
        for start in range(0, len(missing), _BATCH):
            chunk = missing[start : start + _BATCH]
            by_parent: dict[str, list[Row]] = {p: [] for p in chunk}
            marks = ",".join("?" * len(chunk))
            cur = self._conn.execute(
                f"SELECT {_COLUMNS} FROM docs INDEXED BY docs_by_parent WHERE parent IN ({marks}) "
                "AND kind = ? "
                "ORDER BY position, id",
                (*chunk, kind),
            )
            for values in cur:
                row = _row(values)
                by_parent[str(row.parent)].append(row)
                memo[("get", row.kind, row.id)] = row
            for parent, found in by_parent.items():
                memo[("rows", (kind,), None, parent, True)] = found
        return [row for p in dict.fromkeys(parents) for row in self.rows(kind, parent=p)]

    def by_user(self, kind: str, org: str, user: str) -> list[Row]:
        """The `member`, `team-member` or `user-grant` rows of one user in `org` (indexed)."""
        return self._by_field(kind, org, "user", user)

    def by_team(self, kind: str, org: str, team: str) -> list[Row]:
        """The rows of `kind` in `org` whose `team` field is `team` (indexed): a team's grants."""
        return self._by_field(kind, org, "team", team)

    def _by_field(self, kind: str, org: str, field: str, value: str) -> list[Row]:
        key = ("by", kind, org, field, value)
        if key not in self._memo:
            cur = self._conn.execute(
                f"SELECT {_COLUMNS} FROM docs INDEXED BY docs_by_{field} WHERE kind = ? "
                f"AND org = ? AND json_extract(data, '$.{field}') = ? ORDER BY position, id",
                (kind, org, value),
            )
            self._memo[key] = [_row(values) for values in cur]
        return list(self._memo[key])

    def count_by_user(self, kind: str, org: str, users: Sequence[str]) -> dict[str, int]:
        """How many `kind` rows of `org` each of `users` has (indexed; absent users count 0)."""
        memo = self._memo
        missing = [u for u in dict.fromkeys(users) if ("count_by_user", kind, org, u) not in memo]
        for start in range(0, len(missing), _BATCH):
            chunk = missing[start : start + _BATCH]
            for user in chunk:
                memo[("count_by_user", kind, org, user)] = 0
            cur = self._conn.execute(
                "SELECT json_extract(data, '$.user'), COUNT(*) FROM docs "
                "WHERE kind = ? AND org = ? "
                f"AND json_extract(data, '$.user') IN ({','.join('?' * len(chunk))}) "
                "GROUP BY json_extract(data, '$.user')",
                (kind, org, *chunk),
            )
            for user, n in cur:
                memo[("count_by_user", kind, org, str(user))] = int(n)
        counts = {u: memo[("count_by_user", kind, org, u)] for u in dict.fromkeys(users)}
        return {u: n for u, n in counts.items() if n}

    def count_in_sites(self, kind: str, sites: Sequence[str], *, alive: str) -> dict[str, int]:
        """How many `kind` rows each site of `sites` holds (their `site` field, indexed), counting
        only those whose `alive` field names a resource of that name's kind that still exists
        (a site space whose space was purged does not count)."""
        counts: dict[str, int] = {}
        unique = list(dict.fromkeys(sites))
        for start in range(0, len(unique), _BATCH):
            chunk = unique[start : start + _BATCH]
            cur = self._conn.execute(
                "SELECT json_extract(d.data, '$.site'), COUNT(*) FROM docs d "
                "WHERE d.kind = ? "
                f"AND json_extract(d.data, '$.site') IN ({','.join('?' * len(chunk))}) "
                "AND EXISTS (SELECT 1 FROM docs r WHERE r.kind = ? "
                "AND r.id = json_extract(d.data, '$.' || ?)) "
                "GROUP BY json_extract(d.data, '$.site')",
                (kind, *chunk, alive, alive),
            )
            counts.update((str(site), int(n)) for site, n in cur)
        return counts

    def count(self, kind: str, *, parent: str) -> int:
        """How many resources of `kind` are under `parent`, without reading them."""
        return self.count_under(kind, [parent])[parent]

    def count_under(self, kind: str, parents: Sequence[str]) -> dict[str, int]:
        """How many resources of `kind` each of `parents` holds (indexed), by parent."""
        memo = self._memo
        missing = [p for p in dict.fromkeys(parents) if ("count", kind, p) not in memo]
        for start in range(0, len(missing), _BATCH):
            chunk = missing[start : start + _BATCH]
            for parent in chunk:
                memo[("count", kind, parent)] = 0
            cur = self._conn.execute(
                "SELECT parent, COUNT(*) FROM docs INDEXED BY docs_by_parent "
                f"WHERE parent IN ({','.join('?' * len(chunk))}) AND kind = ? GROUP BY parent",
                (*chunk, kind),
            )
            for parent, n in cur:
                memo[("count", kind, str(parent))] = int(n)
        return {p: memo[("count", kind, p)] for p in parents}

    def window(
        self,
        kind: str,
        parent: str,
        *,
        equal: Sequence[tuple[str, Any]] = (),
        contains: tuple[str, str] | None = None,
        order: Sequence[tuple[str, bool]] = (("position", False),),
        offset: int = 0,
        limit: int,
    ) -> tuple[list[Row], int]:
        """One page of the `kind` rows under `parent` and how many there are in all (indexed by
        parent; only the page's rows are decoded), for a list that costs what it returns.

        `equal` keeps rows whose data field has the value, `contains` those whose field holds
        the text (any case); `order` is (data field or "position", descending) pairs.
        """
        where = "parent = ? AND kind = ?"
        args: list[Any] = [parent, kind]
        for name, value in equal:
            where += f" AND {_json(name)} = ?"
            args.append(int(value) if isinstance(value, bool) else value)
        if contains is not None:
            where += f" AND instr(py_lower({_json(contains[0])}), ?) > 0"
            args.append(contains[1].lower())
        total = self._conn.execute(
            f"SELECT COUNT(*) FROM docs INDEXED BY docs_by_parent WHERE {where}", args
        ).fetchone()[0]
        terms = [
            f"{'position' if name == 'position' else _json(name)} {'DESC' if down else 'ASC'}"
            for name, down in order
        ]
        cur = self._conn.execute(
            f"SELECT {_COLUMNS} FROM docs INDEXED BY docs_by_parent WHERE {where} "
            f"ORDER BY {', '.join([*terms, 'id'])} LIMIT ? OFFSET ?",
            (*args, limit, offset),
        )
        return [_row(values) for values in cur], int(total)

    def user_by_token(self, token: str) -> Doc | None:
        """The user whose API token is `token` (indexed), or None."""
        key = ("token", token)
        if key not in self._memo:
            cur = self._conn.execute(
                "SELECT data FROM docs WHERE kind = 'user' AND json_extract(data, '$.token') = ?",
                (token,),
            )
            found = cur.fetchone()
            self._memo[key] = None if found is None else dict(jsonio.loads(found[0]))
        user: Doc | None = self._memo[key]
        return user

    def users_by_email(self, email: str) -> list[Doc]:
        """The users whose email is `email`, in any case (indexed)."""
        cur = self._conn.execute(
            "SELECT data FROM docs WHERE kind = 'user' "
            "AND py_lower(json_extract(data, '$.email')) = py_lower(?) ORDER BY position, id",
            (email,),
        )
        return [dict(jsonio.loads(values[0])) for values in cur]

    def docs(self, kind: str, *, org: str | None = None, parent: str | None = None) -> list[Doc]:
        """The data of `rows(kind, org=..., parent=...)`, in position order."""
        return [row.data for row in self.rows(kind, org=org, parent=parent)]

    def children(self, parent: str) -> list[Row]:
        """Every resource (any kind) whose parent is `parent`, in position order."""
        cur = self._conn.execute(
            f"SELECT {_COLUMNS} FROM docs WHERE parent = ? ORDER BY position, id", (parent,)
        )
        return [_row(values) for values in cur]

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


def _field(name: str) -> str:
    """A data field name for a JSON path in SQL: code names it, never a request."""
    if not name.isidentifier():
        raise ValueError(f"not a field name: {name!r}")
    return name


def _json(name: str) -> str:
    return f"json_extract(data, '$.{_field(name)}')"


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

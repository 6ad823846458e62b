"""A transaction's reads of single rows, kinds and levels, remembered in the read memo."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docsync.emulator import jsonio, store_rows
from docsync.emulator.store_rows import BATCH, COLUMNS, Connected, Doc, Row


class Reads(Connected):
    """Rows by id, by kind (and organization or parent), in batches, and the seeded users."""

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
            f"SELECT {COLUMNS} FROM docs WHERE kind = ? AND id = ?", (kind, id_)
        )
        found = cur.fetchone()
        row = None if found is None else store_rows.decode(found)
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
        sql = f"SELECT {COLUMNS} FROM docs WHERE kind IN ({','.join('?' * len(kinds))})"
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
        found = [store_rows.decode(values) for values in self._conn.execute(sql, args)]
        self._memo[key] = found
        for row in found:
            self._memo[("get", row.kind, row.id)] = row
        return list(found)

    def get_many(self, kind: str, ids: Sequence[str]) -> dict[str, Row]:
        """The resources of one kind among `ids`, by id in the order of `ids` (missing ids are
        absent): one batch read of those not read before."""
        memo = self._memo
        missing = [id_ for id_ in dict.fromkeys(ids) if ("get", kind, id_) not in memo]
        for start in range(0, len(missing), BATCH):
            chunk = missing[start : start + BATCH]
            for id_ in chunk:
                memo[("get", kind, id_)] = None
            marks = ",".join("?" * len(chunk))
            cur = self._conn.execute(
                f"SELECT {COLUMNS} FROM docs WHERE kind = ? AND id IN ({marks})", (kind, *chunk)
            )
            for values in cur:
                row = store_rows.decode(values)
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
        for start in range(0, len(missing), BATCH):
            chunk = missing[start : start + BATCH]
            by_parent: dict[str, list[Row]] = {p: [] for p in chunk}
            marks = ",".join("?" * len(chunk))
            cur = self._conn.execute(
                f"SELECT {COLUMNS} FROM docs INDEXED BY docs_by_parent WHERE parent IN ({marks}) "
                "AND kind = ? "
                "ORDER BY position, id",
                (*chunk, kind),
            )
            for values in cur:
                row = store_rows.decode(values)
                by_parent[str(row.parent)].append(row)
                memo[("get", row.kind, row.id)] = row
            for parent, found in by_parent.items():
                memo[("rows", (kind,), None, parent, True)] = found
        return [row for p in dict.fromkeys(parents) for row in self.rows(kind, parent=p)]

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
            f"SELECT {COLUMNS} FROM docs WHERE parent = ? ORDER BY position, id", (parent,)
        )
        return [store_rows.decode(values) for values in cur]

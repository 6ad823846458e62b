"""A transaction's indexed reads: rows by a data field (a user's memberships, a team's
grants), counts without reading the rows, and one page of a long list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docsync.emulator import store_rows
from docsync.emulator.store_reads import Reads
from docsync.emulator.store_rows import BATCH, COLUMNS, Row, json_path


class IndexedReads(Reads):
    """What lists of members, teams, grants and redirects read through the indexes."""

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
                f"SELECT {COLUMNS} FROM docs INDEXED BY docs_by_{field} WHERE kind = ? "
                f"AND org = ? AND json_extract(data, '$.{field}') = ? ORDER BY position, id",
                (kind, org, value),
            )
            self._memo[key] = [store_rows.decode(values) for values in cur]
        return list(self._memo[key])

    def count_by_user(self, kind: str, org: str, users: Sequence[str]) -> dict[str, int]:
        """How many `kind` rows of `org` each of `users` has (indexed; absent users count 0)."""
        memo = self._memo
        missing = [u for u in dict.fromkeys(users) if ("count_by_user", kind, org, u) not in memo]
        for start in range(0, len(missing), BATCH):
            chunk = missing[start : start + BATCH]
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
        for start in range(0, len(unique), BATCH):
            chunk = unique[start : start + BATCH]
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
        for start in range(0, len(missing), BATCH):
            chunk = missing[start : start + BATCH]
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
            where += f" AND {json_path(name)} = ?"
            args.append(int(value) if isinstance(value, bool) else value)
        if contains is not None:
            where += f" AND instr(py_lower({json_path(contains[0])}), ?) > 0"
            args.append(contains[1].lower())
        total = self._conn.execute(
            f"SELECT COUNT(*) FROM docs INDEXED BY docs_by_parent WHERE {where}", args
        ).fetchone()[0]
        terms = [
            f"{'position' if name == 'position' else json_path(name)} {'DESC' if down else 'ASC'}"
            for name, down in order
        ]
        cur = self._conn.execute(
            f"SELECT {COLUMNS} FROM docs INDEXED BY docs_by_parent WHERE {where} "
            f"ORDER BY {', '.join([*terms, 'id'])} LIMIT ? OFFSET ?",
            (*args, limit, offset),
        )
        return [store_rows.decode(values) for values in cur], int(total)

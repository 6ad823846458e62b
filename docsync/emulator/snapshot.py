"""A snapshot of an organization as a seed (docs/emulator.md, "Snapshots"): the answers of the
reads a client made of it, by path, loaded back by the routes that answered them.

A snapshot is `{format, organization, user, reads: {path: answer}}` (docsync export --format
emulator-seed writes one). Each `GET` route that a snapshot can hold declares how its answer is
loaded (`api_route(..., loads=...)`; a table entry says it once, where its routes are made:
`Resource.snapshot`, `Singleton.snapshot`), next to the route that answers it, so that what a
route answers and what it loads are read side by side. Ids are kept as answered, so that what
was planned against the organization names the copy's resources too; timestamps are kept; what
the emulator makes itself (URLs, a share link's key, a site's private key) is made anew.

Reads are loaded shallowest path first (by their number of segments, then as written): what a
path names (a site) is read at a shorter path than its parts (its structure, then a site
space's customization). Every user read gets the token `tok_<user id>`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from starlette.routing import BaseRoute, Match

from docsync.emulator.errors import SeedError
from docsync.emulator.store import Doc, Row, Tx

FORMAT = "docsync-snapshot/1"
TOKEN_PREFIX = "tok_"


@dataclass(frozen=True)
class Loading:
    """What a route's loader is given besides its path's parameters and its answer."""

    tx: Tx
    #: the snapshot's organization (a snapshot holds one)
    org: str
    #: when the seed is applied: the stamp of what an answer does not stamp
    now: str

    def put(self, kind: str, id_: str, data: Doc, *, parent: str | None = None) -> None:
        """Store a resource of the organization, or replace what was stored under its id (a
        list read twice, with and without a filter)."""
        if self.tx.get(kind, id_) is None:
            self.tx.insert(kind, id_, data, org=self.org, parent=parent)
        else:
            self.tx.update(kind, id_, data)

    def user(self, view: Doc) -> str:
        """A user as answered (`User`), stored once with its token; its id."""
        uid = str(view["id"])
        if self.tx.get("user", uid) is None:
            data = {"id": uid, "email": str(view.get("email") or ""), "token": TOKEN_PREFIX + uid}
            data["displayName"] = str(view.get("displayName") or uid)
            if view.get("photoURL"):
                data["photoURL"] = view["photoURL"]
            self.tx.insert("user", uid, data)
        return uid

    def patch(self, kind: str, id_: str, changes: Doc) -> None:
        """Merge `changes` into a stored resource (a site's customization); nothing when it is
        not there (a part read of what the snapshot does not hold)."""
        found = self.tx.get(kind, id_)
        if found is not None:
            self.tx.update(kind, id_, {**found, **changes})

    def row(self, kind: str, id_: str) -> Row | None:
        return self.tx.get_row(kind, id_)


#: a route's loader: its answer stored as the rows that answer it back
Loader = Callable[[Loading, dict[str, str], Any], None]


def check_snapshot(snapshot: Any, origin: str) -> None:
    """Raise SeedError for a snapshot that is not one docsync wrote."""
    where = f"{origin}: snapshot"
    if not isinstance(snapshot, dict) or snapshot.get("format") != FORMAT:
        raise SeedError(
            f"{where}: not a snapshot of this docsync (expected format {FORMAT}); take one "
            "with `docsync export --org ORG --format emulator-seed`"
        )
    if not isinstance(snapshot.get("organization"), str) or not snapshot["organization"]:
        raise SeedError(f"{where}.organization: is required and must be a non-empty string")
    if snapshot.get("user") is not None and not isinstance(snapshot["user"], str):
        raise SeedError(f"{where}.user: must be a user id")
    reads = snapshot.get("reads")
    if not isinstance(reads, dict) or not all(
        isinstance(path, str) and path.startswith("/v1/") and isinstance(answer, dict | list)
        for path, answer in reads.items()
    ):
        raise SeedError(f"{where}.reads: must map API paths (/v1/...) to their answers")


def load_snapshot(tx: Tx, snapshot: dict[str, Any], now: str, routes: Iterable[BaseRoute]) -> None:
    """Store what each read of the snapshot answered, through the route that answers it; a read
    no route loads is refused (a snapshot of a newer docsync), naming its path."""
    loaders = [route for route in routes if getattr(route, "loads", None) is not None]
    at = Loading(tx, str(snapshot["organization"]), now)
    reads: dict[str, Any] = snapshot["reads"]
    for path in sorted(reads, key=lambda p: (p.split("?")[0].count("/"), p)):
        route, params = _route(loaders, path.split("?")[0])
        if route is None:
            raise SeedError(
                f"snapshot: no route of this emulator loads what {path} answered (a snapshot "
                "taken by a newer docsync?)"
            )
        loader = getattr(route, "loads", None)
        assert loader is not None
        loader(at, params, reads[path])


def _route(loaders: list[BaseRoute], path: str) -> tuple[BaseRoute | None, dict[str, str]]:
    scope = {"type": "http", "path": path, "method": "GET", "root_path": ""}
    for route in loaders:
        match, child = route.matches(scope)
        if match == Match.FULL:
            return route, dict(child.get("path_params", {}))
    return None, {}


def items(answer: Any) -> list[Doc]:
    """The items of a list's answer: every page's, or the one object's `items` (an unpaged
    list); another object answer holds none."""
    if isinstance(answer, dict):
        answer = answer.get("items")
    return [item for item in answer if isinstance(item, dict)] if isinstance(answer, list) else []


def obj(answer: Any) -> Doc:
    """An object's answer (a list's holds none)."""
    return answer if isinstance(answer, dict) else {}


def kept(answer: Doc, names: Iterable[str]) -> Doc:
    """The fields of an answer named in `names` that it holds."""
    return {name: answer[name] for name in names if name in answer}

"""Declared resources: a resource of the API is a table entry, its routes are made from it.

A `Resource` says where the resource is (its path, the id's name, its `scope`: the organization,
a site, an id of its own, or the item of another entry it is nested in), which operations it
serves and with which methods, the access each needs, the body's fields and limits
(`body.Body`), the view it answers, the message of an id that names nothing, what a create
stores besides the body, and the statuses it answers (`Codes`). What every resource does with
that is `rules.Rules`; what one does that the table cannot say is its own `Rules` (a subclass
overriding a hook: a team's members, the SAML provider a team deletion must not orphan, a
space's soft delete).

Besides its list, create, get, update, replace and delete, an entry makes the routes that hang
off its items and its list: an `action` (`POST <item>/publish`, `.../move`), a `listing` of what
an item holds of another kind (a collection's spaces), another view of an item (`read`: a site's
published content) and a `batch` write on its list's path (a site's redirects, the glossary).
Every route it makes names it (`route.entry`): the share of the app's routes the table makes is
counted from them (tests/emulator/test_route_table.py).

Route modules list `RESOURCE.routes()` with their other routes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from docsync.emulator.auth import Access
from docsync.emulator.body import Body, Place
from docsync.emulator.http import Ctx, api_route, empty, ok
from docsync.emulator.paging import paginate
from docsync.emulator.rules import CONTENT, Codes, Permissions, Rules, reload
from docsync.emulator.scopes import IN_ORG, Scope
from docsync.emulator.snapshot import Loader, Loading, items
from docsync.emulator.store import Doc, Row

View = Callable[[Ctx, Row], Doc]
Operation = Literal["list", "create", "get", "update", "replace", "delete"]
#: the operations in the order their routes are made; `replace` (`PUT <item>`: made or
#: replaced whole by the name its path gives it) is served by the resource's own rules
OPERATIONS: tuple[Operation, ...] = ("list", "create", "get", "update", "replace", "delete")
#: what an action answers: the item as an update does, the item (or the one the action made)
#: as a create does, or no body
Answer = Literal["item", "created", "nothing"]


@dataclass(frozen=True)
class Resource:
    """One resource of the API: its table entry."""

    #: the store's kind of its rows ("team")
    kind: str
    #: the list's path, where it is created too ("/v1/orgs/{organizationId}/teams")
    path: str
    #: the name of the id in an item's path ("teamId")
    item: str
    view: View
    #: the 404 of an id that names nothing, with `{id}`, `{org}`, `{site}`, `{holder}` (the
    #: item it is nested in) and the path's parameters
    missing: str = "No such resource {id!r}"
    scope: Scope = IN_ORG
    body: Body = field(default_factory=Body)
    rules: Rules = field(default_factory=Rules)
    #: the operations it serves, and the methods of its create and update
    operations: tuple[Operation, ...] = ("list", "create", "get", "update", "delete")
    create_method: str = "POST"
    update_method: str = "PATCH"
    access: Permissions = CONTENT
    #: its store id is `<organization>/<the path's id>` (members by user, specs by slug)
    org_keyed: bool = False
    #: an item's path, when it is not the list's path and the id ("/v1/collections/{...}")
    item_path: str = ""
    #: where it is created, when not where it is listed (an integration's installations are
    #: listed by organization, installed under the integration)
    create_path: str = ""
    #: where a created item is (its `Location`: with `{org}`, `{site}`, `{id}`, `{parent}` and
    #: the path's parameters), if answered
    location: str = ""
    #: a new row's data: its id in it too, what it starts with, the times stamped on create
    id_in_data: bool = False
    defaults: Mapping[str, object] = field(default_factory=dict)
    stamps: tuple[str, ...] = ("createdAt",)
    codes: Codes = field(default_factory=Codes)
    #: None: a snapshot's answer of its list is not loaded (no client reads it); else the
    #: fields of an answered item a snapshot keeps besides the body's (`Rules.seeded`)
    snapshot: tuple[str, ...] | None = None
    #: the reads a snapshot's answer of is loaded back through it: its list, an item by its id
    loaded: tuple[Operation, ...] = ("list", "get")
    #: of the API description alone: `--contract production` serves none of its routes
    description_only: bool = False

    def key_in(self, ctx: Ctx, place: Place) -> str:
        return self.rules.key(ctx, self, place)

    def hides(self, ctx: Ctx, row: Row) -> bool:
        return self.rules.hidden(ctx, row)

    def nothing(self, ctx: Ctx) -> None:
        self.rules.nothing(ctx, self)

    @property
    def item_at(self) -> str:
        """An item's path."""
        return self.item_path or f"{self.path}/{{{self.item}}}"

    def routes(self) -> list[BaseRoute]:
        """Its routes, in the order list, create, get, update, replace, delete."""
        where: dict[Operation, tuple[str, str]] = {
            "list": ("GET", self.path),
            "create": (self.create_method, self.create_path or self.path),
            "get": ("GET", self.item_at),
            "update": (self.update_method, self.item_at),
            "replace": ("PUT", self.item_at),
            "delete": ("DELETE", self.item_at),
        }

        def loads(op: Operation) -> Loader | None:
            if op not in self.loaded or self.snapshot is None:
                return None
            return self._load_item if op == "get" else self._load

        only = self.description_only
        return [
            self._made(
                api_route(*where[op], self._handler(op), loads=loads(op), description_only=only)
            )
            for op in OPERATIONS
            if op in self.operations
        ]

    def _made(self, route: Route) -> Route:
        route.entry = self  # type: ignore[attr-defined]
        return route

    def _load_item(self, at: Loading, params: dict[str, str], answer: object) -> None:
        """A snapshot's answer of one item (a space in the bin, read by its id)."""
        self._load(at, params, {"items": [answer]})

    def _load(self, at: Loading, params: dict[str, str], answer: object) -> None:
        """A snapshot's answer of its list stored as its rows (`Rules.seeded`)."""
        place = self.scope.seeded_place(at, params)
        if place is None:
            return
        for item in self.rules.seeded_order(items(answer)):
            data = self.rules.seeded(at, self, place, item)
            if data is not None:
                key = self.rules.seeded_key(self, place, item)
                at.put(self.kind, key, data, parent=self.rules.seeded_parent(place, item))

    def _handler(self, op: Operation) -> Callable[[Ctx], Response]:
        run: Callable[[Ctx, Resource], Response] = getattr(self.rules, f"serve_{op}")

        def handler(ctx: Ctx) -> Response:
            return run(ctx, self)

        return _named(handler, op, self.kind)

    # -- what hangs off its items and its list ---------------------------------------------
    def action(
        self,
        suffix: str,
        apply: Callable[[Ctx, Place, Row], Row | None],
        access: Access | None = None,
        *,
        method: str = "POST",
        answer: Answer = "item",
        status: int = 204,
        description_only: bool = False,
    ) -> BaseRoute:
        """`POST <item>/<suffix>`: a change of one item (a move, a restore, a duplicate), which
        needs what the resource's writes need unless `access` says. It answers the item (or the
        one `apply` returns: a duplicate) as an update does, or as a create does (`created`),
        or `status` without a body (`nothing`)."""

        def handler(ctx: Ctx) -> Response:
            place, row = self.scope.find(ctx, self, access or self.access.write)
            made = apply(ctx, place, row)
            if answer == "nothing":
                return empty(status)
            shown = reload(ctx, made or row)
            if answer == "created":
                return self.rules.answer_created(ctx, self, place, shown)
            return self.rules.answer(ctx, self, place, shown)

        path = f"{self.item_at}/{suffix}"
        named = _named(handler, suffix, self.kind)
        return self._made(api_route(method, path, named, description_only=description_only))

    def listing(
        self,
        suffix: str,
        rows: Callable[[Ctx, Place, Row], Sequence[Any]],
        render: Callable[[Ctx, Sequence[Any]], list[Doc]] | None = None,
        *,
        paged: bool = True,
        missing: str = "",
    ) -> BaseRoute:
        """`GET <item>/<suffix>`: what one item holds of another kind (a collection's spaces,
        a member's teams), the item found first (`missing`: its 404 there, when not the
        entry's); `rows` are views, or what `render` makes the views of one page from. Paged
        as every list, or production's `{items}` of all of them."""
        entry = replace(self, missing=missing) if missing else self

        def handler(ctx: Ctx) -> Response:
            place, row = self.scope.find(ctx, entry, Access.READ)
            found = rows(ctx, place, row)
            if not paged:
                return ok({"items": list(found) if render is None else render(ctx, found)})
            return paginate(ctx, found, None if render is None else lambda p: render(ctx, p))

        named = _named(handler, suffix, self.kind)
        return self._made(api_route("GET", f"{self.item_at}/{suffix}", named))

    def read(self, suffix: str, view: View) -> BaseRoute:
        """`GET <item>/<suffix>`: another view of one item (a site's published content)."""

        def handler(ctx: Ctx) -> Response:
            _, row = self.scope.find(ctx, self, Access.READ)
            return ok(view(ctx, row))

        named = _named(handler, suffix, self.kind)
        return self._made(api_route("GET", f"{self.item_at}/{suffix}", named))

    def batch(self, apply: Callable[[Ctx, Place], Doc | None], method: str = "PUT") -> BaseRoute:
        """`PUT <list>`: many of its items written in one request (production's batches), with
        what its writes need; it answers what `apply` returns, or 204 without a body."""

        def handler(ctx: Ctx) -> Response:
            result = apply(ctx, self.scope.enter(ctx, self.access.write))
            return empty(204) if result is None else ok(result)

        return self._made(api_route(method, self.path, _named(handler, "batch", self.kind)))


def _named(handler: Callable[[Ctx], Response], what: str, kind: str) -> Callable[[Ctx], Response]:
    """The handler named for the route's logs and statistics (`move_space`)."""
    handler.__name__ = f"{what.replace('/', '_').replace('-', '_')}_{kind.replace('-', '_')}"
    return handler

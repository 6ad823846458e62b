"""Declared resources: a flat resource of the API is a table entry, its routes are made from it.

A `Resource` says where the resource is (its path, the id's name, its `scope`: the organization,
a site, or an id of its own), which operations it serves and with which methods, the access each
needs, the body's fields and limits (`body.Body`), the view it answers, the message of an id
that names nothing, what a create stores besides the body, and the statuses it answers
(`Codes`). Listing
pages through the rows (`paging.paginate`, only the page rendered); create, get, update and
delete find, check, store and answer alike for every resource. What a resource does that the
table cannot say is its `Rules` (a subclass overriding a hook: a team's members, the SAML
provider a team deletion must not orphan, a space's soft delete).

Route modules list `RESOURCE.routes()` with their other routes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.body import At, Body, Place, read_body, stored
from docsync.emulator.http import Ctx, api_route, created, empty, new_id, ok
from docsync.emulator.paging import paginate
from docsync.emulator.scopes import IN_ORG, Scope
from docsync.emulator.snapshot import Loading, items
from docsync.emulator.store import Doc, Row

View = Callable[[Ctx, Row], Doc]
Operation = Literal["list", "create", "get", "update", "delete"]
OPERATIONS: tuple[Operation, ...] = ("list", "create", "get", "update", "delete")


@dataclass(frozen=True)
class Permissions:
    """The access a resource's writes need (reading needs membership alone)."""

    #: creating, updating, and an item's actions
    write: Access = Access.CONTENT
    delete: Access = Access.CONTENT_ADMIN


#: content: created and changed by admins and creators, deleted by admins
CONTENT = Permissions()
#: the organization's administration (members, teams, SAML): admins alone
ADMIN = Permissions(Access.ADMIN, Access.ADMIN)
#: a site's items and parts: whoever may change the site
SITE_PART = Permissions(Access.CONTENT, Access.CONTENT)


@dataclass(frozen=True)
class Codes:
    """The statuses a resource answers: production's, and the API description's where it has
    another for a delete that deleted (204 for members, teams and SAML providers, served in its
    mode)."""

    created: int = 201
    updated: int = 200
    #: a delete that deleted something
    deleted: int = 205
    #: a delete of nothing there (a retried delete is done)
    absent: int = 204
    described_deleted: int | None = None

    def of_delete(self, ctx: Ctx) -> int:
        """What a delete that deleted answers in the contract mode served."""
        if self.described_deleted is None or ctx.production:
            return self.deleted
        return self.described_deleted


#: production's statuses, the description's for a delete (docs-platform-api.md §4.12-4.14: 204)
DESCRIBED_DELETE = Codes(described_deleted=204)


class Rules:
    """The hooks of a resource, each with the common behaviour; a resource's own rules override
    the ones where it differs. An operation is a hook too, for a resource whose create or
    update has nothing in common with the others'."""

    # -- finding ---------------------------------------------------------------------------
    def key(self, ctx: Ctx, res: Resource, place: Place) -> str:
        """The store id the path names."""
        named = ctx.params[res.item]
        return f"{place.org}/{named}" if res.org_keyed else named

    def hidden(self, ctx: Ctx, row: Row) -> bool:
        """A stored row the API does not show (it is not found, listed or deleted)."""
        return False

    def filter(self, ctx: Ctx, place: Place, rows: list[Row]) -> list[Row]:
        """The rows a list request keeps (its query's filters)."""
        return rows

    def render(self, ctx: Ctx, res: Resource, page: Sequence[Row]) -> list[Doc]:
        """The views of one page of a list."""
        return [res.view(ctx, row) for row in page]

    # -- writing ---------------------------------------------------------------------------
    def new_key(self, ctx: Ctx, place: Place, values: Doc) -> str:
        return new_id()

    def fresh(self, ctx: Ctx, place: Place, values: Doc) -> Doc:
        """What a new row holds besides the body's values and the table's defaults."""
        return {}

    def parent(self, ctx: Ctx, place: Place, values: Doc) -> str | None:
        """The parent of a new row: its site, or none."""
        return place.parent

    def created(self, ctx: Ctx, place: Place, row: Row, values: Doc) -> None:
        """What follows the insert (a team's first members)."""

    def change(self, ctx: Ctx, res: Resource, place: Place, row: Row, values: Doc) -> Row:
        """Apply an update's values: merged into the data, `updatedAt` stamped if kept."""
        data = {**row.data, **stored(res.body, values)}
        if "updatedAt" in res.stamps:
            data["updatedAt"] = ctx.now
        ctx.tx.update(res.kind, row.id, data)
        return reload(ctx, row)

    def remove(self, ctx: Ctx, place: Place, row: Row) -> bool:
        """Delete the row and what it holds (refusing with a 409 what would break another
        resource); False when there was nothing left to delete (a space already in the bin)."""
        return ctx.tx.delete_tree(row.kind, row.id) > 0

    # -- a snapshot --------------------------------------------------------------------------
    def seeded_key(self, res: Resource, place: Place, item: Doc) -> str:
        """The store id of an item a snapshot's list answered."""
        return f"{place.org}/{item['id']}" if res.org_keyed else str(item["id"])

    def seeded(self, at: Loading, res: Resource, place: Place, item: Doc) -> Doc | None:
        """What a row holds of an item a snapshot's list answered (None: no row): the body's
        stored fields, the table's `snapshot` fields and stamps as answered, its defaults for
        the rest."""
        data: Doc = {"id": item["id"]} if res.id_in_data else {}
        data.update(res.defaults)
        for declared in res.body.fields:
            if declared.stored and declared.name in item:
                data[declared.store_as or declared.name] = item[declared.name]
        data.update({name: item[name] for name in res.snapshot or () if name in item})
        data.update({stamp: item.get(stamp, at.now) for stamp in res.stamps})
        return data

    def seeded_parent(self, place: Place, item: Doc) -> str | None:
        """The parent of an item a snapshot's list answered: its site, or none."""
        return place.parent

    def seeded_order(self, items: list[Doc]) -> list[Doc]:
        """The items of a snapshot's list in the order they are stored: as listed (rows are
        listed in the order they were stored)."""
        return items

    # -- operations ------------------------------------------------------------------------
    def serve_list(self, ctx: Ctx, res: Resource) -> Response:
        place = res.scope.enter(ctx, Access.READ)
        rows = [r for r in res.scope.rows(ctx, res.kind, place) if not self.hidden(ctx, r)]
        rows = self.filter(ctx, place, rows)
        return paginate(ctx, rows, lambda page: self.render(ctx, res, page))

    def serve_create(self, ctx: Ctx, res: Resource) -> Response:
        place = res.scope.enter(ctx, res.access.write)
        values = read_body(res.body, At(ctx, place), "create")
        key = self.new_key(ctx, place, values)
        data: Doc = {"id": key} if res.id_in_data else {}
        data.update(res.defaults)
        data.update(stored(res.body, values))
        data.update(self.fresh(ctx, place, values))
        data.update(dict.fromkeys(res.stamps, ctx.now))
        ctx.tx.insert(res.kind, key, data, org=place.org, parent=self.parent(ctx, place, values))
        row = ctx.tx.get_row(res.kind, key)
        assert row is not None
        self.created(ctx, place, row, values)
        return self.answer_created(ctx, res, place, reload(ctx, row))

    def answer_created(self, ctx: Ctx, res: Resource, place: Place, row: Row) -> Response:
        location = None
        if res.location:
            site = None if place.site is None else place.site.id
            location = ctx.url(res.location.format(org=place.org, site=site, id=row.id))
        return created(res.view(ctx, row), location, res.codes.created)

    def serve_get(self, ctx: Ctx, res: Resource) -> Response:
        _, row = res.scope.find(ctx, res, Access.READ)
        return ok(res.view(ctx, row))

    def serve_update(self, ctx: Ctx, res: Resource) -> Response:
        place, row = res.scope.find(ctx, res, res.access.write)
        values = read_body(res.body, At(ctx, place, row), "update")
        return self.answer(ctx, res, place, self.change(ctx, res, place, row, values))

    def answer(self, ctx: Ctx, res: Resource, place: Place, row: Row) -> Response:
        """The answer of an update."""
        return ok(res.view(ctx, row), res.codes.updated)

    def serve_delete(self, ctx: Ctx, res: Resource) -> Response:
        """205 when it deleted, 204 when there was nothing to delete (a retried delete)."""
        place, row = res.scope.existing(ctx, res, res.access.delete)
        if row is None or not self.remove(ctx, place, row):
            return empty(res.codes.absent)
        return empty(res.codes.of_delete(ctx))


def reload(ctx: Ctx, row: Row) -> Row:
    """The stored row as it is now (rows are snapshots)."""
    fresh = ctx.tx.get_row(row.kind, row.id)
    assert fresh is not None
    return fresh


@dataclass(frozen=True)
class Resource:
    """One flat resource of the API: its table entry."""

    #: the store's kind of its rows ("team")
    kind: str
    #: the list's path, where it is created too ("/v1/orgs/{organizationId}/teams")
    path: str
    #: the name of the id in an item's path ("teamId")
    item: str
    view: View
    #: the 404 of an id that names nothing, with `{id}`, `{org}` and `{site}`
    missing: str = "No such resource {id!r}"
    scope: Scope = IN_ORG
    body: Body = field(default_factory=Body)
    rules: Rules = field(default_factory=Rules)
    #: the operations it serves, and the methods of its create and update
    operations: tuple[Operation, ...] = OPERATIONS
    create_method: str = "POST"
    update_method: str = "PATCH"
    access: Permissions = CONTENT
    #: its store id is `<organization>/<the path's id>` (members by user, specs by slug)
    org_keyed: bool = False
    #: an item's path, when it is not the list's path and the id ("/v1/collections/{...}")
    item_path: str = ""
    #: where a created item is (its `Location`: with `{org}`, `{site}`, `{id}`), if answered
    location: str = ""
    #: a new row's data: its id in it too, what it starts with, the times stamped on create
    id_in_data: bool = False
    defaults: Mapping[str, object] = field(default_factory=dict)
    stamps: tuple[str, ...] = ("createdAt",)
    codes: Codes = Codes()
    #: None: a snapshot's answer of its list is not loaded (no client reads it); else the
    #: fields of an answered item a snapshot keeps besides the body's (`Rules.seeded`)
    snapshot: tuple[str, ...] | None = None

    def key_in(self, ctx: Ctx, place: Place) -> str:
        return self.rules.key(ctx, self, place)

    def hides(self, ctx: Ctx, row: Row) -> bool:
        return self.rules.hidden(ctx, row)

    def routes(self) -> list[BaseRoute]:
        """Its routes, in the order list, create, get, update, delete."""
        item = self.item_path or f"{self.path}/{{{self.item}}}"
        where: dict[Operation, tuple[str, str]] = {
            "list": ("GET", self.path),
            "create": (self.create_method, self.path),
            "get": ("GET", item),
            "update": (self.update_method, item),
            "delete": ("DELETE", item),
        }

        def loaded(op: Operation) -> bool:
            return op in ("list", "get") and self.snapshot is not None

        return [
            api_route(*where[op], self._handler(op), loads=self._load if loaded(op) else None)
            for op in OPERATIONS
            if op in self.operations
        ]

    def _load(self, at: Loading, params: dict[str, str], answer: object) -> None:
        """A snapshot's answer of its list, or of one item (a space in the bin, read by its
        id), stored as its rows (`Rules.seeded`)."""
        place = self.scope.seeded_place(at, params)
        if place is None:
            return
        one = [answer] if isinstance(answer, dict) and "id" in answer else []
        for item in self.rules.seeded_order(one or items(answer)):
            data = self.rules.seeded(at, self, place, item)
            if data is not None:
                key = self.rules.seeded_key(self, place, item)
                at.put(self.kind, key, data, parent=self.rules.seeded_parent(place, item))

    def action(
        self,
        suffix: str,
        apply: Callable[[Ctx, Place, Row], None],
        access: Access | None = None,
        *,
        description_only: bool = False,
    ) -> BaseRoute:
        """`POST <item>/<suffix>`: a change of one item (a move, a restore), answered as an
        update is; it needs what the resource's writes need unless `access` says."""
        item = self.item_path or f"{self.path}/{{{self.item}}}"

        def handler(ctx: Ctx) -> Response:
            place, row = self.scope.find(ctx, self, access or self.access.write)
            apply(ctx, place, row)
            return self.rules.answer(ctx, self, place, reload(ctx, row))

        handler.__name__ = f"{suffix}_{self.kind.replace('-', '_')}"
        return api_route("POST", f"{item}/{suffix}", handler, description_only=description_only)

    def _handler(self, op: Operation) -> Callable[[Ctx], Response]:
        run: Callable[[Ctx, Resource], Response] = getattr(self.rules, f"serve_{op}")

        def handler(ctx: Ctx) -> Response:
            return run(ctx, self)

        handler.__name__ = f"{op}_{self.kind.replace('-', '_')}"
        return handler

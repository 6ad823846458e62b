"""What every declared resource does (moto's generic backend): its operations and the hooks a
resource's own rules override where it differs.

An operation finds the place and the row through the entry's scope, checks the caller's access,
reads the body by its declared fields, stores and answers alike for every resource; a hook is
one step of it (a list's query filters, what a new row holds, an update's change, a delete's
refusals, how a snapshot's answer is stored back). An operation is a hook too, for a resource
whose create or update has nothing in common with the others'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from starlette.responses import Response

from docsync.emulator.auth import Access
from docsync.emulator.body import At, Body, Place, read_body, stored
from docsync.emulator.http import Ctx, created, empty, new_id, ok
from docsync.emulator.paging import paginate
from docsync.emulator.scopes import Findable
from docsync.emulator.snapshot import Loading
from docsync.emulator.store import Doc, Row


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


class Entry(Findable, Protocol):
    """What the operations read of a table entry (`resource.Resource`)."""

    @property
    def view(self) -> Callable[[Ctx, Row], Doc]: ...
    @property
    def body(self) -> Body: ...
    @property
    def access(self) -> Permissions: ...
    @property
    def location(self) -> str: ...
    @property
    def id_in_data(self) -> bool: ...
    @property
    def defaults(self) -> Mapping[str, object]: ...
    @property
    def stamps(self) -> tuple[str, ...]: ...
    @property
    def codes(self) -> Codes: ...
    @property
    def snapshot(self) -> tuple[str, ...] | None: ...


def reload(ctx: Ctx, row: Row) -> Row:
    """The stored row as it is now (rows are snapshots)."""
    fresh = ctx.tx.get_row(row.kind, row.id)
    assert fresh is not None
    return fresh


class Rules:
    """The hooks of a resource, each with the common behaviour; a resource's own rules override
    the ones where it differs."""

    # -- finding ---------------------------------------------------------------------------
    def key(self, ctx: Ctx, res: Entry, place: Place) -> str:
        """The store id the path names."""
        named = ctx.params[res.item]
        return f"{place.org}/{named}" if res.org_keyed else named

    def hidden(self, ctx: Ctx, row: Row) -> bool:
        """A stored row the API does not show (it is not found, listed or deleted)."""
        return False

    def filter(self, ctx: Ctx, place: Place, rows: list[Row]) -> list[Row]:
        """The rows a list request keeps (its query's filters)."""
        return rows

    def render(self, ctx: Ctx, res: Entry, page: Sequence[Row]) -> list[Doc]:
        """The views of one page of a list."""
        return [res.view(ctx, row) for row in page]

    # -- writing ---------------------------------------------------------------------------
    def already(self, ctx: Ctx, place: Place, values: Doc) -> Row | None:
        """What a create finds there already and answers as made (production's installs of
        what is installed declare no refusal): none."""
        return None

    def new_key(self, ctx: Ctx, place: Place, values: Doc) -> str:
        return new_id()

    def fresh(self, ctx: Ctx, place: Place, values: Doc) -> Doc:
        """What a new row holds besides the body's values and the table's defaults."""
        return {}

    def parent(self, ctx: Ctx, place: Place, values: Doc) -> str | None:
        """The parent of a new row: its site or the item it is nested in, or none."""
        return place.parent

    def created(self, ctx: Ctx, place: Place, row: Row, values: Doc) -> None:
        """What follows the insert (a team's first members)."""

    def change(self, ctx: Ctx, res: Entry, place: Place, row: Row, values: Doc) -> Row:
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

    def nothing(self, ctx: Ctx, res: Entry) -> None:
        """A delete of an id that names nothing: a 204, what else the path names being there."""

    # -- a snapshot --------------------------------------------------------------------------
    def seeded_key(self, res: Entry, place: Place, item: Doc) -> str:
        """The store id of an item a snapshot's list answered."""
        return f"{place.org}/{item['id']}" if res.org_keyed else str(item["id"])

    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
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
        """The parent of an item a snapshot's list answered: its site or holder, or none."""
        return place.parent

    def seeded_order(self, items: list[Doc]) -> list[Doc]:
        """The items of a snapshot's list in the order they are stored: as listed (rows are
        listed in the order they were stored)."""
        return items

    # -- operations ------------------------------------------------------------------------
    def serve_list(self, ctx: Ctx, res: Entry) -> Response:
        place = res.scope.enter(ctx, Access.READ)
        rows = [r for r in res.scope.rows(ctx, res.kind, place) if not self.hidden(ctx, r)]
        rows = self.filter(ctx, place, rows)
        return paginate(ctx, rows, lambda page: self.render(ctx, res, page))

    def serve_create(self, ctx: Ctx, res: Entry) -> Response:
        place = res.scope.enter(ctx, res.access.write)
        values = read_body(res.body, At(ctx, place), "create")
        there = self.already(ctx, place, values)
        if there is not None:
            return self.answer_created(ctx, res, place, there)
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

    def answer_created(self, ctx: Ctx, res: Entry, place: Place, row: Row) -> Response:
        """201 with the item, and where it is when the table says (its `location`, with the
        path's parameters, `{org}`, `{site}`, `{id}` and `{parent}`)."""
        location = None
        if res.location:
            site = None if place.site is None else place.site.id
            where = {**ctx.params, "org": place.org, "site": site, "parent": row.parent}
            location = ctx.url(res.location.format(**where, id=row.id))
        return created(res.view(ctx, row), location, res.codes.created)

    def serve_get(self, ctx: Ctx, res: Entry) -> Response:
        _, row = res.scope.find(ctx, res, Access.READ)
        return ok(res.view(ctx, row))

    def serve_update(self, ctx: Ctx, res: Entry) -> Response:
        place, row = res.scope.find(ctx, res, res.access.write)
        values = read_body(res.body, At(ctx, place, row), "update")
        return self.answer(ctx, res, place, self.change(ctx, res, place, row, values))

    def answer(self, ctx: Ctx, res: Entry, place: Place, row: Row) -> Response:
        """The answer of an update."""
        return ok(res.view(ctx, row), res.codes.updated)

    def serve_delete(self, ctx: Ctx, res: Entry) -> Response:
        """205 when it deleted, 204 when there was nothing to delete (a retried delete)."""
        place, row = res.scope.existing(ctx, res, res.access.delete)
        if row is None or not self.remove(ctx, place, row):
            return empty(res.codes.absent)
        return empty(res.codes.of_delete(ctx))

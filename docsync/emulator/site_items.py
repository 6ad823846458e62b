"""What a site's structure items (sections, site spaces, section groups, external links) share
as declared resources: their views given the item alone, an update answered as production does
(`Prefer: return=minimal`), a path free among its siblings, and the deprecated `move`."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from starlette.responses import Response

from docsync.emulator import site_tree as tree
from docsync.emulator.auth import Access
from docsync.emulator.body import At, Place
from docsync.emulator.errors import conflict
from docsync.emulator.http import Ctx
from docsync.emulator.paging import paginate
from docsync.emulator.resource import View
from docsync.emulator.rules import Entry, Rules
from docsync.emulator.site_order import place, position, regroup
from docsync.emulator.site_views import answer
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields

ItemView = Callable[[Ctx, Row, Row], Doc]


def of_item(view: ItemView) -> View:
    """A view of an item of a site (`view(ctx, site, item)`) given the item alone."""

    def item_view(ctx: Ctx, row: Row) -> Doc:
        site = ctx.tx.get_row(tree.SITE, str(row.data["site"]))
        assert site is not None
        return view(ctx, site, row)

    return item_view


class ItemRules(Rules):
    """A site's item: listed in the structure's order, moved by an update (into or out of a
    group) before its fields change, answered as `Prefer` asks, deleted with what it holds."""

    #: its level's default is settled again once it is deleted (sections, site spaces)
    settles: ClassVar[bool] = False
    #: the update's field naming the group it goes into (null: out of its group)
    group_field: ClassVar[str | None] = None

    def items(self, ctx: Ctx, site: Row) -> list[Doc]:
        """The views a list answers, in the structure's order."""
        raise NotImplementedError

    def serve_list(self, ctx: Ctx, res: Entry) -> Response:
        return paginate(ctx, self.items(ctx, res.scope.enter(ctx, Access.READ).site_row))

    def relocate(self, ctx: Ctx, place: Place, row: Row, values: Doc) -> None:
        """Where an update moves the item, before its fields change."""
        if self.group_field is not None and self.group_field in values:
            regroup(ctx, place.site_row, row, values[self.group_field])

    def change(self, ctx: Ctx, res: Entry, place: Place, row: Row, values: Doc) -> Row:
        self.relocate(ctx, place, row, values)
        return super().change(ctx, res, place, row, values)

    def answer(self, ctx: Ctx, res: Entry, place: Place, row: Row) -> Response:
        return answer(ctx, res.view(ctx, row))

    def remove(self, ctx: Ctx, place: Place, row: Row) -> bool:
        ctx.tx.delete_tree(row.kind, row.id)
        if self.settles:
            tree.settle_defaults(ctx.tx, place.site_row)
        return True


def group_named(at: At, group_id: str | None, name: str) -> Row | None:
    """The group of the site a body field names (None for null); 404 naming the field."""
    if group_id is None:
        return None
    return tree.find_child(at.ctx.tx, at.place.site_row, tree.GROUP, group_id, name)


def path_free(taken: Callable[[At], list[str]], holder: str) -> Callable[[At, str, str], str]:
    """A `path` field's check: 409 when another item of its site or level has it; `holder`
    says which, with `{site}`."""

    def check(at: At, path: str, name: str) -> str:
        if path in taken(at):
            other = holder.format(site=at.place.parent)
            raise conflict("path-taken", f"{name}: {other} already has path {path!r}")
        return path

    return check


def mover(pointer: str, kinds: tuple[str, ...]) -> Callable[[Ctx, Place, Row], None]:
    """The deprecated `POST .../move {position}`: next to a sibling, or last of its level."""

    def move(ctx: Ctx, at: Place, row: Row) -> None:
        body = Fields(ctx.body(required=False), ("position",))
        side, anchor = position(ctx, at.site_row, row, body.obj("position"), pointer, kinds)
        place(ctx, row, side, anchor)

    return move

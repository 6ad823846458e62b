"""A site's structure: what a site holds, read whole, and the sort of one of its items among its
siblings (the moves themselves: site_order.py). The structure is the site's rows, not one value:
it is read and sorted, never written whole."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator import site_tree as tree
from docsync.emulator.body import Place
from docsync.emulator.http import Ctx
from docsync.emulator.routes.sites.sites import SITES
from docsync.emulator.singleton import Held, Singleton
from docsync.emulator.site_order import place, pointer, resolve, sort_position
from docsync.emulator.site_views import answer, item_view, structure_view
from docsync.emulator.snapshot import Loading, items, kept, obj
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields

#: what a snapshot keeps of each item of a structure as answered, by its `object`
_SHOWN = ("icon", "description", "condition", "draft", "localizedTitle", "localizedDescription")
_KEPT = {
    tree.SECTION: ("title", "path", "createdAt", *_SHOWN),
    tree.GROUP: ("title", "icon", "draft", "localizedTitle", "createdAt"),
    tree.LINK: ("title", "url", *_SHOWN),
    tree.SITE_SPACE: ("path", "condition", "draft", "pageId", "hidden", "createdAt"),
}


class Structure(Held):
    def seeded(
        self, at: Loading, one: Singleton, params: dict[str, str], answer: Any
    ) -> Doc | None:
        """A site's structure as a snapshot read it: its items in order, where they stand, and
        the defaults of the site (its changes) and of each section."""
        site = params["siteId"]
        return _load_level(at, site, site, items(obj(answer).get("structure")))


def _load_level(at: Loading, site: str, parent: str, found: list[Doc]) -> Doc:
    """One level's items (the root's, a group's, a section's site spaces); the defaults it
    holds (`defaultSection`, `defaultSiteSpace`)."""
    defaults: Doc = {}
    for item in found:
        kind = str(item.get("object"))
        if kind not in _KEPT:
            continue
        data: Doc = {"id": item["id"], "site": site, "createdAt": at.now, **kept(item, _KEPT[kind])}
        if kind == tree.SITE_SPACE:
            space = item.get("space") or {}
            data.update(space=space.get("id"), section=None if parent == site else parent)
            if item.get("title") not in (None, space.get("title")):
                data["title"] = item["title"]
        at.put(kind, str(item["id"]), data, parent=parent)
        if item.get("default"):
            defaults["defaultSection" if kind == tree.SECTION else "defaultSiteSpace"] = item["id"]
        if kind == tree.SECTION:
            at.patch(kind, str(item["id"]), _load_level(at, site, item["id"], item["siteSpaces"]))
        elif kind == tree.GROUP:
            defaults.update(_load_level(at, site, item["id"], items(item.get("children"))))
    return defaults


STRUCTURE = Singleton(
    SITES,
    "structure",
    lambda ctx, site, value: structure_view(ctx, site),
    rules=Structure(),
    operations=("get",),
)


def _sort(ctx: Ctx, at: Place, site: Row) -> Response:
    """Production's sort: one item next to a sibling, or last of its level."""
    body = Fields(ctx.body(), ("item", "position"))
    row = resolve(ctx, site, pointer(body.obj("item", required=True), "item"), "item")
    side, anchor = sort_position(ctx, site, row, body.obj("position"))
    place(ctx, row, side, anchor)
    return answer(ctx, item_view(ctx, site, tree.reload(ctx.tx, row)))


routes: list[BaseRoute] = [*STRUCTURE.routes(), STRUCTURE.action("sort", _sort, method="PATCH")]

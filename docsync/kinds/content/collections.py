"""Collections, keyed by their title path from the top (`Developers/Internal`): titles are
unique only among siblings."""

from __future__ import annotations

from typing import Annotated, Any

from docsync.api.answers import ID, TEXT, Opt
from docsync.api.contract import LEAVES, LEFT_OUT, MIN_LENGTH, NATURAL_KEY, POSITION, Note, Seed
from docsync.core.context import PlanContext
from docsync.core.entries import DefaultLevel, Entry, Ref
from docsync.core.model import Action, address
from docsync.core.nullability import NULL
from docsync.core.reconcile import renamed_live
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.access.grant_holders import GRANT_ROUTES
from docsync.kinds.access.grants import Permissions
from docsync.kinds.crud import CrudKind
from docsync.kinds.declaration import Api, Declaration, Field
from docsync.kinds.kind import Path
from docsync.kinds.parts import plan_held
from docsync.kinds.requests import Routes, Writes, each_write_lost


class CollectionEntry(Entry):
    """A collection, keyed by title within its parent collection."""

    title: str | None = Api(answer=TEXT).limits(default=None, min_length=1, max_length=50)
    description: str | None = Api(create=False, answer=Opt(TEXT)).limits(
        default=None, max_length=100
    )
    defaultLevel: Annotated[DefaultLevel | None, NULL] = Api(create=False, answer=Opt(TEXT)).limits(
        default=None
    )
    parent: Annotated[Ref | None, NULL] = Api(
        ref="collection",
        update=False,
        route=("POST", "/v1/collections/{id}/move"),
        answer=Opt(ID),
    ).limits(default=None)
    """The parent collection by title (or id); null: top level."""
    permissions: Permissions | None = None
    """Direct grants to teams and members; when written, exact per principal type."""


CONTRACT = (
    Note(
        LEAVES,
        "POST /v1/collections/{id}/transfer",
        "",
        "moves a collection into another organization, which no manifest of this one describes",
    ),
    Note(LEFT_OUT, "POST /v1/collections/{id}/move", "position", POSITION),
    Note(MIN_LENGTH, "POST /v1/orgs/{org}/collections", "title", NATURAL_KEY),
    Note(MIN_LENGTH, "PATCH /v1/collections/{id}", "title", NATURAL_KEY),
    Seed("POST", "/v1/orgs/{org}/collections", {"title": "Developers"}, "collection"),
)

COLLECTION = Declaration(
    "collection",
    "collections",
    "collection",
    key="title",
    renames=True,
    scope="parent",
    export_file="content.yaml",
    entry=CollectionEntry,
    routes=Routes(
        "/v1/orgs/{org}/collections",
        item="/v1/collections/{id}",
        id_name="collectionId",
        read=True,  # its move read back once its every answer was lost
        more=GRANT_ROUTES,
    ),
    writes=(Writes(found_by="listed again, by its title under its parent"),),
    lost_answers=(
        each_write_lost(
            "collections",
            ("{title: Dev}", "{title: Dev, description: Builders}", "{title: Dev, state: absent}"),
            ("POST", "/collections$"),
            ("PATCH", "/collections/[^/]+$"),
            ("DELETE", "/collections/[^/]+$"),
        ),
    ),
    contract=CONTRACT,
    roles=("read", "create or admin; admin to delete one"),
)


def title_paths(items: list[dict[str, Any]], parent_field: str = "parent") -> dict[str, str]:
    """id -> "Parent/Child" for live items whose parents are among `items`."""
    by_id = {str(item["id"]): item for item in items}
    paths: dict[str, str] = {}

    def path_of(item_id: str, seen: frozenset[str]) -> str:
        if item_id in paths:
            return paths[item_id]
        item = by_id[item_id]
        parent = item.get(parent_field)
        if parent and str(parent) in by_id and str(parent) not in seen:
            result = f"{path_of(str(parent), seen | {item_id})}/{item['title']}"
        else:
            result = str(item["title"])
        paths[item_id] = result
        return result

    for item_id in by_id:
        path_of(item_id, frozenset())
    return paths


class CollectionKind(CrudKind):
    declaration = COLLECTION

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        """Each collection keyed by its title path from the top (`Developers/Internal`)."""
        paths = title_paths(raw)
        resources = []
        for item in raw:
            key = paths[str(item["id"])]
            parent = item.get("parent")
            parent_key = paths.get(str(parent)) if parent else None
            fields = {
                "title": item.get("title"),
                "description": item.get("description"),
                "defaultLevel": item.get("defaultLevel"),
                "parent": address(self.name, parent_key) if parent_key else None,
            }
            refs = {fields["parent"]} if fields["parent"] else set()
            resources.append(self.resource(item, key, str(item["title"]), fields, refs))
        return resources

    def plan(self, ctx: PlanContext) -> None:
        """The collections and their grants; a collection moving under one that now stands
        below it waits for that one to move out (the API refuses a collection inside itself)."""
        plan_held(self, ctx, self.plan_entries(ctx))
        moves = {
            action.address: action
            for action in ctx.actions
            if action.kind == self.name
            and action.verb == "update"
            and any(c.field == "parent" for c in action.changes)
        }
        for action in moves.values():
            target = _parent_change(action)
            into = moves.get(str(target)) if target else None
            if into is not None and self._below(into, action, ctx):
                action.depends_on.append(into.key)

    def _below(self, inner: Action, outer: Action, ctx: PlanContext) -> bool:
        """Whether the live collection `inner` updates stands (at any depth) in `outer`'s."""
        seen: set[str] = set()
        here = ctx.live.by_id.get((self.name, inner.live_id or ""))
        while here is not None and here.address not in seen:
            seen.add(here.address)
            parent = here.fields.get("parent")
            here = ctx.live.by_address.get(parent) if parent else None
            if here is not None and here.id == outer.live_id:
                return True
        return False

    def to_desired(self, ctx: PlanContext) -> list[DesiredResource]:
        return self.desired_resources(
            ctx,
            key=lambda entry, _path, ctx: self._key(entry, ctx, frozenset()),
            value=self._value,
        )

    def _key(self, entry: Any, ctx: PlanContext, seen: frozenset[str]) -> str:
        parent = getattr(entry, "parent", None)
        if not parent or entry.title in seen:
            return str(entry.title)
        sibling = self._manifest_entry(str(parent), ctx)
        if sibling is not None:
            # A parent renamed in this plan (through its pinned id, or `was:`) holds the child
            # under its live key, where an entry that does not rename the child finds it.
            own = self._key(sibling, ctx, seen | {entry.title})
            pinned = ctx.live.by_id.get((self.name, str(sibling.id))) if sibling.id else None
            renamed = pinned or (
                entry.was is None and renamed_live(ctx.live, self.name, own, sibling.was)
            )
            return f"{renamed.key if renamed else own}/{entry.title}"
        live = self._live(str(parent), ctx)
        return f"{live.key}/{entry.title}" if live else str(entry.title)

    @staticmethod
    def _manifest_entry(ref: str, ctx: PlanContext) -> Any:
        entries = [e for e in ctx.loaded.manifest.collections if ref in (e.title, e.id)]
        return entries[0] if len(entries) == 1 else None

    def _live(self, ref: str, ctx: PlanContext) -> LiveResource | None:
        found = ctx.live.by_id.get((self.name, ref))
        if found:
            return found
        named = [r for r in ctx.live.by_kind[self.name] if r.name == ref]
        return named[0] if len(named) == 1 else None

    def _value(self, f: Field, value: Any, path: Path, ctx: PlanContext) -> Any:
        """The parent by the address its title path gives (an entry's, or a live one's)."""
        if f.name != "parent" or value is None:
            return value
        entry = self._manifest_entry(str(value), ctx)
        if entry is not None:
            return address(self.name, self._key(entry, ctx, frozenset()))
        live = self._live(str(value), ctx)
        if live is None:
            ctx.problem((*path, "parent"), f"no collection {value!r} in the manifest or live")
            return None
        return live.address


def _parent_change(action: Action) -> str | None:
    """The address an update moves its collection under (None: it does not move it there)."""
    change = next((c for c in action.changes if c.field == "parent"), None)
    return str(change.after) if change is not None and change.after else None

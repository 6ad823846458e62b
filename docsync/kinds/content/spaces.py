"""Spaces, keyed by title within their collection. They hold content: never pruned, deleted
only by `state: absent`, and a pinned space found soft-deleted is restored, not recreated. A
space may hold a Git Sync installation (`gitSync`, `sync.synced`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import model_validator

from docsync.api.answers import ID, TEXT, Obj, Opt
from docsync.api.contract import (
    LEFT_OUT,
    MIN_LENGTH,
    NATURAL_KEY,
    NOT_CONFIGURATION,
    POSITION,
    TEMPLATE,
    UNMANAGED,
    Note,
    Seed,
)
from docsync.api.errors import NotFound
from docsync.core.concurrent import gather_all
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.entries import DefaultLevel, Entry, Language, Ref, Uri
from docsync.core.model import Action, FieldChange
from docsync.core.nullability import NULL
from docsync.core.payloads import Fields
from docsync.core.reconcile import renamed_live
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.access.grant_holders import GRANT_ROUTES
from docsync.kinds.access.grants import Permissions
from docsync.kinds.changes import fields_of
from docsync.kinds.crud import CrudKind
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.kind import Path
from docsync.kinds.lists import Place, Steps
from docsync.kinds.organization.merge_rules import SpaceMergeRules, merge_rules_value
from docsync.kinds.parts import plan_held, read_held
from docsync.kinds.requests import Found, Reading, Route, Routes, Writes, each_write_lost
from docsync.kinds.sync.synced import installation_held


def _no_emoji(value: Any) -> Any:
    return value or None


def _parent(raw: dict[str, Any]) -> Any:
    return raw.get("parent")


def _icon(raw: dict[str, Any]) -> Any:
    """A space's icon, which production answers as the URL of its `urls`."""
    urls = raw.get("urls")
    return urls.get("icon") if isinstance(urls, dict) else None


class SpaceEntry(Entry):
    """A space, keyed by title within its collection; deleted only by ``state: absent``."""

    title: str | None = Api(answer=TEXT).limits(default=None, min_length=1, max_length=50)
    # the API reads "no emoji" as ""
    emoji: Annotated[str | None, NULL] = Api(normalize=_no_emoji, answer=Opt(TEXT)).limits(
        default=None, min_length=1, max_length=50
    )
    # production's create takes none
    icon: Annotated[Uri | None, NULL] = Api(create=False, live=_icon).limits(default=None)
    """An image (its URL) shown for the space instead of an emoji; null removes it."""
    collection: Annotated[Ref | None, NULL] = Api(
        ref="collection",
        live=_parent,
        wire="parent",
        update=False,
        route=("POST", "/v1/spaces/{id}/move"),
        answer=Opt(ID),
        answered_as="parent",
    ).limits(default=None)
    """The collection by title (or id); null: top level."""
    editMode: Literal["live", "locked"] | None = Api(create=False, answer=Opt(TEXT)).limits(
        default=None
    )
    defaultLevel: Annotated[DefaultLevel | None, NULL] = Api(create=False, answer=Opt(TEXT)).limits(
        default=None
    )
    language: Language | None = Api(answer=Opt(TEXT)).limits(default=None)
    """The language of the space's content."""
    mergeRules: SpaceMergeRules | None = Api(
        create=False,
        normalize=merge_rules_value,
        api_default=({"type": "inherit"},),
        answer=Opt(Obj({"type": TEXT})),
    ).limits(default=None)
    """What a change request needs before it merges: `{type: inherit}` (the organization's),
    `{type: rules, rules: [...]}` or `{type: none}`."""
    permissions: Permissions | None = None
    """Direct grants to teams and members; when written, exact per principal type."""

    @model_validator(mode="after")
    def _emoji_or_icon(self) -> SpaceEntry:
        if self.emoji is not None and self.icon is not None:
            raise ValueError(
                "a space shows an emoji or an icon, not both (production's PATCH takes one): "
                "write the other null to remove it"
            )
        return self


CREATE = "POST /v1/orgs/{org}/spaces"
CONTRACT = (
    Note(LEFT_OUT, "POST /v1/spaces/{id}/move", "position", POSITION),
    Note(
        UNMANAGED,
        CREATE,
        "editMode",
        "sent by the PATCH that follows the create (the only one that takes it)",
    ),
    Note(NOT_CONFIGURATION, CREATE, "template", TEMPLATE),
    Note(
        NOT_CONFIGURATION,
        CREATE,
        "empty",
        TEMPLATE + " (an empty space, without the default first page)",
    ),
    Note(
        NOT_CONFIGURATION,
        CREATE,
        "computedSource",
        "the content a space is computed from (an OpenAPI spec, a translation), set once at its "
        "create (its PATCH takes no source): content, which the spec or translation keeps",
    ),
    Note(MIN_LENGTH, CREATE, "title", NATURAL_KEY),
    Note(MIN_LENGTH, "PATCH /v1/spaces/{id}", "title", NATURAL_KEY),
    Note(MIN_LENGTH, CREATE, "emoji", "an empty emoji is written `null`, which removes it"),
    Seed("POST", "/v1/orgs/{org}/spaces", {"title": "Guides", "parent": "{collection}"}, "guides"),
    Seed("POST", "/v1/orgs/{org}/spaces", {"title": "API Reference"}, "reference"),
)

SPACE = Declaration(
    "space",
    "spaces",
    "space",
    key="title",
    renames=True,
    scope="collection",
    order=(
        "title",
        "emoji",
        "icon",
        "editMode",
        "defaultLevel",
        "language",
        "mergeRules",
        "collection",
    ),
    needs=("collection",),
    prunable=False,  # spaces hold content: deleted only by `state: absent`
    export_file="content.yaml",
    entry=SpaceEntry,
    routes=Routes(
        "/v1/orgs/{org}/spaces",
        item="/v1/spaces/{id}",
        id_name="spaceId",
        read=True,  # a pinned space the list leaves out may be in the bin; a move read back
        more={
            "restore": Route("POST", "{item}/restore", retry_safe=True),  # out of the bin
            **GRANT_ROUTES,
        },
    ),
    writes=(
        Writes(
            found_by=Found(
                "listed again, by its title in its collection",
                (("title", "title"), ("collection", "parent")),
            )
        ),
    ),
    lost_answers=(
        each_write_lost(
            "spaces",
            ("{title: Notes}", "{title: Notes, emoji: '1f4d8'}", "{title: Notes, state: absent}"),
            ("POST", "/spaces$"),
            ("PATCH", "/spaces/[^/]+$"),
            ("DELETE", "/spaces/[^/]+$"),
        ),
    ),
    contract=CONTRACT,
    roles=("read", "create or admin; admin to delete one"),
    answer_more={"deletedAt": Opt(TEXT)},
)


class SpaceKind(CrudKind):
    declaration = SPACE

    async def fetch(self, read: Reading) -> Any:
        """The list omits deleted spaces: a pinned space missing from it is read by id, in case
        it is in the bin and can be restored."""
        spaces = await self.listed(read.api, read.org_id)
        listed = {s["id"] for s in spaces}
        pinned = [s.id for s in read.entries or () if s.id and s.id not in listed]

        async def binned(space_id: str) -> dict[str, Any] | None:
            try:
                found: dict[str, Any] = await self.send(
                    read.api, "read", org=read.org_id, id=space_id
                )
            except NotFound:
                return None
            return found if found.get("deletedAt") else None

        found = spaces + [s for s in await gather_all(*map(binned, pinned)) if s is not None]
        await read_held(self, read, found)
        return found

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        """Each space keyed by its collection's key and its title (`Developers/Guides`); one in
        the bin is never matched by key, only by its pinned id."""
        resources = self.live_resources(raw, live, key=_live_key)
        for resource in resources:
            if resource.raw.get("deletedAt"):
                resource.address += "(deleted)"
        return resources

    def to_desired(self, ctx: PlanContext) -> list[DesiredResource]:
        return self.desired_resources(ctx, key=_desired_key)

    def plan(self, ctx: PlanContext) -> None:
        """A pinned space found in the bin is restored, not created anew; one in the bin and
        not written is deleted already."""
        steps = Steps(self.plan_create, self._restored, self._deleted)
        result = self.plan_entries(ctx, steps)
        plan_held(self, ctx, result)

    def _restored(self, desired: DesiredResource, live: LiveResource, at: Place) -> Action | None:
        ctx = at.ctx
        if not live.raw.get("deletedAt"):
            return self.plan_update(desired, live, at)
        changes = [FieldChange("deletedAt", live.raw["deletedAt"], None)]
        changes += self.changes(desired, live, ctx)
        fields = {
            c.field: ref(c.after) if self.field(c.field).ref else c.after for c in changes[1:]
        }
        action = Action(
            "restore",
            self.name,
            desired.address,
            changes,
            ctx.where(desired.path),
            live_id=live.id,
            payload=Fields(desired.key, fields),
        )
        action.notes.append("in the bin: restored rather than created anew")
        return ctx.add(action)

    def _deleted(
        self, live: LiveResource, desired: DesiredResource | None, at: Place
    ) -> Action | None:
        if live.raw.get("deletedAt"):
            return None  # already deleted
        action = self.plan_delete(live, desired, at)
        synced = installation_held(live)
        if action is not None and synced:
            action.takes_away(f"goes with it: {synced}")
        return action

    async def execute(self, action: Action, run: RunContext) -> None:
        if action.verb != "restore":
            await super().execute(action, run)
            return
        assert action.live_id is not None
        await self.send(run.api, "restore", org=run.org_id, id=action.live_id)
        fields = run.resolve(fields_of(action).fields)
        await self.send_update(action.live_id, self.body(fields, creating=False), run)
        await self.send_routed(action.live_id, fields, run)


def _live_key(raw: dict[str, Any], live: LiveState) -> str:
    collection = live.address_of("collection", raw.get("parent"))
    prefix = live.by_address[collection].key + "/" if collection else ""
    return f"{prefix}{raw['title']}"


def _desired_key(entry: Any, path: Path, ctx: PlanContext) -> str:
    if getattr(entry, "collection", None):
        collection = ctx.resolve("collection", str(entry.collection), (*path, "collection"))
        # A collection renamed through its pinned id still holds the space by its live key.
        renamed = ctx.live.by_id.get(("collection", ctx.live_id_of(collection) or ""))
        written = ctx.desired.by_address.get(collection) if collection else None
        holder = collection and (
            renamed
            # renamed with `was:`: under its live key, it holds a space that renames none itself
            or (
                entry.was is None
                and written is not None
                and renamed_live(ctx.live, "collection", written.key, written.was)
            )
            or written
            or ctx.live.by_address.get(collection)
        )
        if holder:
            return f"{holder.key}/{entry.title}"
    return str(entry.title)

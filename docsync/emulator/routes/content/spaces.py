"""Spaces: list, create, get, PATCH, soft DELETE, restore (7 days), move, transfer, duplicate."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator import git_sync, merge_rules, space_templates
from docsync.emulator.auth import Access
from docsync.emulator.body import BOTH, At, Body, Choice, Field, Op, Place, Text
from docsync.emulator.computed_sources import check_source
from docsync.emulator.content import (
    LEVELS,
    answered_parent,
    find,
    insert_space,
    is_purged,
    live_collection,
    move,
    transfer_tree,
)
from docsync.emulator.errors import bad_request, conflict, not_found
from docsync.emulator.grants import drop_resource
from docsync.emulator.http import Ctx, created, new_id
from docsync.emulator.integrations import drop_space
from docsync.emulator.resource import Resource
from docsync.emulator.routes.content.openapi import write_spec
from docsync.emulator.rules import Entry, Rules
from docsync.emulator.scopes import BY_ID
from docsync.emulator.snapshot import Loading
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import URL_PATTERN, Fields
from docsync.emulator.views import space_view

LANGUAGES = (
    "en",
    "fr",
    "de",
    "es",
    "it",
    "pt",
    "pt-br",
    "ru",
    "ja",
    "zh",
    "zh-tw",
    "yue",
    "ko",
    "ar",
    "hi",
    "nl",
    "pl",
    "tr",
    "sv",
    "no",
    "da",
    "fi",
    "el",
    "cs",
    "hu",
    "ro",
    "th",
    "vi",
    "id",
    "ms",
    "he",
    "uk",
    "sk",
    "bg",
    "hr",
    "lt",
    "lv",
    "et",
    "sl",
)
ORG_BASE = "/v1/orgs/{organizationId}/spaces"
BASE = "/v1/spaces/{spaceId}"


def create_space(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT)["id"]
    fields = ("title", "emoji", "parent", "language", "editMode", "empty", *MADE_FROM)
    body = Fields(ctx.body(required=False), fields)
    parent = body.string("parent")  # null: 400, as production
    if parent is not None:
        live_collection(ctx, org, parent, "parent")
    body.boolean("empty")
    source, template = _made_from(ctx, org, body)
    title = body.string("title", max_len=50)
    space_id = insert_space(
        ctx,
        org,
        title if title is not None else "" if template is None else template.data["title"][:50],
        parent,
        emoji=body.string("emoji", max_len=50) or "",
        editMode=body.enum("editMode", ("live", "locked")) or "live",
        language=body.enum("language", LANGUAGES),
        **source,
    )
    if template is not None:
        provision(ctx, org, template)
    return created(space_view(ctx, find(ctx, "space", space_id)), ctx.url(f"/spaces/{space_id}"))


#: what production's createSpace makes a space from, besides nothing (one at most)
MADE_FROM = ("template", "computedSource")


def _made_from(ctx: Ctx, org: str, body: Fields) -> tuple[dict[str, Any], Row | None]:
    """The row fields of a space made from a computed source, or the seeded template it is made
    from (an unknown one is a 404); both at once is a 400 (production's body is one of them)."""
    given = [name for name in MADE_FROM if body.has(name)]
    if len(given) > 1:
        raise bad_request("computedSource: give a template or a computed source, not both")
    template = space_templates.named(ctx.tx, body.obj("template"))
    if body.has("computedSource"):
        return {"computedSource": check_source(ctx.tx, org, body.data["computedSource"])}, None
    return {}, template


def provision(ctx: Ctx, org: str, template: Row) -> None:
    """What applying `template` makes in the organization: its OpenAPI spec, unless one of
    that slug is there (it is kept as it is)."""
    spec = template.data.get("openAPISpec")
    if spec and ctx.tx.get("openapi-spec", f"{org}/{spec['slug']}") is None:
        write_spec(ctx, org, spec["slug"], {"url": spec["sourceURL"]})


#: production's ApplySpaceTemplate, the body of applyTemplateToSpace besides its changeRequestId
_APPLY = ("id", "params")


def _apply_template(ctx: Ctx, place: Place, row: Row) -> None:
    """Production's applyTemplateToSpace (201, no body): the emulator holds no page content, so
    what it does is provision the template's OpenAPI spec. No change request exists here."""
    if row.data.get("deletedAt"):
        raise not_found(f"Space {row.id!r} is deleted: restore it before applying a template")
    raw = ctx.body()
    change_request = Fields(raw, ("id", "params", "changeRequestId")).string("changeRequestId")
    template = space_templates.named(ctx.tx, {k: v for k, v in raw.items() if k in _APPLY}, "")
    if change_request is not None:
        raise not_found(f"changeRequestId: no change request {change_request!r} in {row.id!r}")
    assert template is not None and row.org is not None
    provision(ctx, row.org, template)


def _one_of_emoji_icon(body: Fields, op: Op) -> None:
    """Production's body is one of {emoji}, {icon} or {emoji: null, icon: null}, each open: an
    emoji and an icon both written match the first two, so neither."""
    if body.data.get("emoji") is not None and body.data.get("icon") is not None:
        raise bad_request("icon: give an emoji or an icon, not both (null removes the other)")


def _merge_rules(at: At, value: Any, name: str) -> Any:
    return merge_rules.SPACE.check(value, name)


class SpaceRules(Rules):
    def hidden(self, ctx: Ctx, row: Row) -> bool:
        return is_purged(row, ctx.now)

    def filter(self, ctx: Ctx, place: Place, rows: list[Row]) -> list[Row]:
        return [row for row in rows if not row.data.get("deletedAt")]

    def serve_create(self, ctx: Ctx, res: Entry) -> Response:
        return create_space(ctx)

    def change(self, ctx: Ctx, res: Entry, place: Place, row: Row, values: Doc) -> Row:
        """A space shows an emoji or an icon (production's PATCH takes one of them): writing
        one removes the other."""
        if values.get("icon"):
            values = {"emoji": "", **values}
        elif values.get("emoji"):
            values = {"icon": None, **values}
        return super().change(ctx, res, place, row, values)

    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
        """A space as answered: its icon is among its URLs; a sync through the older Git Sync
        integration (production's answer without an installation) is kept as the seed's
        `gitSync` is; one through an installation is the installation's, read apart."""
        data: Doc = {"emoji": "", "editMode": "live", "language": None}
        data.update(super().seeded(at, res, place, item) or {})
        data.update(deletedAt=item.get("deletedAt"), revision=item.get("revision"))
        data["icon"] = (item.get("urls") or {}).get("icon")
        synced = item.get("gitSync")
        if isinstance(synced, dict) and "installationId" not in synced:
            data["legacyGitSync"] = synced
        return data

    def seeded_parent(self, place: Place, item: Doc) -> str | None:
        return answered_parent(item)

    def remove(self, ctx: Ctx, place: Place, row: Row) -> bool:
        """A soft delete: the space is in the bin, restored within 7 days."""
        if row.data.get("deletedAt"):
            return False
        ctx.tx.update("space", row.id, {**row.data, "deletedAt": ctx.now, "updatedAt": ctx.now})
        drop_resource(ctx.tx, row.id)  # a restored space comes back without grants
        drop_space(ctx.tx, row.id)  # nor integrations installed on it
        git_sync.drop_on(ctx.tx, row.id)  # nor its Git Sync installation
        return True


SPACES = Resource(
    "space",
    ORG_BASE,
    "spaceId",
    space_view,
    scope=BY_ID,
    item_path=BASE,
    body=Body(
        (
            Text("title", max_len=50),
            Text("emoji", max_len=50, nullable=BOTH, resolve=lambda at, v, name: v or ""),
            Text("icon", max_len=2048, pattern=URL_PATTERN, nullable=BOTH),
            Choice("editMode", values=("live", "locked")),
            Choice("defaultLevel", values=LEVELS, nullable=BOTH),
            Choice("language", values=LANGUAGES),  # null: 400, as production
            Field("mergeRules", nullable=BOTH, resolve=_merge_rules),
        ),
        check=_one_of_emoji_icon,
    ),
    rules=SpaceRules(),
    location="/spaces/{id}",
    stamps=("createdAt", "updatedAt"),
    snapshot=(),
)


def _restore(ctx: Ctx, place: Place, row: Row) -> None:
    """A space that is not deleted is answered as it is (200): production lists no refusal, and
    a restore retried after its answer was lost must not fail."""
    if row.data.get("deletedAt"):
        ctx.tx.update("space", row.id, {**row.data, "deletedAt": None, "updatedAt": ctx.now})
        if row.parent and ctx.tx.get("collection", row.parent) is None:
            ctx.tx.set_parent("space", row.id, None)


def _transfer(ctx: Ctx, place: Place, row: Row) -> None:
    body = Fields(ctx.body(), ("organization", "collection"))
    if not body.has("organization") and not body.has("collection"):
        raise bad_request("body: give organization, collection or both")
    target = body.string("organization") or row.org
    assert target is not None
    ctx.org(Access.CONTENT, target)
    collection = body.string("collection", nullable=True)
    if collection is not None:
        live_collection(ctx, target, collection, "collection")
    if target == row.org and collection == row.parent:
        raise conflict("space-transfer-no-change", "Transfer would not result in any update")
    transfer_tree(ctx, row, target, collection)


def _duplicate(ctx: Ctx, place: Place, row: Row) -> Row:
    """Its copy in the same collection (201)."""
    if row.data.get("deletedAt"):
        # as for its grants: a space in the bin is not found until restored
        raise not_found(f"Space {row.id!r} is deleted: restore it before duplicating it")
    data = {**row.data, "title": f"{row.data['title']} (copy)"[:50]}
    data.update(createdAt=ctx.now, updatedAt=ctx.now, deletedAt=None)
    space_id = new_id()
    ctx.tx.insert("space", space_id, data, org=row.org, parent=row.parent)
    return find(ctx, "space", space_id)


routes: list[BaseRoute] = [
    *SPACES.routes(),
    SPACES.action("restore", _restore),
    SPACES.action("move", lambda ctx, place, row: move(ctx, row)),
    SPACES.action("transfer", _transfer, Access.CONTENT_ADMIN, description_only=True),
    SPACES.action("duplicate", _duplicate, answer="created"),
    SPACES.action("content/template", _apply_template, answer="nothing", status=201),
]

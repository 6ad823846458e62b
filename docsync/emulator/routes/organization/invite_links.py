"""The organization's invite links (production's `link-invites`): list, create, get, change
what they give, delete.

An invite to the organization gives a `role` (null: guests); production's create also makes an
invite to one space or collection, which gives a `level` there. The list holds the
organization's invites alone, as production's answer schema does. Whoever holds a link's id
joins (production's joinOrganizationWithInvite), so no message repeats it. Rows (id / org /
parent): invite-link (id / org / -), with `{role}` or `{level, space | collection}`.
"""

from __future__ import annotations

from starlette.routing import BaseRoute

from docsync.emulator.body import BOTH, CREATE, At, Body, Choice, Op, Place, Text
from docsync.emulator.content import collection_view, live_collection
from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.http import Ctx
from docsync.emulator.refs import live_space
from docsync.emulator.resource import Resource
from docsync.emulator.rules import ADMIN, Entry, Rules, reload
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import ROLES, Fields
from docsync.emulator.views import space_view

KIND = "invite-link"
#: what a create's body may be: production's CreateOrganizationInvite, one of three
TARGETS = ({"role"}, {"level", "space"}, {"level", "collection"})


def _rank(role: str | None) -> int:
    return len(ROLES) if role is None else ROLES.index(role)


def invite_view(ctx: Ctx, row: Row) -> Doc:
    """An `OrganizationInviteLink`; `redundant` when the caller already has what it gives."""
    data = row.data
    gives = data["role"] if "role" in data else data["level"]
    body: Doc = {"object": "invite", "id": row.id, "redundant": _rank(ctx.role) <= _rank(gives)}
    if "space" in data:
        body.update(level=gives, space=space_view(ctx, _target(ctx, row)))
    elif "collection" in data:
        body.update(level=gives, collection=collection_view(ctx, _target(ctx, row)))
    else:
        body["role"] = gives
    return body


def _target(ctx: Ctx, row: Row) -> Row:
    kind = "space" if "space" in row.data else "collection"
    found = ctx.tx.get_row(kind, str(row.data[kind]))
    assert found is not None  # an invite whose target is gone is hidden
    return found


def _one_target(body: Fields, op: Op) -> None:
    given = set(body.data)
    if op == "create" and given not in TARGETS:
        raise bad_request(
            "body: write role (an invite to the organization), or level with space or "
            "collection (an invite to one of them)"
        )
    if op == "update" and len(given) != 1:
        raise bad_request("body: write role or level (what the invite gives)")


def _space(at: At, space: str, name: str) -> str:
    if live_space(at.ctx.tx, at.place.org, space) is None:
        raise not_found(f"{name}: no space {space!r} in organization {at.place.org!r}")
    return space


def _collection(at: At, collection: str, name: str) -> str:
    return live_collection(at.ctx, at.place.org, collection, name).id


class InviteRules(Rules):
    def hidden(self, ctx: Ctx, row: Row) -> bool:
        """An invite to a space or collection that is gone."""
        kind = "space" if "space" in row.data else "collection" if "collection" in row.data else ""
        return bool(kind) and ctx.tx.get_row(kind, str(row.data[kind])) is None

    def filter(self, ctx: Ctx, place: Place, rows: list[Row]) -> list[Row]:
        return [row for row in rows if "role" in row.data]

    def change(self, ctx: Ctx, res: Entry, place: Place, row: Row, values: Doc) -> Row:
        """Either name sets what the invite gives (production's body is `{role}` or `{level}`
        for any invite)."""
        gives = values["role"] if "role" in values else values["level"]
        field = "role" if "role" in row.data else "level"
        ctx.tx.update(KIND, row.id, {**row.data, field: gives})
        return reload(ctx, row)


INVITE_LINKS = Resource(
    KIND,
    "/v1/orgs/{organizationId}/link-invites",
    "inviteId",
    invite_view,
    missing="No such invite link in organization {org!r}",  # the id is the link's secret
    body=Body(
        (
            Choice("role", nullable=BOTH, values=ROLES),
            Choice("level", nullable=BOTH, values=ROLES),
            Text("space", ops=CREATE, resolve=_space),
            Text("collection", ops=CREATE, resolve=_collection),
        ),
        check=_one_target,
    ),
    rules=InviteRules(),
    access=ADMIN,
    stamps=(),
    snapshot=(),
)

routes: list[BaseRoute] = INVITE_LINKS.routes()

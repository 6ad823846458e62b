"""Teams and team members: create, list, get, rename, delete; batch and single memberships."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access, member_id, membership
from docsync.emulator.body import BOTH, CREATE, At, Body, Place, Text, Texts
from docsync.emulator.errors import bad_request, conflict, not_found
from docsync.emulator.grants import drop_team
from docsync.emulator.http import Ctx, api_route, empty
from docsync.emulator.paging import paginate
from docsync.emulator.refs import saml_using_team
from docsync.emulator.resource import Resource
from docsync.emulator.rules import ADMIN, DESCRIBED_DELETE, Entry, Rules
from docsync.emulator.snapshot import Loading, items
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields
from docsync.emulator.views import member_views, team_view

TEAM_ROLES = ("owner", "member")
BASE = "/v1/orgs/{organizationId}/teams"


def resolve_member(ctx: Ctx, org: str, key: str, field: str) -> str:
    """The user id of an organization member given by user id or email; 404 when unknown."""
    if membership(ctx.tx, org, key) is not None:
        return key
    for user in ctx.tx.users_by_email(key):
        if membership(ctx.tx, org, str(user["id"])) is not None:
            return str(user["id"])
    raise not_found(f"{field}: {key!r} is not a member of organization {org!r} (id or email)")


def _resolve_members(at: At, keys: list[str] | None, name: str) -> list[str]:
    return [
        resolve_member(at.ctx, at.place.org, key, f"{name}[{i}]")
        for i, key in enumerate(keys or [])
    ]


def _set_role(ctx: Ctx, org: str, team: str, uid: str, role: str) -> None:
    key = f"{team}/{uid}"
    if ctx.tx.get("team-member", key) is None:
        ctx.tx.insert("team-member", key, {"user": uid, "role": role}, org=org, parent=team)
    else:
        ctx.tx.update("team-member", key, {"user": uid, "role": role})


class TeamRules(Rules):
    def filter(self, ctx: Ctx, place: Place, rows: list[Row]) -> list[Row]:
        title = ctx.query.get("title")
        if title is not None:
            rows = [r for r in rows if title.lower() in r.data["title"].lower()]
        owner = ctx.query.get("owner")
        if owner is None:
            return rows
        found = membership(ctx.tx, place.org, owner)
        if found is None:
            raise not_found(f"owner: {owner!r} is not a member of organization {place.org!r}")
        if found.get("role") == "admin":
            return rows
        return [
            r
            for r in rows
            if (ctx.tx.get("team-member", f"{r.id}/{owner}") or {}).get("role") == "owner"
        ]

    def render(self, ctx: Ctx, res: Entry, page: Sequence[Row]) -> list[Doc]:
        ctx.tx.count_under("team-member", [r.id for r in page])  # one read for every team_view
        return super().render(ctx, res, page)

    def created(self, ctx: Ctx, place: Place, row: Row, values: Doc) -> None:
        for uid in dict.fromkeys(values.get("members", [])):
            _set_role(ctx, place.org, row.id, uid, "member")

    def remove(self, ctx: Ctx, place: Place, row: Row) -> bool:
        saml = saml_using_team(ctx.tx, place.org, row.id)
        if saml is not None:
            raise conflict(
                "team-is-saml-default",
                f"Team {row.data['title']!r} is the defaultTeam of SAML provider "
                f"{saml['label']!r}: change or delete the provider first",
            )
        removed = super().remove(ctx, place, row)
        drop_team(ctx.tx, place.org, row.id)
        return removed


TEAMS = Resource(
    "team",
    BASE,
    "teamId",
    team_view,
    missing="Team {id!r} not found in organization {org!r}",
    body=Body(
        (
            Text("title", required=BOTH, min_len=1, max_len=64),
            Texts("members", ops=CREATE, stored=False, resolve=_resolve_members),
        )
    ),
    rules=TeamRules(),
    create_method="PUT",
    access=ADMIN,
    id_in_data=True,
    codes=DESCRIBED_DELETE,  # docs-platform-api.md §4.13: 204; production: 205
    snapshot=(),
)


def _team(ctx: Ctx, access: Access = Access.READ) -> tuple[str, Row]:
    place, row = TEAMS.scope.find(ctx, TEAMS, access)
    return place.org, row


def list_team_members(ctx: Ctx) -> Response:
    org, team = _team(ctx)
    rows = ctx.tx.rows("team-member", parent=team.id)
    members = ctx.tx.get_many("member", [member_id(org, r.data["user"]) for r in rows])
    pairs = [
        (members[key].data, row.data["role"])
        for row in rows
        if (key := member_id(org, row.data["user"])) in members
    ]

    def render(page: Sequence[tuple[dict[str, Any], str]]) -> list[dict[str, Any]]:
        views = member_views(ctx, org, [member for member, _ in page])
        return [
            {"organization": view, "team": {"role": role}, "permissions": {"view": True}}
            for view, (_, role) in zip(views, page, strict=True)
        ]

    return paginate(ctx, pairs, render)


def load_team_members(at: Loading, params: dict[str, str], answer: Any) -> None:
    """A team's members as a snapshot read them: `{organization: member, team: {role}}`."""
    team = params["teamId"]
    for item in items(answer):
        uid = str(item["organization"]["id"])
        role = (item.get("team") or {}).get("role", "member")
        at.put("team-member", f"{team}/{uid}", {"user": uid, "role": role}, parent=team)


def update_team_members(ctx: Ctx) -> Response:
    org, team = _team(ctx, Access.ADMIN)
    body = Fields(ctx.body(), ("add", "remove", "memberships"))
    add = [
        resolve_member(ctx, org, k, f"add[{i}]") for i, k in enumerate(body.strings("add") or [])
    ]
    remove = [
        resolve_member(ctx, org, k, f"remove[{i}]")
        for i, k in enumerate(body.strings("remove") or [])
    ]
    roles: dict[str, str] = {}
    for key, value in (body.obj("memberships") or {}).items():
        uid = resolve_member(ctx, org, key, f"memberships.{key}")
        if not isinstance(value, dict):
            raise bad_request(f"memberships.{key}: must be an object {{role}}")
        role = Fields(value, ("role",), f"memberships.{key}.").enum(
            "role", TEAM_ROLES, required=True
        )
        assert role is not None
        roles[uid] = role
    for uid in add:
        if uid not in remove and ctx.tx.get("team-member", f"{team.id}/{uid}") is None:
            _set_role(ctx, org, team.id, uid, roles.get(uid, "member"))
    for uid, role in roles.items():
        if uid not in remove:
            _set_role(ctx, org, team.id, uid, role)
    for uid in remove:
        ctx.tx.delete("team-member", f"{team.id}/{uid}")
    return empty(204)


def put_team_member(ctx: Ctx) -> Response:
    org, team = _team(ctx, Access.ADMIN)
    uid = resolve_member(ctx, org, ctx.params["userId"], "userId")
    role = Fields(ctx.body(required=False), ("role",)).enum("role", TEAM_ROLES)
    current = ctx.tx.get("team-member", f"{team.id}/{uid}")
    _set_role(ctx, org, team.id, uid, role or (current or {}).get("role", "member"))
    return empty(204)


def delete_team_member(ctx: Ctx) -> Response:
    _, team = _team(ctx, Access.ADMIN)
    key = f"{team.id}/{ctx.params['userId']}"
    if ctx.tx.get("team-member", key) is None:
        return empty(204)
    ctx.tx.delete("team-member", key)
    # §4.13: 204 whether or not it was a member; production: 205 if it was
    return empty(DESCRIBED_DELETE.of_delete(ctx))


def list_member_teams(ctx: Ctx) -> Response:
    """`GET .../members/{userId}/teams`: the teams of one member, `{team, member: {role}}` items
    (docs-platform-api.md §4.12), with the case-insensitive `title` filter."""
    org = ctx.org()["id"]
    uid = ctx.params["userId"]
    if membership(ctx.tx, org, uid) is None:
        raise not_found(f"Member {uid!r} not found in organization {org!r}")
    title = (ctx.query.get("title") or "").lower()
    memberships = ctx.tx.by_user("team-member", org, uid)
    teams = ctx.tx.get_many("team", [str(row.parent) for row in memberships])
    pairs = sorted(
        (
            (teams[str(row.parent)], row.data["role"])
            for row in memberships
            if str(row.parent) in teams and title in teams[str(row.parent)].data["title"].lower()
        ),
        key=lambda pair: (pair[0].position, pair[0].id),  # team order, as the teams list
    )
    return paginate(
        ctx,
        pairs,
        lambda page: [{"team": team_view(ctx, t), "member": {"role": role}} for t, role in page],
    )


routes: list[BaseRoute] = [
    api_route("GET", "/v1/orgs/{organizationId}/members/{userId}/teams", list_member_teams),
    *TEAMS.routes(),
    api_route("GET", BASE + "/{teamId}/members", list_team_members, loads=load_team_members),
    api_route("PUT", BASE + "/{teamId}/members", update_team_members),
    api_route("PUT", BASE + "/{teamId}/members/{userId}", put_team_member),
    api_route("DELETE", BASE + "/{teamId}/members/{userId}", delete_team_member),
]

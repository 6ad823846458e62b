"""Teams and team members: create, list, get, rename, delete; batch and single memberships."""

from __future__ import annotations

from collections.abc import Sequence

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import member_id, membership
from docsync.emulator.body import BOTH, CREATE, At, Body, Place, Text, Texts
from docsync.emulator.errors import bad_request, conflict, not_found
from docsync.emulator.grants import drop_team
from docsync.emulator.http import Ctx, empty
from docsync.emulator.refs import saml_using_team
from docsync.emulator.resource import Resource
from docsync.emulator.routes.organization.members import MEMBERS
from docsync.emulator.rules import ADMIN, DESCRIBED_DELETE, Entry, Rules
from docsync.emulator.scopes import Within
from docsync.emulator.snapshot import Loading
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


def _members_page(ctx: Ctx, page: Sequence[Row]) -> list[Doc]:
    """`{organization: member, team: {role}}` (the members read once, from the list's read)."""
    org = str(page[0].org) if page else ""
    keys = [member_id(org, r.data["user"]) for r in page]
    members = ctx.tx.get_many("member", keys)
    views = member_views(ctx, org, [members[key].data for key in keys])
    return [
        {"organization": view, "team": {"role": r.data["role"]}, "permissions": {"view": True}}
        for view, r in zip(views, page, strict=True)
    ]


class TeamMemberRules(Rules):
    """A team's members, keyed `<team>/<user>`; one who left the organization is not listed."""

    def key(self, ctx: Ctx, res: Entry, place: Place) -> str:
        return f"{place.holder.id}/{ctx.params[res.item]}"

    def filter(self, ctx: Ctx, place: Place, rows: list[Row]) -> list[Row]:
        members = ctx.tx.get_many("member", [member_id(place.org, r.data["user"]) for r in rows])
        return [r for r in rows if member_id(place.org, r.data["user"]) in members]

    def render(self, ctx: Ctx, res: Entry, page: Sequence[Row]) -> list[Doc]:
        return _members_page(ctx, page)

    def serve_replace(self, ctx: Ctx, res: Entry) -> Response:
        """`PUT .../members/{userId}` (a member of the organization, by id or email): a member
        of the team, with `role` or the role it has (member at first)."""
        place = res.scope.enter(ctx, res.access.write)
        team = place.holder.id
        uid = resolve_member(ctx, place.org, ctx.params["userId"], "userId")
        role = Fields(ctx.body(required=False), ("role",)).enum("role", TEAM_ROLES)
        current = ctx.tx.get("team-member", f"{team}/{uid}")
        _set_role(ctx, place.org, team, uid, role or (current or {}).get("role", "member"))
        return empty(204)

    def seeded_key(self, res: Entry, place: Place, item: Doc) -> str:
        return f"{place.holder.id}/{item['organization']['id']}"

    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
        """A member as a snapshot read it: `{organization: member, team: {role}}`."""
        role = (item.get("team") or {}).get("role", "member")
        return {"user": str(item["organization"]["id"]), "role": role}


def _update_members(ctx: Ctx, place: Place) -> None:
    """`PUT .../members {add, remove, memberships}`, members by id or email: `add` gives role
    member unless `memberships` names the user; a user in both `add` and `remove` is removed."""
    org, team = place.org, place.holder
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


TEAM_MEMBERS = Resource(
    "team-member",
    TEAMS.item_at + "/members",
    "userId",
    lambda ctx, row: _members_page(ctx, [row])[0],
    scope=Within(TEAMS),
    rules=TeamMemberRules(),
    operations=("list", "replace", "delete"),
    access=ADMIN,
    codes=DESCRIBED_DELETE,  # docs-platform-api.md §4.13: 204 whether it was one; production: 205
    snapshot=(),
)


def _member_teams(ctx: Ctx, place: Place, member: Row) -> list[tuple[Row, str]]:
    """`GET .../members/{userId}/teams`: one member's teams, with the case-insensitive `title`
    filter, in the teams list's order (docs-platform-api.md §4.12)."""
    title = (ctx.query.get("title") or "").lower()
    memberships = ctx.tx.by_user("team-member", place.org, str(member.data["user"]))
    teams = ctx.tx.get_many("team", [str(row.parent) for row in memberships])
    return sorted(
        (
            (teams[str(row.parent)], row.data["role"])
            for row in memberships
            if str(row.parent) in teams and title in teams[str(row.parent)].data["title"].lower()
        ),
        key=lambda pair: (pair[0].position, pair[0].id),
    )


NOT_A_MEMBER = "Member {id!r} not found in organization {org!r}"


def _teams_page(ctx: Ctx, page: Sequence[tuple[Row, str]]) -> list[Doc]:
    return [{"team": team_view(ctx, team), "member": {"role": role}} for team, role in page]


routes: list[BaseRoute] = [
    MEMBERS.listing(
        "teams",
        _member_teams,
        _teams_page,
        missing="Member {id!r} not found in organization {org!r}",
    ),
    *TEAMS.routes(),
    *TEAM_MEMBERS.routes(),
    TEAM_MEMBERS.batch(_update_members),
]

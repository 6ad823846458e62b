"""Teams, keyed by title, and their exact membership when the manifest writes `members`."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from docsync.api.answers import ID, TEXT, Obj
from docsync.api.contract import KEY, UNMANAGED, Note, Said, Seed
from docsync.core.concurrent import gather_all
from docsync.core.context import PlanContext, RunContext
from docsync.core.entries import Entry, was_names
from docsync.core.model import Action
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.crud import CrudKind
from docsync.kinds.declaration import Api, Declaration, Field
from docsync.kinds.kind import ExportNames, Path
from docsync.kinds.lists import Place, Steps
from docsync.kinds.organization.members import by_address, find_member
from docsync.kinds.organization.team_members import (
    Membership,
    TeamFields,
    TeamMemberRef,
    membership,
)
from docsync.kinds.requests import (
    BY_KEY,
    Reading,
    Route,
    Routes,
    Writes,
    each_write_lost,
    send,
    unless_hidden,
    unread,
)

if TYPE_CHECKING:
    from docsync.api import ApiClient

#: a team's member as its list answers it: the user's id and the role in the team
MEMBERSHIP = Obj({"organization": Obj({"id": ID}), "team": Obj({"role": TEXT})})


def _members_by_user(raw: dict[str, Any]) -> dict[str, str] | None:
    items = raw.get("_members")
    if items is None:
        return None  # membership not read: the manifest does not manage it
    return {str(item["organization"]["id"]): str(item["team"]["role"]) for item in items}


class TeamEntry(Entry):
    """A team, keyed by title; ``members``, when written, is the exact membership."""

    title: str | None = Api().limits(default=None, min_length=1, max_length=64)
    members: list[TeamMemberRef] | None = Api(
        live=_members_by_user, create=False, update=False
    ).limits(default=None)


#: how a team's members are written: one batch request
MEMBERS = "a team's `members`: the users its batch PUT adds, removes or gives a role"
CONTRACT: tuple[Said, ...] = (
    Note(UNMANAGED, "PUT /v1/orgs/{org}/teams", "members", MEMBERS),
    *(
        Note(KEY, "PUT /v1/orgs/{org}/teams/{id}/members", name, MEMBERS)
        for name in ("add", "remove", "memberships")
    ),
    Seed("PUT", "/v1/orgs/{org}/teams", {"title": "Platform", "members": ["u_lin"]}, "team"),
)
OPS = "{title: Ops, members: [ada@acme.example%s]}"

TEAM = Declaration(
    "team",
    "teams",
    "team",
    key="title",
    renames=True,
    needs=("member",),
    export_file="teams.yaml",
    entry=TeamEntry,
    routes=Routes(
        "/v1/orgs/{org}/teams",
        id_name="teamId",
        create="PUT",
        more={
            # its members, read where its entry writes them, and changed by one batch
            "members": Route("GET", "{item}/members", MEMBERSHIP, paged=True),
            "set members": Route("PUT", "{item}/members"),
        },
    ),
    writes=(Writes(found_by=BY_KEY),),
    lost_answers=(
        each_write_lost(
            "teams",
            (OPS % "", OPS % ", kim@acme.example", "{title: Ops, state: absent}"),
            ("PUT", "/teams$"),
            ("PUT", "/teams/[^/]+/members"),  # the members' batch: a team member's write
            ("DELETE", "/teams/[^/]+$"),
            covers=("team_member",),
        ),
    ),
    contract=CONTRACT,
    roles=("read", "admin"),
)


class TeamKind(CrudKind):
    declaration = TEAM
    payload_type = TeamFields

    async def fetch(self, read: Reading) -> Any:
        """Lists teams, then the members of just those teams whose membership is managed."""
        teams = await self.listed(read.api, read.org_id)
        if read.entries is None:
            chosen = teams  # export: every membership
        else:
            managed = [t for t in read.entries if t.members is not None and t.state != "absent"]
            titles = {t.title for t in managed}.union(*(was_names(t) for t in managed))
            ids = {t.id for t in managed if t.id}
            chosen = [t for t in teams if t["title"] in titles or t["id"] in ids]
        await self._read_members(read.api, read.org_id, chosen)
        return teams

    async def _read_members(self, api: ApiClient, org_id: str, teams: list[Any]) -> None:
        """Each team's members, a part of it: one the API hides or answers otherwise than
        docsync relies on leaves that team's membership out of the plan, not the teams."""

        async def one(team: dict[str, Any]) -> None:
            await read_members(api, org_id, [team])

        await gather_all(*(unless_hidden(t, "members", one(t)) for t in teams))

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        resources = self.live_resources(raw, live)
        for resource in resources:
            if not resource.odd:
                resource.fields["members"] = _labelled(resource.fields["members"], live)
        return resources

    def to_desired(self, ctx: PlanContext) -> list[DesiredResource]:
        return self.desired_resources(ctx, value=self._value)

    def _value(self, f: Field, value: Any, path: Path, ctx: PlanContext) -> Any:
        """Members by the key of the member each names (an email), with their roles."""
        if f.name != "members" or value is None:
            return self.desired_value(f, value, path, ctx)
        out: dict[str, str] = {}
        first: dict[str, int] = {}
        for index, item in enumerate(value):
            member = find_member(str(item.user), ctx)
            if member is None:
                ctx.problem(
                    (*path, "members", index),
                    f"{item.user} is not a member of the organization: only members can join "
                    "a team",
                )
                continue
            if member.key in first:
                # By user id and by email: one member twice, and the last role won silently.
                ctx.problem(
                    (*path, "members", index),
                    f"{member.key} (user id {member.id}) is listed twice in this team; first at "
                    f"{ctx.where((*path, 'members', first[member.key]))}",
                )
                continue
            first[member.key] = index
            out[member.key] = str(item.role)
        return dict(sorted(out.items()))

    def plan(self, ctx: PlanContext) -> None:
        """The teams, a deleted one naming the grants that go with it; then the batch each
        create or update makes of its membership's changes, by user id."""
        self.plan_entries(ctx, Steps(self.plan_create, self.plan_update, self._deleted))
        ids = {m.key: m.id for m in ctx.live.by_kind["member"]}
        for action in list(ctx.actions):
            if action.kind != self.name or action.verb == "delete":
                continue
            change = next((c for c in action.changes if c.field == "members"), None)
            if change is None:
                continue
            live = ctx.live.by_id.get((self.name, action.live_id or ""))
            if live is not None and unread(live.raw, "members"):
                action.changes.remove(change)  # not read: the plan names it, not planned
                if not action.changes:
                    ctx.actions.remove(action)
                    ctx.actions_at[action.address].remove(action)
                continue
            payload = action.payload
            assert isinstance(payload, TeamFields)
            before = None if action.verb == "create" else (change.before or {})
            payload.members = membership(action.address, before, change.after or {}, ids, ctx)
            _members_lose(action, sorted(set(before or {}) - set(change.after or {})), ctx)
            if action.verb == "create":
                # The create request carries the members (as plain members): roles follow.
                payload.fields["memberIds"] = sorted(ids.get(k, k) for k in change.after or {})
            payload.fields.pop("members", None)

    def _deleted(
        self, live: LiveResource, desired: DesiredResource | None, at: Place
    ) -> Action | None:
        action = self.plan_delete(live, desired, at)
        held = team_grants(live.id, at.ctx.live)
        if action is not None and held:
            action.takes_away(f"its grants go with it: {', '.join(held)}", readers=True)
        return action

    async def execute(self, action: Action, run: RunContext) -> None:
        """The create carries the members made plain members; then one batch request sets
        the membership the plan computed (who joins, who leaves, whose role changes)."""
        payload = action.payload
        assert isinstance(payload, TeamFields)
        if action.verb == "create":
            fields = run.resolve(payload.fields)
            body: dict[str, Any] = {"title": fields.get("title", payload.key)}
            if fields.get("memberIds"):
                body["members"] = fields["memberIds"]
            run.ids[action.address] = await self.send_create(action, body, run)
        else:
            await super().execute(action, run)
        if payload.members and action.verb in ("create", "update"):
            team_id = run.id_of(action.address) if action.verb == "create" else action.live_id
            assert team_id is not None
            await self._write_members(team_id, payload.members, run)

    async def _write_members(self, team_id: str, batch: Membership, run: RunContext) -> None:
        """Reaches the desired membership with one batch PUT: adds, removals and role changes."""
        body: dict[str, Any] = {}
        if batch.add:
            body["add"] = batch.add
        if batch.remove:
            body["remove"] = batch.remove
        if batch.roles:
            body["memberships"] = {user: {"role": role} for user, role in batch.roles.items()}
        if body:
            await self.send(run.api, "set members", body, org=run.org_id, id=team_id)

    def export(self, live: LiveState, names: ExportNames) -> Any:
        """A team by title, with its members when they were read (a plain member by email)."""
        return self.export_entries(live, names, _team_entry)


def _members_lose(action: Action, gone: list[str], ctx: PlanContext) -> None:
    """Members taken out of a live team lose what its grants give them: a loss, and an
    audience change where it holds grants."""
    if not gone or action.live_id is None:
        return
    held = team_grants(action.live_id, ctx.live)
    lose = f": they lose its grants ({', '.join(held)})" if held else ""
    action.takes_away(f"removes {', '.join(gone)} from the team{lose}", readers=bool(held))


async def read_members(api: ApiClient, org_id: str, teams: list[Any]) -> None:
    """Into each team's item, its members: one list per team, all concurrent (the grants'
    lockout rail reads those it needs the same way)."""
    assert TEAM.routes is not None
    members = TEAM.routes.route("members")
    lists = await gather_all(*(send(api, members, org=org_id, id=t["id"]) for t in teams))
    for team, members in zip(teams, lists, strict=True):
        team["_members"] = members


def team_grants(team_id: str, live: LiveState) -> list[str]:
    """The grants of a team on the resources whose grants were read (`collection["X"]: edit`),
    which production removes with the team."""
    return live.derived("grants by team", _grants_by_team).get(team_id, [])


def _grants_by_team(live: LiveState) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for kind in ("collection", "space", "site"):
        for resource in live.by_kind.get(kind, []):
            read = resource.raw.get("_grants") or {}
            for grant in read.get("teams") or []:
                team = str((grant.get("team") or {}).get("id"))
                out[team].append(f"{resource.address}: {grant.get('permission')}")
    return out


def _labelled(by_user: dict[str, str] | None, live: LiveState) -> dict[str, str] | None:
    """Members keyed by the member's address key (email), so plans read like the manifest."""
    if by_user is None:
        return None
    out = {}
    for user_id, role in by_user.items():
        member = live.by_id.get(("member", user_id))
        out[member.key if member else user_id] = role
    return dict(sorted(out.items()))


def _team_entry(resource: LiveResource) -> dict[str, Any]:
    entry: dict[str, Any] = {"title": resource.name}
    members = resource.fields.get("members")
    if members is not None:
        entry["members"] = [
            user if role == "member" else {"user": user, "role": role}
            for user, role in sorted(members.items(), key=lambda m: by_address(m[0]))
        ]
    return entry

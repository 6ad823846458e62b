"""The lockout rail of grants: a plan that takes the API token's own user's access to a
collection, space or site away is refused unless forced. A resource's grant actions are judged
together once every action is seen, from the grants read and, where the plan takes a team's or
the user's own access away, the members of every team granted there (read for the rail when
the manifest does not manage them: `teams_for_rails`), as the plan leaves them: a team the plan
deletes, or takes the user out of, no longer gives it access. An organization admin is never
refused."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from docsync.core.entries import RANKS, lower, role_shown
from docsync.core.lockout import REMOVING, Lockout
from docsync.core.model import Action
from docsync.core.state import LiveState
from docsync.kinds.access.grant_writes import PRINCIPALS, Grant
from docsync.kinds.organization.team_members import TeamFields

#: the kinds whose resources carry grants
GRANTED = ("collection", "space", "site")
#: where the rail gathers grant actions in `Lockout.gathered` (the grant kind's name)
GRANT_KIND = "grant"

#: a team the plan deletes or changes the members of -> (its action, its members' user ids
#: after the plan)
Members = dict[str, tuple[Action, set[str]]]


def lockout(action: Action, guard: Lockout) -> None:
    """Gathers the grant actions by resource: `lockout_after` judges each resource's together
    (a grant removed may be made up for by another created in the same plan)."""
    if isinstance(action.payload, Grant):
        by_resource = guard.gathered.setdefault(GRANT_KIND, {})
        by_resource.setdefault(action.payload.resource["$ref"], []).append(action)


def team_lockout(action: Action, guard: Lockout) -> None:
    """Gathers the teams the plan deletes or changes the members of: `lockout_after` judges
    every resource they hold a grant on with their members as the plan leaves them."""
    after = members_after(action)
    if after is not None and action.live_id is not None:
        changed: Members = guard.gathered.setdefault("team", {})
        changed[action.live_id] = (action, after)


def members_after(action: Action) -> set[str] | None:
    """The user ids of a live team's members once `action` is applied: none for a team
    deleted (its grants go with it); None when the action leaves its members as they are."""
    if action.verb in REMOVING:
        return set()
    payload = action.payload
    if isinstance(payload, TeamFields) and payload.members is not None:
        return set(payload.members.after)
    return None


def lockout_after(guard: Lockout) -> None:
    """Each resource whose grants the plan takes the token's own user's access away from: its
    direct grant removed, or every grant that gives it access (its own, or its teams', whose
    members the plan reads when it takes a team's or the user's own access away) gone; or its
    only admin grant lowered. An organization admin (now and after the plan) is never refused:
    it administers all content whatever its grants (production's `admin` role, "can
    administrate the content"; on a site, admins stay admins over any override)."""
    me = guard.me
    if me is not None and me.fields.get("role") == guard.roles.get(me.address) == "admin":
        return
    by_resource: dict[str, list[Action]] = dict(guard.gathered.get(GRANT_KIND, {}))
    changed: Members = guard.gathered.get("team", {})
    for resource in _held_by(changed, guard.live):
        by_resource.setdefault(resource, [])
    for resource, actions in by_resource.items():
        problem = _judge(resource, actions, guard, changed)
        if problem:
            guard.problems.append(problem)


def _held_by(teams: Iterable[str], live: LiveState) -> list[str]:
    """The resources whose grants were read on which one of `teams` (live ids) has a grant."""
    wanted = set(teams)
    return [
        resource.address
        for kind in GRANTED
        for resource in live.by_kind.get(kind, [])
        if wanted & {ident for (wire, ident) in _held(resource.address, live) if wire == "teams"}
    ]


Held = dict[tuple[str, str], str | None]


def _judge(resource: str, actions: list[Action], guard: Lockout, changed: Members) -> str | None:
    payloads = [(a, a.payload) for a in actions if isinstance(a.payload, Grant)]
    removing = [(a, p) for a, p in payloads if a.verb == "delete" or p.again]
    before = _held(resource, guard.live)
    teams_here = {ident for wire, ident in before if wire == "teams"}
    if not any(a.verb != "create" for a, _ in payloads) and not teams_here & set(changed):
        return None
    if guard.me is None:
        users = [a.address for a, p in removing if p.wire == "users"]
        if guard.live.me is None and users:
            return (
                f"{', '.join(users)}: the API did not say who the API token's user is "
                "(GET /v1/user), so a grant this plan removes could be that user's"
            )
        return None
    me = guard.me.id
    after = _after(before, payloads)
    site = resource.startswith("site[")
    members = {ident: users for ident, (_action, users) in changed.items()}
    had = _best(before, me, guard.live, site)
    has = _best(after, me, guard.live, site, members)
    own = [a.address for a, p in removing if p.wire == "users" and p.principal == me]
    teams = [a.address for a, p in removing if p.wire == "teams"]
    if had is not None and has is None and own:
        return f"{own[0]}: removes the API token's own user's grant, which may take its access away"
    if had is not None and has is None and teams:
        return (
            f"{', '.join(teams)}: removes the grant of a team the API token's user is in, which "
            "may take its access away"
        )
    if had is not None and has is None:
        return _team_change(resource, before, me, changed, guard.live, "takes away its access")
    if had == "admin" and has != "admin":
        lowered = ", ".join(a.address for a, _ in payloads if a.verb != "create")
        shown = f"lowers the API token's user's access from admin to {role_shown(has)}"
        if not lowered:
            return _team_change(resource, before, me, changed, guard.live, shown)
        return f"{lowered}: {shown}, which may take away its right to manage this resource's access"
    return None


def _team_change(
    resource: str, before: Held, me: str, changed: Members, live: LiveState, what: str
) -> str:
    """The team changes (deleted, or the user taken out) that take the user's access to
    `resource` away, located at the team's entry."""
    out = []
    for (wire, ident), role in before.items():
        action, users = changed.get(ident, (None, set()))
        if wire != "teams" or action is None or me in users:
            continue
        if me not in _team_members(ident, live):
            continue
        where = f"{action.location}: " if action.location else ""
        how = (
            "deletes this team"
            if action.verb in REMOVING
            else "takes the API token's user out of this team"
        )
        out.append(
            f"{where}{action.address}: {how}, whose grant on {resource} ({role_shown(role)}) "
            f"{what} there"
        )
    return "; ".join(out)


def _held(resource: str, live: LiveState) -> Held:
    """The resource's grants as read: (`teams` or `users`, live id) -> role."""
    found = live.by_address.get(resource)
    read = (found.raw.get("_grants") if found is not None else None) or {}
    out: Held = {}
    for name, (wire, _kind) in PRINCIPALS.items():
        for grant in read.get(name) or []:
            who = grant.get("team" if wire == "teams" else "user") or {}
            out[(wire, str(who.get("id")))] = grant.get("permission")
    return out


def _after(before: Held, payloads: Iterable[tuple[Action, Grant]]) -> Held:
    """The resource's grants as the plan leaves them; a team made in this apply has no members
    yet, so its grant is left out."""
    after = dict(before)
    for action, payload in payloads:
        if isinstance(payload.principal, str):
            key = (payload.wire, payload.principal)
            if action.verb == "delete":
                after.pop(key, None)
            else:
                after[key] = payload.role
    return after


def _best(
    grants: Held, me: str, live: LiveState, site: bool, members: dict[str, set[str]] | None = None
) -> str | None:
    """The highest role the token's user holds among `grants` (None: no access): its own, or
    a team's it is known to be in (`members`: the teams whose members the plan changes, as it
    leaves them). On a site a grant is an override: the user's own decides (a guest: no
    access), else its teams'; on content the highest of them all."""
    if site and ("users", me) in grants:
        return grants[("users", me)]
    changed = members or {}

    def in_team(ident: str) -> bool:
        return me in (changed[ident] if ident in changed else _team_members(ident, live))

    roles = [
        role
        for (wire, ident), role in grants.items()
        if role is not None and (ident == me if wire == "users" else in_team(ident))
    ]
    return min(roles, key=RANKS.index) if roles else None


def _team_members(team_id: str, live: LiveState) -> set[str]:
    team = live.by_id.get(("team", team_id))
    members = team.raw.get("_members") if team is not None else None
    return {str((m.get("organization") or {}).get("id")) for m in members or []}


def teams_for_rails(actions: Sequence[Action], live: LiveState) -> set[str]:
    """The live teams whose members the lockout rail needs: on each resource where the plan
    removes or lowers a team's grant or the token's own user's, or holds a grant of a team the
    plan may take the user out of (`_losing`), every team with a role there before or after the
    plan (the user may keep its access through one of them; a team deleted is read to know
    whether it was one). None when the API did not say who the token's user is, or when that
    user stays an organization admin (the rail then has nothing to judge)."""
    if live.me is None or _stays_admin(actions, live):
        return set()
    by_resource: dict[str, list[tuple[Action, Grant]]] = {}
    for action in actions:
        if isinstance(action.payload, Grant):
            resource = action.payload.resource["$ref"]
            by_resource.setdefault(resource, []).append((action, action.payload))
    losing = _losing(actions, live.me, live)
    out: set[str] = set()
    for resource in set(by_resource) | set(_held_by(losing, live)):
        payloads = by_resource.get(resource, [])
        before = _held(resource, live)
        takes = any(_takes(action, payload, live.me) for action, payload in payloads)
        if not takes and not losing & {ident for wire, ident in before if wire == "teams"}:
            continue
        for held in (before, _after(before, payloads)):
            out |= {ident for (wire, ident), role in held.items() if wire == "teams" and role}
    return out


def _losing(actions: Sequence[Action], me: str, live: LiveState) -> set[str]:
    """The live teams the plan may take the token's user out of: those it deletes (whose
    members are read for the rail), and those whose members it writes without the user."""
    out = set()
    for action in actions:
        after = members_after(action) if action.kind == "team" else None
        if after is None or action.live_id is None or me in after:
            continue
        if action.verb in REMOVING or me in _team_members(action.live_id, live):
            out.add(action.live_id)
    return out


def _takes(action: Action, payload: Grant, me: str) -> bool:
    """Whether a grant action removes or lowers a team's access or the token's own user's."""
    if action.verb == "create" or (payload.wire == "users" and payload.principal != me):
        return False
    before = action.changes[0].before if action.changes else None
    return action.verb == "delete" or lower(before, payload.role)


def _stays_admin(actions: Sequence[Action], live: LiveState) -> bool:
    """Whether the token's user is an organization admin and the plan leaves it one."""
    me = live.by_id.get(("member", live.me)) if live.me else None
    if me is None or me.fields.get("role") != "admin":
        return False
    for action in actions:
        if action.kind == "member" and action.live_id == me.id:
            fields = getattr(action.payload, "fields", {})
            if action.verb == "delete" or fields.get("role", "admin") != "admin":
                return False
    return True

"""The lockout rail of grants: a plan that takes the API token's own user's access to a
collection, space or site away is refused unless forced. A resource's grant actions are judged
together once every action is seen, from the grants read and, for teams whose grant goes down,
their members (read for the rail when the manifest does not manage them: `teams_losing`)."""

from __future__ import annotations

from collections.abc import Iterable

from docsync.core.lockout import Lockout
from docsync.core.model import Action
from docsync.core.state import LiveState
from docsync.kinds.grants import GRANT, PRINCIPALS, RANKS, Grant, lower, shown


def lockout(action: Action, guard: Lockout) -> None:
    """Gathers the grant actions by resource: `lockout_after` judges each resource's together
    (a grant removed may be made up for by another created in the same plan)."""
    if isinstance(action.payload, Grant):
        by_resource = guard.gathered.setdefault(GRANT.name, {})
        by_resource.setdefault(action.payload.resource["$ref"], []).append(action)


def lockout_after(guard: Lockout) -> None:
    """Each resource whose grants the plan takes the token's own user's access away from: its
    direct grant removed, or every grant that gives it access (its own, or its teams', whose
    members the plan reads when it removes or lowers a team's grant) gone; or its only admin
    grant lowered."""
    for resource, actions in guard.gathered.get(GRANT.name, {}).items():
        problem = _judge(resource, actions, guard)
        if problem:
            guard.problems.append(problem)


def _judge(resource: str, actions: list[Action], guard: Lockout) -> str | None:
    payloads = [(a, a.payload) for a in actions if isinstance(a.payload, Grant)]
    removing = [(a, p) for a, p in payloads if a.verb == "delete" or p.again]
    if not any(a.verb != "create" for a, _ in payloads):
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
    before = _held(resource, guard.live)
    after = dict(before)
    for action, payload in payloads:
        if isinstance(payload.principal, str):  # a team made in this apply has no members yet
            key = (payload.wire, payload.principal)
            if action.verb == "delete":
                after.pop(key, None)
            else:
                after[key] = payload.role
    had, has = _best(before, me, guard.live), _best(after, me, guard.live)
    own = [a.address for a, p in removing if p.wire == "users" and p.principal == me]
    teams = [a.address for a, p in removing if p.wire == "teams"]
    if own:
        return f"{own[0]}: removes the API token's own user's grant, which may take its access away"
    if had is not None and has is None:
        return (
            f"{', '.join(teams)}: removes the grant of a team the API token's user is in, which "
            "may take its access away"
        )
    if had == "admin" and has != "admin":
        changed = ", ".join(a.address for a, _ in payloads if a.verb != "create")
        return (
            f"{changed}: lowers the API token's user's access from admin to {shown(has)}, which "
            "may take away its right to manage this resource's access"
        )
    return None


Held = dict[tuple[str, str], str | None]


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


def _best(grants: Held, me: str, live: LiveState) -> str | None:
    """The highest role the token's user holds among `grants` (None: no access): its own, or
    a team's it is known to be in; a guest override gives none."""
    roles = [
        role
        for (wire, ident), role in grants.items()
        if role is not None
        and (ident == me if wire == "users" else me in _team_members(ident, live))
    ]
    return min(roles, key=RANKS.index) if roles else None


def _team_members(team_id: str, live: LiveState) -> set[str]:
    team = live.by_id.get(("team", team_id))
    members = team.raw.get("_members") if team is not None else None
    return {str((m.get("organization") or {}).get("id")) for m in members or []}


def teams_losing(actions: Iterable[Action], live: LiveState) -> set[str]:
    """The live teams whose grant a plan removes or lowers: the safety rails need their
    members (`lockout_after`) when the plan did not read them."""
    out: set[str] = set()
    for action in actions:
        payload = action.payload
        if not isinstance(payload, Grant) or payload.wire != "teams" or action.verb == "create":
            continue
        before = action.changes[0].before if action.changes else None
        if action.verb == "delete" or lower(before, payload.role):
            out.add(str(payload.principal))
    return out


def team_grants(team_id: str, live: LiveState) -> list[str]:
    """The grants of a team on the resources whose grants were read (`collection["X"]: edit`),
    which production removes with the team."""
    out = []
    for kind in ("collection", "space", "site"):
        for resource in live.by_kind.get(kind, []):
            read = resource.raw.get("_grants") or {}
            for grant in read.get("teams") or []:
                if str((grant.get("team") or {}).get("id")) == team_id:
                    out.append(f"{resource.address}: {grant.get('permission')}")
    return out

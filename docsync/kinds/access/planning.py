"""A resource's grants compared and planned: the written and the live grants of each
principal type by identity, one action per grant that differs (a nested kind's action, addressed
under its resource), new grants of one role batched into one invite, and the grants kept (for
the plan's access table). Called by the grant kind (`grants.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from docsync.core.context import PlanContext, ref
from docsync.core.entries import lower, role_shown
from docsync.core.model import Action, FieldChange, Kept, Verb
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.access.grant_writes import (
    PRINCIPALS,
    Grant,
    Invite,
    grant_address,
)
from docsync.kinds.kind import Path
from docsync.kinds.lists import Changes
from docsync.kinds.organization.members import find_member
from docsync.kinds.parts import ListPart

# -- comparing -------------------------------------------------------------------------------


@dataclass
class _Grant:
    """One grant as compared: who (by the name a manifest uses), the role, and how the API
    names the principal (a live id, or a `$ref` placeholder of a team made in this apply)."""

    name: str
    role: str | None
    wire: Any
    #: the principal as the manifest writes it (where a located message points)
    written: str = ""


def _team_name(ident: str, ctx: PlanContext) -> str:
    found = ctx.live.by_id.get(("team", ident)) or ctx.desired.by_address.get(ident)
    return found.name if found is not None else ident


def live_side(raw: list[dict[str, Any]], name: str, live: LiveState) -> dict[str, _Grant]:
    """The live grants of one principal type by identity (the principal's live id)."""
    out: dict[str, _Grant] = {}
    for item in raw:
        role = item.get("permission")
        role = None if role is None else str(role)
        if name == "teams":
            team = item.get("team") or {}
            ident = str(team.get("id"))
            found = live.by_id.get(("team", ident))
            out[ident] = _Grant(found.name if found else str(team.get("title", ident)), role, ident)
        else:
            user = item.get("user") or {}
            ident = str(user.get("id"))
            member = live.by_id.get(("member", ident))
            shown = member.key if member else str(user.get("email") or ident)
            out[ident] = _Grant(shown, role, ident)
    return out


def _desired_side(
    written: dict[str, str | None], name: str, path: Path, ctx: PlanContext
) -> dict[str, _Grant]:
    """The written grants by identity: a team's live id (its address for one made in this
    apply), a member's user id; a name that resolves to nothing is a located problem."""
    out: dict[str, _Grant] = {}
    for principal, role in written.items():
        where: Path = (*path, name, principal)
        if name == "teams":
            team = ctx.resolve("team", principal, where)
            if team is None:
                continue
            ident = ctx.live_id_of(team) or team
            wire = ident if ident != team else ref(team)
            grant = _Grant(_team_name(ident, ctx), role, wire, principal)
        else:
            member = find_member(principal, ctx)
            if member is None:
                ctx.problem(
                    where,
                    f"{principal} is not a member of the organization: only members can be "
                    "granted access (invite them to the organization first)",
                )
                continue
            ident = member.id
            grant = _Grant(member.key, role, ident, principal)
        if ident in out:
            ctx.problem(where, _twice(out[ident], name, path, ctx))
            continue
        out[ident] = grant
    return out


def _twice(other: _Grant, name: str, path: Path, ctx: PlanContext) -> str:
    """One principal written twice (by id and by name): the other key as written, and where."""
    where = ctx.where((*path, name, other.written))
    at = f" at {where}" if where else ""
    shown = f" ({other.name})" if other.name != other.written else ""
    return f"names the same {name[:-1]} as {other.written!r}{shown}, written{at}; keep one"


# -- planning --------------------------------------------------------------------------------


@dataclass
class _On:
    """The resource whose grants of one principal type are planned."""

    desired: DesiredResource
    holder: str  # the resource's kind, whose routes the grant's requests are
    wire: str
    noun: str
    ctx: PlanContext
    kind: str  # the grant kind's

    def action(
        self, verb: Verb, grant: _Grant, before: str | None, after: str | None, where: Path
    ) -> Action:
        payload = Grant(ref(self.desired.address), self.holder, self.wire, grant.wire, grant.role)
        address = grant_address(self.desired.address, self.noun, grant.name)
        change = FieldChange("role", before, after)
        made = Action(verb, self.kind, address, [change], self.ctx.where(where), payload=payload)
        return self.ctx.add(made)


def plan_grants(
    desired: DesiredResource,
    live: LiveResource | None,
    holder: str,
    ctx: PlanContext,
    grants: ListPart,
) -> None:
    """One action per grant that differs between the written and the live ones, matched by
    the grant kind (`grants`), and, when there is one, the grants kept as they are (for the
    access table); `holder` is the resource's kind."""
    written = getattr(desired.entry, "permissions", None)
    if written is None or desired.absent:
        return
    read = (live.raw.get("_grants") if live is not None else None) or {}
    base: Path = (*desired.path, "permissions")
    invited: list[Action] = []
    planned = len(ctx.actions)
    kept: list[Kept] = []
    for name, (wire, noun) in PRINCIPALS.items():
        wanted = getattr(written, name)
        if wanted is None:
            continue
        have = live_side(read.get(name) or [], name, ctx.live)
        want = _desired_side(wanted, name, base, ctx)

        on = _On(desired, holder, wire, noun, ctx, grants.name)
        found = _matched(desired.address, noun, want, have, (*base, name), ctx, grants)
        changed = {d.key for d, _ in found.changed}
        created = {d.key for d in found.created}
        for ident, grant in want.items():  # in the manifest's order
            now = have.get(ident)
            where = (*base, name, grant.written)
            if ident in created:
                invited.append(_created(on.action("create", grant, None, grant.role, where)))
            elif ident in changed and now is not None:
                update = on.action("update", grant, now.role, grant.role, where)
                if _changed(update, now.role):
                    invited.append(update)
            elif now is not None:
                held = grant_address(desired.address, noun, grant.name)
                kept.append(Kept(grants.name, desired.address, held, now.role))
        for resource in found.deleted:  # in the API's order
            grant = have[resource.id]
            gone = on.action("delete", grant, grant.role, None, (*base, name))
            gone.notes.append(f"AUDIENCE CHANGE: removes this access ({role_shown(grant.role)})")
            gone.audience_change = True
            _before_team_delete(gone, resource.id, wire, ctx)
    _batch(invited)
    if len(ctx.actions) > planned:  # its access table shows who keeps access too
        ctx.kept += kept


def _matched(
    resource: str,
    noun: str,
    want: dict[str, _Grant],
    have: dict[str, _Grant],
    path: Path,
    ctx: PlanContext,
    grants: ListPart,
) -> Changes:
    """One principal type's grants matched by the one reconciler (`grants`'s), keyed by the
    principal's identity (its live id, or the address of a team made in this apply)."""

    def address_of(grant: _Grant) -> str:
        return grant_address(resource, noun, grant.name)

    wanted = [
        DesiredResource(grants.name, ident, address_of(g), g.name, {"role": g.role}, path)
        for ident, g in want.items()
    ]
    live = [
        LiveResource(grants.name, ident, ident, address_of(g), g.name, {"role": g.role})
        for ident, g in have.items()
    ]
    return grants.changes(wanted, live, ctx, resource)


def _created(create: Action) -> Action:
    payload = create.payload
    assert isinstance(payload, Grant)
    if payload.role is None:
        create.notes.append("AUDIENCE CHANGE: a guest override: no access to the site")
        create.audience_change = True
    return create


def _changed(update: Action, before: str | None) -> bool:
    """Notes and flags an update; True when it needs an invite (made a guest)."""
    payload = update.payload
    assert isinstance(payload, Grant)
    if payload.role is None:  # PATCH takes a role only: to a guest is a removal first
        payload.again = True
        update.notes.append(
            "made a guest by a DELETE, then an invite as guest (the PATCH of a grant takes a "
            "role only)"
        )
    if lower(before, payload.role):
        update.notes.append(
            f"AUDIENCE CHANGE: lowers access: {role_shown(before)} -> {role_shown(payload.role)}"
        )
        update.audience_change = True
    return payload.again


def _batch(invited: list[Action]) -> None:
    """One invite per role on a resource, for every action of the role that needs one (the
    creates, and the updates that make a grant a guest), carried by one of them: the first
    update, whose DELETEs of every grant made a guest go before the invite, else the first
    create. The others wait for it and send nothing."""
    by_role: dict[str | None, list[Action]] = {}
    for action in invited:
        assert isinstance(action.payload, Grant)
        by_role.setdefault(action.payload.role, []).append(action)
    for role, actions in by_role.items():
        carrier = next((a for a in actions if a.verb == "update"), actions[0])
        invite = Invite(role)
        for action in actions:
            payload = action.payload
            assert isinstance(payload, Grant)
            getattr(invite, payload.wire).append(payload.principal)
            if payload.again:
                invite.deletes.append((payload.wire, payload.principal))
            if action is not carrier:
                payload.invited_by = carrier.address
                action.depends_on.append(carrier.key)
                label = carrier.address.rsplit(".", 1)[1]
                action.notes.append(f"invited in one request with {label}")
        assert isinstance(carrier.payload, Grant)
        carrier.payload.invite = invite


def _before_team_delete(gone: Action, ident: str, wire: str, ctx: PlanContext) -> None:
    """A team deleted by the same plan goes after its grants' deletes (production would take
    them with it; this way each says it)."""
    team = ctx.live.by_id.get(("team", ident)) if wire == "teams" else None
    for other in ctx.actions_at[team.address] if team is not None else []:
        if other.verb == "delete":
            other.depends_on.append(gone.key)

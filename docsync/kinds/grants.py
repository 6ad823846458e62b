"""Who can read and edit a collection, space or site: its direct grants to teams and members,
read only for entries that write `permissions`, compared per principal type, and planned as
one action per grant, a nested kind (`collection["Developers"].grant[team "Writers"]`): a
create is an invite, sent once per (resource, role) by one action of that role (the invite
body takes many teams and users; the others wait for it and send nothing), an update a PATCH
of the role, a delete a DELETE. Used by the collection, space and site kinds; the lockout rail
is `grant_rails.py`, the offline checks `grant_checks.py`.

A site grant may be `null`, a guest override (production's `MemberRoleOrGuest` in the site's
invite and lists); its PATCH takes a role only, so a grant turned into a guest is removed and
invited again, in the site's one guest invite (its DELETE first). Content grants take a role:
production lists them only with one."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import BeforeValidator

from docsync.api.errors import NotFound
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.entries import Model, Role
from docsync.core.kind import Declaration
from docsync.core.lockout import Lockout
from docsync.core.model import Action, FieldChange, KeptGrant, Verb
from docsync.core.nullability import NullChecked
from docsync.core.payloads import Payload, Ref
from docsync.core.reconcile import Reconciliation
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.base import CrudKind, ExportNames, Kind

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.manifest.models import Manifest

Path = tuple[str | int, ...]

#: manifest name -> (the API's name in paths and invite bodies, the kind a principal is)
PRINCIPALS = {"teams": ("teams", "team"), "members": ("users", "member")}
#: roles from the most access to the least, a guest (None) last: a move down lowers access
RANKS: tuple[str | None, ...] = ("admin", "create", "review", "edit", "comment", "read", None)


def _no_guest(value: Any) -> Any:
    if value is None:
        raise ValueError(
            "null (a guest) is not accepted on a collection or space grant: production lists "
            "content grants only with a role, so the grant could never be read back (a guest is "
            "an organization member whose organization role is null); give a role here, or "
            "leave the principal out"
        )
    return value


#: a content grant's role: production's invite and PATCH take null, its lists never show it
ContentRole = Annotated[Role, BeforeValidator(_no_guest)]


class Permissions(NullChecked, Model):
    """The direct grants on a resource: teams by title (or id), members by email (or user id).
    A principal type written is exact (grants not listed are removed; `{}` removes them all);
    one not written is not managed."""

    teams: dict[str, ContentRole] | None = None
    members: dict[str, ContentRole] | None = None


class SitePermissions(Permissions):
    """A site's direct grants; a role may be null, a guest override (no access to the site)."""

    teams: dict[str, Role | None] | None = None  # type: ignore[assignment]
    members: dict[str, Role | None] | None = None  # type: ignore[assignment]


@dataclass
class Invite(Payload):
    """One invite request: a role for many teams (ids or `$ref` placeholders) and users; for
    guests, after a DELETE of each grant it makes a guest (`deletes`: `teams` or `users` and
    the live id), since the PATCH of a grant takes a role only."""

    role: str | None
    teams: list[Any] = field(default_factory=list)
    users: list[str] = field(default_factory=list)
    deletes: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Grant(Payload):
    """One grant to write: on the resource at `path` (`{id}` for the resource's id), to a
    principal (`teams` or `users`: a live id, or a `$ref` of a team made in this apply)."""

    resource: Ref = None
    path: str = ""
    wire: str = "teams"
    principal: Any = None
    role: str | None = None
    #: the invite of its (resource, role), carried by one action of the batch
    invite: Invite | None = None
    #: a create (or an update to a guest) the invite of another carries (its address)
    invited_by: str | None = None
    #: an update to a guest: a DELETE, then an invite as guest (the PATCH takes a role only)
    again: bool = False

    @property
    def requests(self) -> int:
        if self.invited_by is not None:
            return 0
        return 1 + len(self.invite.deletes) if self.invite is not None else 1


# -- reading ---------------------------------------------------------------------------------


def managed(entries: Sequence[Any], items: Sequence[dict[str, Any]]) -> list[tuple[Any, Any]]:
    """(live item, written permissions) of the entries that write `permissions`: an entry's
    pinned id, else the items with its title (a title repeated in other parents reads them all;
    the planner picks the one the entry is)."""
    out = []
    for entry in entries:
        written = getattr(entry, "permissions", None)
        if written is None or entry.state == "absent":
            continue
        for item in items:
            if (item["id"] == entry.id) if entry.id else (item.get("title") == entry.title):
                out.append((item, written))
    return out


async def read(api: ApiClient, item: dict[str, Any], path: str, which: Iterable[str]) -> None:
    """The direct grants of one resource into `item["_grants"]`, one list per principal type
    in `which`; a resource the API no longer serves (a space in the bin) has none."""
    names = list(which)

    async def one(name: str) -> list[dict[str, Any]]:
        try:
            return await api.list_all(f"{path}/permissions/{PRINCIPALS[name][0]}")
        except NotFound:
            return []

    found = await asyncio.gather(*(one(name) for name in names))
    item["_grants"] = dict(zip(names, found, strict=True))


async def read_managed(
    api: ApiClient, entries: Sequence[Any] | None, items: Sequence[dict[str, Any]], path: Any
) -> None:
    """Every list a plan needs (`entries` None: export, every resource's every grant), all
    concurrent; `path(item)` is the resource's path."""
    if entries is None:
        chosen = [(item, list(PRINCIPALS)) for item in items]
    else:
        chosen = [
            (item, [n for n in PRINCIPALS if getattr(written, n) is not None])
            for item, written in managed(entries, items)
        ]
    await asyncio.gather(*(read(api, item, path(item), which) for item, which in chosen))


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


def _live_side(raw: list[dict[str, Any]], name: str, live: LiveState) -> dict[str, _Grant]:
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
    from docsync.kinds.members import find_member

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


def lower(before: str | None, after: str | None) -> bool:
    """Whether moving from role `before` to `after` (None: a guest) takes access away."""
    return RANKS.index(after) > RANKS.index(before)


def shown(role: str | None) -> str:
    """A role as a plan's notes and tables show it: a null one is `guest`."""
    return "guest" if role is None else role


# -- planning --------------------------------------------------------------------------------


def grant_address(resource: str, noun: str, name: str) -> str:
    """`collection["Engineering"].grant[team "Writers"]`, `...grant[member "ada@acme.example"]`."""
    quoted = name.replace("\\", "\\\\").replace('"', '\\"')
    return f'{resource}.grant[{noun} "{quoted}"]'


@dataclass
class _On:
    """The resource whose grants of one principal type are planned."""

    desired: DesiredResource
    path: str  # the resource's path, `{id}` for its id
    wire: str
    noun: str
    ctx: PlanContext

    def action(self, verb: Verb, grant: _Grant, before: Any, after: Any, where: Path) -> Action:
        payload = Grant(ref(self.desired.address), self.path, self.wire, grant.wire, grant.role)
        address = grant_address(self.desired.address, self.noun, grant.name)
        change = FieldChange("role", before, after)
        made = Action(verb, GRANT.name, address, [change], self.ctx.where(where), payload=payload)
        return self.ctx.add(made)


def plan_grants(
    desired: DesiredResource, live: LiveResource | None, path: str, ctx: PlanContext
) -> None:
    """One action per grant that differs between the written and the live ones, and, when
    there is one, the grants kept as they are (for the access table); `path` is the resource's
    path with `{id}` for its id."""
    written = getattr(desired.entry, "permissions", None)
    if written is None or desired.absent:
        return
    read = (live.raw.get("_grants") if live is not None else None) or {}
    base: Path = (*desired.path, "permissions")
    invited: list[Action] = []
    planned = len(ctx.actions)
    kept: list[KeptGrant] = []
    for name, (wire, noun) in PRINCIPALS.items():
        wanted = getattr(written, name)
        if wanted is None:
            continue
        have = _live_side(read.get(name) or [], name, ctx.live)
        want = _desired_side(wanted, name, base, ctx)

        on = _On(desired, path, wire, noun, ctx)
        for ident, grant in want.items():
            now = have.get(ident)
            where = (*base, name, grant.written)
            if now is None:
                invited.append(_created(on.action("create", grant, None, grant.role, where)))
            elif now.role != grant.role:
                update = on.action("update", grant, now.role, grant.role, where)
                if _changed(update, now.role):
                    invited.append(update)
            else:
                kept.append(KeptGrant(desired.address, noun, grant.name, now.role))
        for ident, grant in have.items():
            if ident not in want:
                gone = on.action("delete", grant, grant.role, None, (*base, name))
                gone.notes.append(f"AUDIENCE CHANGE: removes this access ({shown(grant.role)})")
                gone.audience_change = True
                _before_team_delete(gone, ident, wire, ctx)
    _batch(invited)
    if len(ctx.actions) > planned:  # its access table shows who keeps access too
        ctx.kept_grants += kept


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
            f"AUDIENCE CHANGE: lowers access: {shown(before)} -> {shown(payload.role)}"
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


# -- applying --------------------------------------------------------------------------------


async def write_grant(action: Action, payload: Grant, run: RunContext) -> None:
    """The request(s) of one grant action: none for one another's invite carries."""
    base = payload.path.format(id=run.resolve(payload.resource)) + "/permissions"
    one = f"{base}/{payload.wire}/{run.resolve(payload.principal)}"
    if action.verb == "delete":
        await run.api.write("DELETE", one)
    elif action.verb == "update" and not payload.again:
        await run.api.write("PATCH", one, {"role": payload.role})
    elif payload.invite is not None:
        # The grants made guests are removed first (the PATCH takes a role only), then invited.
        await asyncio.gather(
            *(
                run.api.write("DELETE", f"{base}/{wire}/{ident}")
                for wire, ident in payload.invite.deletes
            )
        )
        await _invite(base, payload.invite, run)


async def _invite(base: str, invite: Invite, run: RunContext) -> None:
    body: dict[str, Any] = {"role": invite.role}
    if invite.teams:
        body["teams"] = run.resolve(invite.teams)
    if invite.users:
        body["users"] = invite.users
    # An invite sets the role of whom it names: sending it twice does what once does.
    await run.api.write("POST", base, body, idempotent=True)


# -- exporting -------------------------------------------------------------------------------


def export_grants(
    resource: LiveResource, live: LiveState, names: ExportNames
) -> dict[str, Any] | None:
    """The resource's direct grants as a manifest writes them (None: it has none); a team by
    the name export gives it elsewhere (its id when its title is not unique)."""
    read = resource.raw.get("_grants")
    if not read:
        return None
    out = {}
    for name in PRINCIPALS:
        have = _live_side(read.get(name) or [], name, live)
        if name == "teams":
            for ident, grant in have.items():
                team = live.by_id.get(("team", ident))
                grant.name = names.name(team.address) if team is not None else ident
        if have:
            out[name] = {g.name: g.role for g in sorted(have.values(), key=lambda g: g.name)}
    return out or None


# -- the kinds that hold grants --------------------------------------------------------------


class GrantedKind(CrudKind):
    """A kind whose resources carry grants (collections, spaces, sites): what each of them adds
    to reading, planning, applying, exporting and the safety rails. Declares no kind itself."""

    #: the resource's path, from `org` and `id`; its grants are under `.../permissions`
    resource_path: ClassVar[str] = ""

    def reads(self, manifest: Manifest) -> set[str]:
        entries = getattr(manifest, self.section, None) or []
        written = [e.permissions for e in entries if getattr(e, "permissions", None) is not None]
        return {
            kind
            for name, (_wire, kind) in PRINCIPALS.items()
            if any(getattr(w, name) is not None for w in written)
        }

    async def read_grants(
        self, api: ApiClient, org_id: str, manifest: Manifest | None, items: list[dict[str, Any]]
    ) -> None:
        entries = None if manifest is None else getattr(manifest, self.section)
        await read_managed(
            api, entries, items, lambda item: self.resource_path.format(org=org_id, id=item["id"])
        )

    def plan(self, ctx: PlanContext) -> Reconciliation | None:
        result = super().plan(ctx)
        path = self.resource_path.format(org=ctx.live.org_id, id="{id}")
        for desired, live in result.entries if result else []:
            replaced = any(a.verb == "replace" for a in ctx.actions_at[desired.address])
            plan_grants(desired, None if replaced else live, path, ctx)
        return result

    def export_entry(
        self, resource: LiveResource, live: LiveState, names: ExportNames
    ) -> dict[str, Any]:
        entry = super().export_entry(resource, live, names)
        grants = export_grants(resource, live, names)
        if grants:
            entry["permissions"] = grants
        return entry


# -- the grant kind --------------------------------------------------------------------------

GRANT = Declaration(
    "grant",
    "permissions",
    "grant",
    key="principal",
    parents=("collection", "space", "site"),
    entry=Permissions,
    mapped=True,
    exact=True,
)


class GrantKind(Kind):
    """A grant of a role to a team or a member on a collection, space or site: planned by the
    kind of its resource (`GrantedKind`), carried out here, judged by the lockout rail."""

    declaration = GRANT

    async def execute(self, action: Action, run: RunContext) -> None:
        assert isinstance(action.payload, Grant)
        await write_grant(action, action.payload, run)

    def lockout(self, action: Action, guard: Lockout) -> None:
        from docsync.kinds.grant_rails import lockout  # which imports this module

        lockout(action, guard)

    def lockout_after(self, guard: Lockout) -> None:
        from docsync.kinds.grant_rails import lockout_after  # which imports this module

        lockout_after(guard)

"""Who can read and edit a collection, space or site: its direct grants to teams and members,
read only for entries that write `permissions`, compared as one map per principal type, and
written by one action per resource (`collection["Developers"].permissions`): one invite per
role for new grants (the invite body takes many teams or users), a PATCH per changed role, a
DELETE per grant the manifest does not list. Used by the collection, space and site kinds.

A site grant may be `null`, a guest override (production's `MemberRoleOrGuest` in the site's
invite and lists); its PATCH takes a role only, so a grant turned into a guest is removed and
invited again. Content grants take a role: production lists them only with one."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from difflib import get_close_matches
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import BeforeValidator

from docsync.api.errors import NotFound
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.entries import Model, Role
from docsync.core.lockout import Lockout
from docsync.core.model import Action, FieldChange
from docsync.core.nullability import NullChecked
from docsync.core.payloads import Payload
from docsync.core.reconcile import Reconciliation
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.base import CrudKind, ExportNames

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.manifest.models import Manifest

Path = tuple[str | int, ...]
Problem = tuple[Path, str]
#: what a live id looks like: a name of that shape is left for the plan to find
_ID = re.compile(r"^[A-Za-z0-9_-]+$")

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
    """One invite request: a role for many teams (ids or `$ref` placeholders) and users."""

    role: str | None
    teams: list[Any] = field(default_factory=list)
    users: list[str] = field(default_factory=list)


@dataclass
class Grants(Payload):
    """A resource's grants to write: invites per role, role changes and removals, each change
    and removal as (`teams` or `users`, live id[, role])."""

    resource: Any = None
    invites: list[Invite] = field(default_factory=list)
    changes: list[tuple[str, str, str]] = field(default_factory=list)
    removals: list[tuple[str, str]] = field(default_factory=list)

    @property
    def requests(self) -> int:
        return len(self.invites) + len(self.changes) + len(self.removals)


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
            grant = _Grant(_team_name(ident, ctx), role, wire)
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
            grant = _Grant(member.key, role, ident)
        if ident in out:
            ctx.problem(where, f"names the same {name[:-1]} as {out[ident].name!r}")
            continue
        out[ident] = grant
    return out


def lower(before: str | None, after: str | None) -> bool:
    """Whether moving from role `before` to `after` (None: a guest) takes access away."""
    return RANKS.index(after) > RANKS.index(before)


def shown(role: str | None) -> str:
    """A role as a plan's notes and tables show it: a null one is `guest`."""
    return "guest" if role is None else role


# -- planning --------------------------------------------------------------------------------


def plan_grants(
    desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
) -> Action | None:
    """One update of the resource's grants when the written ones differ from the live ones."""
    written = getattr(desired.entry, "permissions", None)
    if written is None or desired.absent:
        return None
    read = (live.raw.get("_grants") if live is not None else None) or {}
    base: Path = (*desired.path, "permissions")
    invites: dict[str | None, Invite] = {}
    payload = Grants(ref(desired.address))
    changes: list[FieldChange] = []
    narrowed: list[str] = []
    again: list[str] = []
    for name, (wire, _kind) in PRINCIPALS.items():
        wanted = getattr(written, name)
        if wanted is None:
            continue
        have = _live_side(read.get(name) or [], name, ctx.live)
        want = _desired_side(wanted, name, base, ctx)
        for ident, grant in want.items():
            now = have.get(ident)
            label = f"{name}[{json.dumps(grant.name)}]"
            if now is not None and now.role == grant.role:
                continue
            if now is None or grant.role is None:
                if now is not None:  # PATCH takes a role only: to a guest is a removal first
                    payload.removals.append((wire, ident))
                    again.append(label)
                invite = invites.setdefault(grant.role, Invite(grant.role))
                getattr(invite, wire).append(grant.wire)
            else:
                payload.changes.append((wire, ident, grant.role))
            if now is None and grant.role is None:
                narrowed.append(f"{label}: no grant -> guest")
            elif now is not None and lower(now.role, grant.role):
                narrowed.append(f"{label}: {shown(now.role)} -> {shown(grant.role)}")
        for ident, grant in have.items():
            if ident not in want:
                payload.removals.append((wire, ident))
                narrowed.append(
                    f"{name}[{json.dumps(grant.name)}]: {shown(grant.role)} -> no access"
                )
        before = {g.name: g.role for g in have.values()}
        after = {g.name: g.role for g in want.values()}
        if before != after:
            changes.append(FieldChange(name, before, after))
    payload.invites = [invites[role] for role in RANKS if role in invites]
    if not payload.requests:
        return None
    action = Action(
        "update",
        desired.kind,
        f"{desired.address}.permissions",
        changes,
        ctx.where(base),
        payload=payload,
    )
    if again:
        action.notes.append(
            "made guests by a DELETE, then an invite as guest (the PATCH of a grant takes a role "
            "only): " + ", ".join(again)
        )
    if narrowed:
        action.notes.append("AUDIENCE CHANGE: lowers or removes access: " + "; ".join(narrowed))
        action.audience_change = True
    return ctx.add(action)


# -- applying --------------------------------------------------------------------------------


async def write_grants(payload: Grants, path: str, run: RunContext) -> None:
    """Invites (one per role), role changes and removals under `path`/permissions, concurrent:
    each request touches one principal, so their order does not matter; but a grant made a
    guest is removed before the invite that names it again."""
    base = f"{path}/permissions"
    again = [(w, i) for inv in payload.invites for w in ("teams", "users") for i in getattr(inv, w)]
    first = [r for r in payload.removals if r in again]
    await asyncio.gather(*(run.api.write("DELETE", f"{base}/{w}/{i}") for w, i in first))
    writes = []
    for invite in payload.invites:
        body: dict[str, Any] = {"role": invite.role}
        if invite.teams:
            body["teams"] = run.resolve(invite.teams)
        if invite.users:
            body["users"] = invite.users
        # An invite sets the role of whom it names: sending it twice does what once does.
        writes.append(run.api.write("POST", base, body, idempotent=True))
    for wire, ident, role in payload.changes:
        writes.append(run.api.write("PATCH", f"{base}/{wire}/{ident}", {"role": role}))
    for wire, ident in payload.removals:
        if (wire, ident) not in first:
            writes.append(run.api.write("DELETE", f"{base}/{wire}/{ident}"))
    await asyncio.gather(*writes)


# -- safety rails ----------------------------------------------------------------------------


def lockout(action: Action, guard: Lockout) -> None:
    """A plan that takes the token's own user's access to the resource away: its direct grant
    removed, or every grant that gives it access (its own, or its teams', whose members the
    plan reads when it removes or lowers a team's grant) gone; or its admin role lowered."""
    payload = action.payload
    if not isinstance(payload, Grants) or not (payload.removals or payload.changes):
        return
    if guard.me is None:
        if guard.live.me is None and any(wire == "users" for wire, _ in payload.removals):
            guard.problems.append(
                f"{action.address}: the API did not say who the API token's user is "
                "(GET /v1/user), so a grant this plan removes could be that user's"
            )
        return
    me = guard.me.id
    before = _held(payload, guard.live)
    after = _after(payload, before)
    had, has = _best(before, me, guard.live), _best(after, me, guard.live)
    if ("users", me) in payload.removals:
        what = "removes the API token's own user's grant, which may take its access away"
    elif had is not None and has is None:
        what = (
            "removes the grant of a team the API token's user is in, which may take its access away"
        )
    elif had == "admin" and has != "admin":
        what = (
            f"lowers the API token's user's access from admin to {shown(has)}, which may take "
            "away its right to manage this resource's access"
        )
    else:
        return
    guard.problems.append(f"{action.address}: {what}")


Held = dict[tuple[str, str], str | None]


def _held(payload: Grants, live: LiveState) -> Held:
    """The resource's grants as read: (`teams` or `users`, live id) -> role."""
    resource = live.by_address.get((payload.resource or {}).get("$ref", ""))
    read = (resource.raw.get("_grants") if resource is not None else None) or {}
    out: Held = {}
    for name, (wire, _kind) in PRINCIPALS.items():
        for grant in read.get(name) or []:
            who = grant.get("team" if wire == "teams" else "user") or {}
            out[(wire, str(who.get("id")))] = grant.get("permission")
    return out


def _after(payload: Grants, before: Held) -> Held:
    """The grants the payload leaves (new teams, still placeholders, are left out)."""
    out = {k: v for k, v in before.items() if k not in set(payload.removals)}
    out |= {(wire, ident): role for wire, ident, role in payload.changes}
    for invite in payload.invites:
        for wire in ("teams", "users"):
            out |= {(wire, i): invite.role for i in getattr(invite, wire) if isinstance(i, str)}
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
    members (`lockout`) when the plan did not read them."""
    out: set[str] = set()
    for action in actions:
        payload = action.payload
        if not isinstance(payload, Grants):
            continue
        before = _held(payload, live)
        out |= {ident for wire, ident in payload.removals if wire == "teams"}
        out |= {
            ident
            for wire, ident, role in payload.changes
            if wire == "teams" and lower(before.get((wire, ident)), role)
        }
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


# -- offline checks --------------------------------------------------------------------------


def grant_problems(data: dict[str, Any], path: Path, entry: dict[str, Any]) -> list[Problem]:
    """What `validate` can tell without the API about one entry's grants: teams the manifest
    does not list (when it lists teams) that do not look like ids, members it deletes, and one
    principal written twice (a team by title and id aside, which only the plan can tell)."""
    written = entry.get("permissions")
    if not isinstance(written, dict):
        return []
    base: Path = (*path, "permissions")
    problems: list[Problem] = []
    problems += _team_problems(data, written.get("teams"), (*base, "teams"))
    problems += _member_problems(data, written.get("members"), (*base, "members"))
    return problems


def _listed(data: dict[str, Any], section: str, key: str) -> dict[str, dict[str, Any]] | None:
    entries = data.get(section)
    if not isinstance(entries, list):
        return None
    return {str(e[key]): e for e in entries if isinstance(e, dict) and isinstance(e.get(key), str)}


def _team_problems(data: dict[str, Any], teams: Any, path: Path) -> list[Problem]:
    listed = _listed(data, "teams", "title")
    if not isinstance(teams, dict) or listed is None:
        return []  # no teams written: only the live organization can tell
    ids = {str(e["id"]) for e in listed.values() if isinstance(e.get("id"), str)}
    problems: list[Problem] = []
    for name in teams:
        team = listed.get(name)
        if team is not None and team.get("state") == "absent":
            problems.append(((*path, name), f"team {name!r} is deleted by this manifest"))
        elif team is None and name not in ids and not _ID.match(name):
            close = get_close_matches(name, list(listed), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            message = f"names no team of this manifest and is not an id{hint}"
            problems.append(((*path, name), message))
    return problems


def _member_problems(data: dict[str, Any], members: Any, path: Path) -> list[Problem]:
    if not isinstance(members, dict):
        return []
    listed = {k.casefold(): e for k, e in (_listed(data, "members", "email") or {}).items()}
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for name in members:
        folded = name.casefold()
        if folded in seen:
            message = f"is {seen[folded]!r} again (emails are compared without case)"
            problems.append(((*path, name), message))
        seen.setdefault(folded, name)
        if (listed.get(folded) or {}).get("state") == "absent":
            problems.append(((*path, name), f"member {name!r} is removed by this manifest"))
    return problems


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
        for desired, live in result.entries if result else []:
            replaced = any(a.verb == "replace" for a in ctx.actions_at[desired.address])
            plan_grants(desired, None if replaced else live, ctx)
        return result

    async def execute(self, action: Action, run: RunContext) -> None:
        if isinstance(action.payload, Grants):
            resource = run.resolve(action.payload.resource)
            path = self.resource_path.format(org=run.org_id, id=resource)
            await write_grants(action.payload, path, run)
        else:
            await super().execute(action, run)

    def lockout(self, action: Action, guard: Lockout) -> None:
        lockout(action, guard)

    def export_entry(
        self, resource: LiveResource, live: LiveState, names: ExportNames
    ) -> dict[str, Any]:
        entry = super().export_entry(resource, live, names)
        grants = export_grants(resource, live, names)
        if grants:
            entry["permissions"] = grants
        return entry

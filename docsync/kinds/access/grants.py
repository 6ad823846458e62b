"""Who can read and edit a collection, space or site: the grant kind, a nested kind
(`collection["Developers"].grant[team "Writers"]`, one action per grant), and its manifest model
(`permissions:`), a part of the resources that hold grants (`GrantKind`, a `HeldPart`). What
it reads and exports of them is in `grant_holders.py`, what its actions carry and how they are
written in `grant_writes.py`, the planning in `planning.py`, the lockout rail in `lockout.py`,
the offline checks in `checks.py`.

A site grant may be `null`, a guest override (production's `MemberRoleOrGuest` in the site's
invite and lists); its PATCH takes a role only, so a grant turned into a guest is removed and
invited again, in the site's one guest invite (its DELETE first). Content grants take a role:
production lists them only with one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BeforeValidator

from docsync.api.contract import KEY, Note, Said, Seed
from docsync.core.checking import CheckView, Item
from docsync.core.context import PlanContext, RunContext
from docsync.core.entries import Model, Role
from docsync.core.lockout import Lockout
from docsync.core.model import Action, Plan, Review
from docsync.core.nullability import NullChecked
from docsync.core.reconcile import Reconciliation
from docsync.core.state import LiveResource, LiveState
from docsync.kinds.access import lockout as grant_rails
from docsync.kinds.access.access_table import access_tables, kept_grants
from docsync.kinds.access.checks import grant_problems
from docsync.kinds.access.grant_holders import PERMISSIONS, TEAM, export_grants, read_managed
from docsync.kinds.access.grant_writes import PRINCIPALS, Grant, write_grant
from docsync.kinds.access.planning import plan_grants
from docsync.kinds.declaration import Declaration
from docsync.kinds.kind import ExportNames, Kind
from docsync.kinds.organization.teams import read_members
from docsync.kinds.parts import HeldPart, ListPart
from docsync.kinds.requests import ORGANIZATION, Lose, Lost, LostAnswers, Reading, Writes, unread

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.core.loaded import ManifestDoc

Path = tuple[str | int, ...]


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


# -- the grant kind --------------------------------------------------------------------------

PRINCIPAL = "a grant's principal: `permissions: {teams: {NAME: ROLE}, members: {...}}`"
ROLE = "a grant's role: the value of `permissions: {teams: {NAME: ROLE}}`"
HOLDERS = ("/v1/collections/{id}", "/v1/spaces/{id}", "/v1/orgs/{org}/sites/{site}")
CONTRACT: tuple[Said, ...] = (
    *(
        Note(KEY, f"POST {h}/permissions", principals, PRINCIPAL)
        for h in HOLDERS
        for principals in ("teams", "users")
    ),
    *(
        Note(KEY, f"PATCH {h}/permissions/{principals}/{{principal}}", "role", ROLE)
        for h in HOLDERS
        for principals in ("teams", "users")
    ),
    Seed("POST", "/v1/collections/{collection}/permissions", {"role": "edit", "teams": ["{team}"]}),
    Seed("POST", "/v1/spaces/{guides}/permissions", {"role": "read", "users": ["u_sam"]}),
    Seed("POST", "/v1/orgs/{org}/sites/{site}/permissions", {"role": "edit", "teams": ["{team}"]}),
)
ACCESS = (
    ORGANIZATION
    + """\
teams: [{title: Platform}, {title: Writers}]
collections:
  - title: Developers
    permissions: {teams: {Platform: admin, Writers: %s}, members: {%s}}
"""
)
LOST = LostAnswers(
    "access",
    ORGANIZATION
    + "teams: [{title: Platform}, {title: Writers}]\ncollections: [{title: Developers}]\n",
    (
        Lost(ACCESS % ("edit", "sam@acme.example: read"), (Lose("POST", "/permissions$", 2),)),
        Lost(
            ACCESS % ("read", ""),
            (Lose("PATCH", "/permissions/teams/"), Lose("DELETE", "/permissions/users/")),
        ),
    ),
)

GRANT = Declaration(
    "grant",
    "permissions",
    "grant",
    key="principal",
    key_names=("team", "member"),
    parents=("collection", "space", "site"),
    entry=Permissions,
    mapped=True,
    exact=True,
    writes=(Writes(),),  # an invite, a PATCH and a DELETE of a grant are each idempotent
    lost_answers=(LOST,),
    contract=CONTRACT,
    roles=("read", "admin"),
)


class GrantKind(ListPart, HeldPart):
    """A grant of a role to a team or a member on a collection, space or site: read, planned,
    checked and exported with its resource (a part its kind holds, `HeldPart`; what it reads
    and exports of it in `grant_holders.py`), carried out here, judged by the lockout rail."""

    declaration = GRANT
    kept_parts = (kept_grants(GRANT.name),)

    def reads(self, manifest: ManifestDoc, holder: Kind) -> set[str]:
        """The teams or members the holder's entries' grants name; the holder itself when the
        manifest may delete teams, whose grants on its resources go with them (named)."""
        entries = getattr(manifest, holder.section, None) or []
        written = [e.permissions for e in entries if getattr(e, "permissions", None) is not None]
        teams = self.kinds.named(TEAM).section
        deleted = teams in manifest.prune or any(
            getattr(e, "state", None) == "absent" for e in getattr(manifest, teams, None) or []
        )
        return ({holder.name} if deleted else set()) | {
            kind
            for name, (_wire, kind) in PRINCIPALS.items()
            if any(getattr(w, name) is not None for w in written)
        }

    async def fetch(self, read: Reading, items: list[dict[str, Any]], holder: Kind) -> None:
        """Into each item whose entry writes `permissions`, its grants (every item's, for
        export), by the routes its holder names."""
        everywhere = [name for name, (_w, kind) in PRINCIPALS.items() if kind == TEAM]
        await read_managed(holder, read, items, everywhere if TEAM in read.deleting else ())

    def plan(self, ctx: PlanContext, result: Reconciliation | None, holder: Kind) -> None:
        """The grants of each entry planned (`result`), with its resource (none for one
        replaced: its grants are made with the new one)."""
        for desired, live in result.entries if result else []:
            if live is not None and unread(live.raw, PERMISSIONS):
                continue  # hidden from the token's role: named by the plan, not planned
            replaced = any(a.verb == "replace" for a in ctx.actions_at[desired.address])
            plan_grants(desired, None if replaced else live, holder.name, ctx, self)

    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        for path, entry in items:
            for where, message in grant_problems(view, path, entry):
                view.report(where, message)

    def export(self, resource: LiveResource, live: LiveState, names: ExportNames) -> Any:
        return export_grants(resource, live, names)

    async def execute(self, action: Action, run: RunContext) -> None:
        payload = action.payload
        assert isinstance(payload, Grant)
        await write_grant(action, payload, run, self.kinds.named(payload.holder))

    def requests(self, action: Action) -> int:
        assert isinstance(action.payload, Grant)
        return action.payload.requests

    def reviews(self, plan: Plan) -> list[Review]:
        return access_tables(plan, self.name)

    def lockout(self, actions: Sequence[Action], guard: Lockout) -> None:
        """A resource's grant actions judged together (a grant removed may be made up for by
        another created in the same plan), with the plan's teams: a team deleted, or its members
        written without the token's user, takes away the access its grants gave that user."""
        for action in guard.actions:
            if action.kind == "team":
                grant_rails.team_lockout(action, guard)
        for action in actions:
            grant_rails.lockout(action, guard)
        grant_rails.lockout_after(guard)

    async def read_for_rails(self, api: ApiClient, plan: Plan, live: LiveState) -> None:
        """The members of the teams the lockout rail needs (`teams_for_rails`: those granted
        where the plan takes a team's or the token's own user's access away) when planning did
        not read them (their membership is not managed): one list per team, each once, all
        concurrent. The rail decides from them whether the token's user keeps its access."""
        unknown = [
            team.raw
            for ident in sorted(grant_rails.teams_for_rails(plan.actions, live))
            if (team := live.by_id.get(("team", ident))) is not None
            and team.raw.get("_members") is None
        ]
        await read_members(api, live.org_id, unknown)

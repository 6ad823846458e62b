"""Organization members' roles, keyed by email. Members join by invitation, which the API
description does not cover, so docsync changes roles and removes, but never adds."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any

from pydantic import Field as Limits

from docsync.api.answers import ID, TEXT, Obj, Opt
from docsync.api.contract import LEAVES, Note
from docsync.api.errors import NotFound
from docsync.core.context import PlanContext
from docsync.core.entries import Entry, Role, lower, role_shown
from docsync.core.lockout import Lockout
from docsync.core.model import Action
from docsync.core.nullability import NULL
from docsync.core.payloads import Fields
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.crud import CrudKind
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.kind import ExportNames, Path
from docsync.kinds.lists import Place, Steps, odd_resources
from docsync.kinds.requests import Reading, Route, Routes, Writes, each_write_lost


class MemberEntry(Entry):
    """The role of an existing member, keyed by email (or user id in ``id``)."""

    email: str | None = Limits(default=None, min_length=1, max_length=320)
    role: Annotated[Role | None, NULL] = Api(answer=Opt(TEXT)).limits(default=None)
    """null: guest."""


KIM = "{email: kim@acme.example, role: %s}"
CONTRACT = (
    Note(
        LEAVES,
        "POST /v1/orgs/{org}/invites",
        "",
        "email invites have no list to read back: a plan could not tell an invite sent from "
        "one to send, so every plan would send it again",
    ),
    Note(
        LEAVES,
        "POST /v1/orgs/{org}/members/{id}/sso",
        "",
        "sets a member's `sso`, which production never unsets (no operation takes it back): a "
        "manifest's `sso: false` could never be applied, so docsync leaves it to the app",
    ),
)

#: the token's own user: the lockout rails compare the members with it
USER = Obj({"id": ID})

MEMBER = Declaration(
    "member",
    "members",
    "member",
    key="email",
    prunable=False,  # members leave only through an explicit `state: absent`
    export_file="org.yaml",
    key_folds_case=True,
    key_note=", or `id` (the user id)",
    entry=MemberEntry,
    routes=Routes(
        "/v1/orgs/{org}/members",
        id_name="userId",
        create=None,  # they join by invitation (`invite_links`): the API makes none
        more={"token's user": Route("GET", "/v1/user", answer=USER)},
    ),
    writes=(Writes(),),  # roles changed and members removed: never created here
    lost_answers=(
        each_write_lost(
            "members",
            (KIM % "read", KIM % "edit", "{email: kim@acme.example, state: absent}"),
            None,
            ("PATCH", "/members/[^/]+$"),
            ("DELETE", "/members/[^/]+$"),
        ),
    ),
    contract=CONTRACT,
    roles=("read", "admin"),
    answer_more={"user": Opt(Obj({"id": Opt(ID), "email": Opt(TEXT)}))},
)


class MemberKind(CrudKind):
    declaration = MEMBER

    async def fetch(self, read: Reading) -> Any:
        members = await self.listed(read.api, read.org_id)
        try:
            me = await self.send(read.api, "token's user")
        except NotFound:
            me = None
        return {"members": members, "me": me}

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        me = raw.get("me") or {}
        live.me = me.get("id")
        resources = []
        for item in raw["members"]:
            key = _live_key(item, live)
            resources.append(self.resource(item, key, key, {"role": item.get("role")}))
        return resources + odd_resources(self.declaration, raw["members"], live, _live_key)

    def to_desired(self, ctx: PlanContext) -> list[DesiredResource]:
        return self.desired_resources(ctx, key=_member_key)

    def plan(self, ctx: PlanContext) -> None:
        """Roles changed and members removed; never created (they join by invitation)."""
        steps = Steps(_not_created, _role_changed(self), self.plan_delete, _not_a_member)
        self.plan_entries(ctx, steps)

    def lockout(self, actions: Sequence[Action], guard: Lockout) -> None:
        """Who the token's user is and every member's role, as the plan leaves them: the token's
        own user removed, or the organization left without an admin, is refused."""
        members = guard.live.by_kind.get(self.name, [])
        me = guard.live.me
        guard.me = next((m for m in members if m.id == me), None) if me else None
        guard.roles = {m.address: m.fields.get("role") for m in members}
        for action in actions:
            guard.members_changed = True
            if action.verb == "delete":
                guard.roles.pop(action.address, None)
                if guard.me is not None and action.live_id == guard.me.id:
                    guard.problems.append(
                        f"{action.address} is the API token's own user: removing it"
                    )
                elif guard.live.me is None:
                    # Fail closed: without GET /v1/user this delete may be the token's own user.
                    guard.problems.append(
                        f"{action.address}: the API did not say who the API token's user is "
                        "(GET /v1/user), so this removal could be that user"
                    )
            elif isinstance(action.payload, Fields) and "role" in action.payload.fields:
                guard.roles[action.address] = action.payload.fields["role"]
        if guard.members_changed and members and "admin" not in guard.roles.values():
            guard.problems.append("the plan leaves the organization without an admin")

    def export(self, live: LiveState, names: ExportNames) -> Any:
        """By email: the same file from one export to the next, whatever order the API lists;
        a role of null is a guest."""
        entries = self.export_entries(
            live, names, lambda r: {"email": r.key, "role": r.fields.get("role")}
        )
        return sorted(entries, key=lambda e: by_address(e["email"])) if entries else None


def _member_key(entry: Any, path: Path, ctx: PlanContext) -> str:
    """The live member's key for an email (in any case) or a user id: an entry written by `id`
    alone has the address of the member it names, as one written by email has."""
    user = str(entry.email if entry.email is not None else entry.id)
    found = find_member(user, ctx)
    return found.key if found else user


def _not_a_member(desired: DesiredResource, at: Place) -> None:
    at.ctx.problem(
        desired.path,
        f"{desired.key} is not a member of the organization; docsync manages the roles of "
        "existing members and cannot invite (invite them first, or remove this entry)",
    )


def _not_created(desired: DesiredResource, at: Place) -> None:
    """No member is made: an entry no member matches is refused, located."""
    ctx = at.ctx
    found = find_member(desired.key, ctx)
    pinned = [d for d in ctx.desired.by_kind[MEMBER.name] if found and d.pinned_id == found.id]
    if found is None or not pinned:
        _not_a_member(desired, at)
        return
    # A member, taken by an entry naming it by user id: the same member written twice.
    ctx.problem(
        desired.path,
        f"{desired.key} is written twice: the entry at {ctx.where(pinned[0].path)} names the "
        f"same member by user id ({found.id}); keep one",
    )


def _role_changed(kind: MemberKind) -> Callable[[DesiredResource, LiveResource, Place], Any]:
    def update(desired: DesiredResource, live: LiveResource, at: Place) -> Action | None:
        """A role lowered is flagged for review, as a grant lowered is: it takes access away."""
        action = kind.plan_update(desired, live, at)
        before, after = live.fields.get("role"), desired.fields.get("role")
        if action is not None and "role" in desired.fields and lower(before, after):
            action.notes.append(
                f"AUDIENCE CHANGE: lowers access: {role_shown(before)} -> {role_shown(after)}"
            )
            action.audience_change = True
        return action

    return update


def by_address(user: str) -> tuple[str, str]:
    """A sort key for emails (or user ids): case-insensitive, then exact, so it is total."""
    return (user.casefold(), user)


def find_member(user: str, ctx: PlanContext) -> LiveResource | None:
    """A live member by user id, or by email: addresses are case-insensitive."""
    by_id = ctx.live.by_id.get(("member", user))
    if by_id is not None:
        return by_id
    return ctx.live.by_folded_key("member", user)


def _live_key(item: dict[str, Any], _live: LiveState) -> str:
    """A member by email (by user id when the API shows none)."""
    user = item.get("user") or {}
    return str(user.get("email") or item["id"])

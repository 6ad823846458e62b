"""A team's members: a part of the team (its `members`, when written, the exact membership),
keyed by the member (email or user id, compared without case), matched by the one reconciler;
the team's one batch request (who joins, who leaves, whose role changes) is made of the
changes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import GetJsonSchemaHandler, model_validator
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from docsync.api.contract import KEY, Note
from docsync.core.context import PlanContext
from docsync.core.entries import Model
from docsync.core.model import address
from docsync.core.payloads import Fields, Payload
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.parts import ListPart
from docsync.kinds.requests import Writes


@dataclass
class Membership(Payload):
    """What one batch request does to a team's members, by user id: who joins, who leaves,
    whose role is set (a new member's other than `member`, a member's that changes); `after`:
    who the team has once it is done (the safety rails judge access by it)."""

    add: list[str] = field(default_factory=list)
    remove: list[str] = field(default_factory=list)
    roles: dict[str, str] = field(default_factory=dict)
    after: list[str] = field(default_factory=list)


@dataclass
class TeamFields(Fields):
    """A team's fields; its membership, when managed, is reached by one more request."""

    members: Membership | None = None


TeamRole = Literal["owner", "member"]


class TeamMemberRef(Model):
    """A team member: a plain string is a user (email or id) with role ``member``."""

    # written by the team's batch request (`PUT .../members {add, remove, memberships}`)
    user: str = Api(create=False, update=False).limits(min_length=1)
    role: TeamRole = Api(create=False, update=False).limits(default="member")

    @model_validator(mode="before")
    @classmethod
    def _from_string(cls, data: Any) -> Any:
        return {"user": data} if isinstance(data, str) else data

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        schema = handler.resolve_ref_schema(handler(core_schema))
        return {"anyOf": [{"type": "string", "minLength": 1}, schema]}


TEAM_MEMBER = Declaration(
    "team_member",
    "members",
    "team member",
    key="user",
    parents=("team",),
    part=True,
    exact=True,
    key_folds_case=True,
    shorthand="user",
    entry=TeamMemberRef,
    writes=(Writes(),),  # a team's members are one PUT (or a DELETE): sent again as they are
    contract=(
        Note(
            KEY,
            "PUT /v1/orgs/{org}/teams/{id}/members/{user}",
            "role",
            "a member's `role` in `members: [{user, role}]`",
        ),
    ),
)


class TeamMemberKind(ListPart):
    declaration = TEAM_MEMBER


_KIND = TeamMemberKind()


def membership(
    team: str,
    before: dict[str, str] | None,
    after: dict[str, str],
    ids: dict[str, str],
    ctx: PlanContext,
) -> Membership | None:
    """The batch that takes a team from the members `before` to those `after` (member key ->
    role; None before: a new team, whose create carries them as plain members), by user id;
    None when nothing changes."""
    wanted = [_resource(team, key, role, ids) for key, role in after.items()]
    have = [_resource(team, key, role, ids) for key, role in (before or {}).items()]
    if before is None:
        # The create request makes each of them a plain member: the roles that differ follow.
        have = [_resource(team, r.key, "member", ids) for r in wanted]
    changes = _KIND.changes(
        [DesiredResource(r.kind, r.key, r.address, r.name, r.fields, ()) for r in wanted],
        have,
        ctx,
        team,
    )
    if not changes and before is not None:
        return None
    joining = {d.key for d in changes.created}
    changed = {d.key for d, _ in changes.changed}
    roles = {
        ids.get(r.key, r.key): str(r.fields["role"])
        for r in wanted
        if r.key in changed or (r.key in joining and r.fields["role"] != "member")
    }
    return Membership(
        add=sorted(ids.get(key, key) for key in joining),
        remove=sorted(gone.id for gone in changes.deleted),
        roles=roles,
        after=sorted(ids.get(r.key, r.key) for r in wanted),
    )


def _resource(team: str, key: str, role: str, ids: dict[str, str]) -> LiveResource:
    own = address(TEAM_MEMBER.name, key, team)
    return LiveResource(TEAM_MEMBER.name, ids.get(key, key), key, own, key, {"role": role})

"""What the safety rails know of the API token's own access while they walk a plan: each kind
says, through its `lockout` hook, how an action of its own could take that access away."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from docsync.core.model import Action
from docsync.core.state import LiveResource, LiveState

#: verbs that take a resource away (a replace deletes it first)
REMOVING = ("delete", "replace")


@dataclass
class Lockout:
    live: LiveState
    #: every action of the plan (a kind judges its own with others': grants with teams')
    actions: Sequence[Action] = ()
    #: the token's own member, when the API says who the token is (GET /v1/user); set by the
    #: kind that reads members, in its `lockout_before`
    me: LiveResource | None = None
    #: member address -> role, as the plan leaves them
    roles: dict[str, Any] = field(default_factory=dict)
    #: the plan changes members (so the organization's admins are checked at the end)
    members_changed: bool = False
    problems: list[str] = field(default_factory=list)
    #: what a kind gathers from its actions to judge them together in `lockout_after` (a
    #: resource's grant actions), by kind name
    gathered: dict[str, Any] = field(default_factory=dict)

    @property
    def me_uses_sso(self) -> bool:
        return bool(self.me and self.me.raw.get("sso"))

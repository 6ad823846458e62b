"""The organization's invite links, keyed by the role they give (`null`: a guest link).

Whoever holds a link joins the organization, and the link is its id (production joins with
`POST /orgs/{org}/invites/{inviteId}`): the id is the secret. A link is known by a keyed digest
of its id (`core.secrecy`), which is all that plans, saved plans, apply reports and messages
carry; the requests that need the id look it up among the links read or made, and the client
never repeats it."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

from pydantic import field_validator

from docsync.api.answers import TEXT, Listed, Opt, odd_items
from docsync.api.contract import LEFT_OUT, Note, Said, Seed
from docsync.core.context import PlanContext, RunContext
from docsync.core.entries import Entry, Role, role_shown
from docsync.core.model import Action
from docsync.core.nullability import NULL
from docsync.core.secrecy import text_digest
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.crud import CrudKind
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.kind import ExportNames
from docsync.kinds.lists import Place, Steps
from docsync.kinds.requests import BY_KEY, Reading, Routes, Writes, each_write_lost


class InviteLinkEntry(Entry):
    """An invite link to the organization, keyed by the role it gives."""

    role: Annotated[Role | None, NULL] = Api(answer=Opt(TEXT)).limits(default=None)
    """The role of whoever joins with it; null: a guest link."""

    @field_validator("id")
    @classmethod
    def _not_pinned(cls, value: str | None) -> str | None:
        if value is not None:
            raise ValueError(
                "an invite link's id is the link itself (whoever holds it joins): it does not "
                "belong in a manifest; links are keyed by role"
            )
        return value


#: production's invite links to one space or collection, which no manifest writes
TO_CONTENT = (
    "an invite link to one space or collection cannot be read back: production's list of "
    "invite links answers the organization's alone, so a plan could not tell a link made from "
    "one to make, and every plan would make it again"
)
CONTRACT: tuple[Said, ...] = (
    *(
        Note(LEFT_OUT, "POST /v1/orgs/{org}/link-invites", name, TO_CONTENT)
        for name in ("level", "space", "collection")
    ),
    Note(LEFT_OUT, "PATCH /v1/orgs/{org}/link-invites/{id}", "level", TO_CONTENT),
    Seed("POST", "/v1/orgs/{org}/link-invites", {"role": "read"}),
)

INVITE_LINK = Declaration(
    "invite_link",
    "inviteLinks",
    "invite link",
    key="role",
    exact=True,  # when written, the organization's links are these
    export_file="org.yaml",
    key_note=" (null: a guest link)",
    entry=InviteLinkEntry,
    routes=Routes("/v1/orgs/{org}/link-invites", id_name="inviteId"),
    writes=(Writes(found_by=BY_KEY),),
    lost_answers=(
        each_write_lost(
            "inviteLinks",
            ("{role: read}", None, "{role: read, state: absent}"),
            ("POST", "/link-invites$"),
            None,
            ("DELETE", "/link-invites/[^/]+$"),
        ),
    ),
    contract=CONTRACT,
    roles=("read", "admin"),
)


class InviteLinkKind(CrudKind):
    declaration = INVITE_LINK

    def __init__(self) -> None:
        super().__init__()
        #: the ids of the links read or made, by the digest that stands for each
        self._ids: dict[str, str] = {}

    async def fetch(self, read: Reading) -> Any:
        links = await self.listed(read.api, read.org_id)
        read.api.redact(str(link.get("id")) for link in [*links, *odd_items(links)])
        return links

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        """Each link under the digest of its id, keyed by its role (`null` shown `guest`)."""
        items = Listed(
            [{**item, "id": self._handle(str(item["id"]))} for item in raw],
            [{**item, "id": self._handle(str(item.get("id")))} for item in odd_items(raw)],
        )
        return self.live_resources(items, live, key=lambda item, _: role_shown(item.get("role")))

    def to_desired(self, ctx: PlanContext) -> list[DesiredResource]:
        return self.desired_resources(ctx, key=lambda entry, _path, _ctx: role_shown(entry.role))

    def plan(self, ctx: PlanContext) -> None:
        self.plan_entries(ctx, Steps(self.plan_create, self.plan_update, self._deleted))

    def _deleted(
        self, live: LiveResource, desired: DesiredResource | None, at: Place
    ) -> Action | None:
        """A link deleted: whoever holds it can no longer join."""
        action = self.plan_delete(live, desired, at)
        if action is not None:
            action.takes_away(
                f"whoever holds the {live.key} link can no longer join with it", readers=True
            )
        return action

    def _handle(self, secret: str) -> str:
        """What stands for a link's id everywhere docsync shows or keeps ids."""
        if secret in self._ids:
            return secret  # a digest already
        handle = f"digest:{text_digest(secret)[:20]}"
        self._ids[handle] = secret
        return handle

    async def execute(self, action: Action, run: RunContext) -> None:
        """The requests name the link by its id, found again from the digest that stands for
        it; what a create makes is known by its digest from then on."""
        own = replace(action, live_id=self._ids.get(action.live_id or "", action.live_id))
        await super().execute(own, run)
        if action.address in run.ids:
            run.ids[action.address] = self._handle(run.ids[action.address])

    def export(self, live: LiveState, names: ExportNames) -> Any:
        """A link by its role alone (`null`: a guest link), never its id."""
        return self.export_entries(live, names, lambda r: {"role": r.fields["role"]})

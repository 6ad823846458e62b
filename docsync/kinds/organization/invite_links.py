"""The organization's invite links, keyed by the role they give (`null`: a guest link).

Whoever holds a link joins the organization, and the link is its id (production joins with
`POST /orgs/{org}/invites/{inviteId}`): the id is the secret. A link is known by a keyed digest
of its id (`core.secrecy`), which is all that plans, saved plans, apply reports and messages
carry; the requests that need the id look it up among the links read or made, and the client
never repeats it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import field_validator

from docsync.api.answers import ID, TEXT, Obj, Opt
from docsync.core.context import PlanContext, RunContext
from docsync.core.entries import Entry, Role, role_shown
from docsync.core.nullability import NULL
from docsync.core.secrecy import keyed_digest
from docsync.core.state import LiveResource, LiveState
from docsync.kinds.crud import CrudKind
from docsync.kinds.declaration import Declaration, Field, Routes
from docsync.kinds.kind import ExportNames, Path
from docsync.kinds.lost_answers import BY_KEY, Writes

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.core.loaded import ManifestDoc


class InviteLinkEntry(Entry):
    """An invite link to the organization, keyed by the role it gives."""

    role: Annotated[Role | None, NULL] = None
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


INVITE_LINK = Declaration(
    "invite_link",
    "inviteLinks",
    "invite link",
    key="role",
    fields=(Field("role"),),
    exact=True,  # when written, the organization's links are these
    export_file="org.yaml",
    key_note=" (null: a guest link)",
    entry=InviteLinkEntry,
    routes=Routes("/v1/orgs/{org}/link-invites", id_name="inviteId"),
    writes=(Writes(found_by=BY_KEY),),
    answer=Obj({"id": ID, "role": Opt(TEXT)}),
)


class InviteLinkKind(CrudKind):
    declaration = INVITE_LINK

    def __init__(self) -> None:
        super().__init__()
        #: the ids of the links read, by the digest that stands for each
        self._ids: dict[str, str] = {}

    async def fetch(self, api: ApiClient, org_id: str, manifest: ManifestDoc | None) -> Any:
        links = await super().fetch(api, org_id, manifest)
        api.redact(str(link["id"]) for link in links)
        return links

    def wanted(self, manifest: ManifestDoc, referenced: set[str]) -> bool:
        """Written, even as `[]`: the list is exact, so an empty one deletes every link."""
        return self.section in manifest.model_fields_set or super().wanted(manifest, referenced)

    def live_key(self, raw: dict[str, Any], live: LiveState) -> str:
        return role_shown(raw.get("role"))

    def desired_key(self, entry: Any, path: Path, ctx: PlanContext) -> str:
        return role_shown(entry.role)

    def _handle(self, secret: str) -> str:
        """What stands for a link's id everywhere docsync shows or keeps ids."""
        handle = f"digest:{keyed_digest(secret.encode())[:20]}"
        self._ids[handle] = secret
        return handle

    def resource(
        self,
        item: dict[str, Any],
        key: str,
        name: str,
        fields: dict[str, Any],
        refs: set[str] | None = None,
    ) -> LiveResource:
        handle = self._handle(str(item["id"]))
        return super().resource({**item, "id": handle}, key, key, fields, refs)

    async def create(self, key: str, fields: dict[str, Any], run: RunContext) -> str:
        return self._handle(await super().create(key, fields, run))

    async def find(self, key: str, fields: dict[str, Any], run: RunContext) -> str | None:
        found = await super().find(key, fields, run)
        return None if found is None else self._handle(found)

    def item_path(self, run: RunContext, live_id: str) -> str:
        return super().item_path(run, self._ids.get(live_id, live_id))

    def export_entry(
        self, resource: LiveResource, live: LiveState, names: ExportNames
    ) -> dict[str, Any]:
        return {"role": resource.fields["role"]}

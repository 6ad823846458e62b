"""The requests of a kind of independent resources (`CrudKind`): a create (never twice: one
whose answer was lost is found again by its key), an update, a delete, each under the kind's
routes; a flat kind's module overrides only what its API does differently."""

from __future__ import annotations

from typing import Any

from docsync.core.context import RunContext
from docsync.core.model import Action
from docsync.core.state import LiveState
from docsync.kinds.base import Kind
from docsync.kinds.changes import fields_of
from docsync.kinds.lost import create_once


class CrudRequests(Kind):
    """What a flat kind sends: its hooks read the kind's declaration (fields, routes)."""

    @property
    def list_path(self) -> str:
        """Live items a plan reads for this kind: one list call, every page (`{org}`)."""
        routes = self.declaration.routes
        assert routes is not None, f"{self.name} declares no routes"
        return routes.list

    def live_key(self, raw: dict[str, Any], live: LiveState) -> str:
        return str(raw[self.key_field])

    # -- applying ------------------------------------------------------------------------------
    def body(self, fields: dict[str, Any], *, creating: bool) -> dict[str, Any]:
        """The request body: the written fields that travel in this request, by wire name.

        A create leaves out `null`s: nothing is there to remove, and production refuses some
        (`POST collections {"parent": null}`); but not the key's, which says what is made (an
        invite link keyed by role, `null` for a guest link).
        """
        return {
            f.wire_name: fields[f.name]
            for f in self.fields
            if f.name in fields
            and (f.create if creating else f.update)
            and not (creating and fields[f.name] is None and f.name != self.key_field)
        }

    def item_path(self, run: RunContext, live_id: str) -> str:
        routes = self.declaration.routes
        assert routes is not None, f"{self.name} declares no routes"
        return routes.item_path.format(org=run.org_id, id=live_id)

    async def create(self, key: str, fields: dict[str, Any], run: RunContext) -> str:
        """Sends the create request and returns the new id (subclasses change verb or path)."""
        path = self.list_path.format(org=run.org_id)
        created = await run.api.write("POST", path, self.body(fields, creating=True))
        return str(created["id"])

    async def after_create(self, new_id: str, fields: dict[str, Any], run: RunContext) -> None:
        """Writes, with one update, the written fields that the create request cannot carry."""
        late = {
            f.wire_name: fields[f.name]
            for f in self.fields
            if f.name in fields and f.update and not f.create and fields[f.name] is not None
        }
        if late:
            await run.api.write("PATCH", self.item_path(run, new_id), late)

    async def update(self, live_id: str, fields: dict[str, Any], run: RunContext) -> None:
        body = self.body(fields, creating=False)
        if body:
            await run.api.write("PATCH", self.item_path(run, live_id), body)

    async def delete(self, live_id: str, run: RunContext) -> None:
        await run.api.write("DELETE", self.item_path(run, live_id))

    async def find(self, key: str, fields: dict[str, Any], run: RunContext) -> str | None:
        """After a create whose outcome is unknown: the id of a live item with this key, if any."""
        items = await run.api.list_all(self.list_path.format(org=run.org_id), items=self.answer)
        live = LiveState(organization={"id": run.org_id})
        found = [item for item in items if self.live_key(item, live) == key]
        return str(found[-1]["id"]) if found else None

    async def create_once(self, key: str, fields: dict[str, Any], run: RunContext) -> str:
        """A create whose answer was lost is found by `find`, not sent twice (`lost`)."""
        return await create_once(
            lambda: self.create(key, fields, run), lambda: self.find(key, fields, run)
        )

    async def execute(self, action: Action, run: RunContext) -> None:
        payload = fields_of(action)
        fields = run.resolve(payload.fields)
        key = payload.key
        if action.verb == "create":
            new_id = await self.create_once(key, fields, run)
            run.ids[action.address] = new_id
            await self.after_create(new_id, fields, run)
        elif action.verb == "update":
            assert action.live_id is not None
            await self.update(action.live_id, fields, run)
        elif action.verb == "delete":
            assert action.live_id is not None
            await self.delete(action.live_id, run)
        elif action.verb == "replace":
            assert action.live_id is not None
            await self.delete(action.live_id, run)
            new_id = await self.create_once(key, fields, run)
            run.ids[action.address] = new_id
            await self.after_create(new_id, fields, run)
        else:
            raise ValueError(f"{self.name} cannot {action.verb}")

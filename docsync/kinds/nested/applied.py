"""How a kind nested in a site's structure is written: the requests its routes name under the
site's path, a create whose outcome is unknown found again in one structure read (by what the
kind hands it, `Finder`), and a default moved through the parent."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, final

from docsync.api.answers import check_answer
from docsync.core.context import PlanContext, RunContext
from docsync.core.lockout import Lockout
from docsync.core.model import Action, Picture, Plan, Review
from docsync.core.state import LiveState
from docsync.kinds.declaration import Field, Structure
from docsync.kinds.kind import Kind
from docsync.kinds.nested.answers import item_shape
from docsync.kinds.nested.parts import OnSite
from docsync.kinds.nested.payloads import ChildChange, child
from docsync.kinds.requests import Route, Routes, create_once

#: a site, under which its children's lists are
SITE = "/v1/orgs/{org}/sites/{site}"
#: a level's default set on the site (`defaultSiteSection`, `defaultSiteSpace` at its root)
SITE_DEFAULT = Route("PATCH", SITE)
#: a section's own fields set by a kind of another level (its default site space, its group)
ON_SECTION = Route("PATCH", f"{SITE}/sections/{{section}}")


def child_routes(segment: str, id_name: str, more: Mapping[str, Route] | None = None) -> Routes:
    """A site's child's routes: its list under the site (`segment`) and its items; `more`: what
    else it sends (its default set through the site or its section). A create whose answer was
    lost is found again in the site's structure, read by the site's route (`post_once`)."""
    return Routes(f"{SITE}/{segment}", id_name=id_name, more=dict(more or {}))


def site_path(run: RunContext, payload: OnSite) -> str:
    return SITE.format(org=run.org_id, site=run.resolve(payload.site))


def _late(kind: Kind, fields: dict[str, Any], made_by_parent: bool) -> list[Field]:
    """Written fields that only an update can set (the create request has no room for them);
    every one an update takes but a reference, for an item its parent's create made (a
    section's first site space: that request carried the section's own fields)."""
    return [
        f
        for f in kind.fields
        if f.name in fields and f.update and ((made_by_parent and not f.ref) or not f.create)
    ]


#: finds, in a structure read, the item a create asked for (its body) among ids not yet known
Finder = Callable[[Any, dict[str, Any], set[str]], dict[str, Any] | None]


class AppliedChild(Kind):
    """Read and planned with the site (one structure read serves them all), never alone: the
    hooks of reading and planning are the site's. What its `Structure` declares (where its items
    stand in a structure read, the layout they belong to, the field naming its level's
    default) is read here."""

    HOOKS: ClassVar[tuple[str, ...]] = ("execute", "check_list", "requests")

    @final
    @property
    def structure(self) -> Structure:
        found = self.declaration.structure
        assert found is not None, f"{self.name} declares no place in a site's structure"
        return found

    @final
    @property
    def pointer_type(self) -> str:
        """What the site's structure calls this kind's items (`site-section`)."""
        return self.structure.object

    @final
    @property
    def layout(self) -> str | None:
        return self.structure.layout

    @final
    @property
    def leads(self) -> bool:
        return self.structure.leads

    @final
    @property
    def default_field(self) -> str:
        return self.structure.default_field

    # -- the kind protocol's hooks that are the site's -----------------------------------------
    @final
    def warnings(self, ctx: PlanContext, actions: Sequence[Action]) -> list[str]:
        return []

    @final
    def pictures(self, ctx: PlanContext, actions: Sequence[Action]) -> list[Picture]:
        return []

    @final
    def reviews(self, plan: Plan) -> list[Review]:
        return []

    @final
    def lockout(self, actions: Sequence[Action], guard: Lockout) -> None:
        return None

    @final
    async def read_for_rails(self, api: Any, plan: Plan, live: LiveState) -> None:
        return None

    # -- applying ------------------------------------------------------------------------------
    def requests(self, action: Action) -> int:
        """None for the item its parent's create makes (a section's first site space)."""
        payload = action.payload
        made = isinstance(payload, ChildChange) and payload.made_by_section
        return super().requests(action) - (1 if made and action.verb == "create" else 0)

    async def execute(self, action: Action, run: RunContext) -> None:
        """An update, then what it carries (paths handed round, the default moved), and a
        delete, under the site's path; each kind makes its own creates."""
        if action.verb == "update":
            assert action.live_id is not None
            await self.update_item(action, run, action.live_id, self.resolved(action, run))
        elif action.verb == "delete":
            await self.on_site(action, run, "delete", id=action.live_id)
        else:
            raise ValueError(f"{self.name} cannot {action.verb}")

    @final
    def resolved(self, action: Action, run: RunContext) -> dict[str, Any]:
        """The action's fields, their references resolved to ids."""
        fields: dict[str, Any] = run.resolve(child(action).fields)
        return fields

    @final
    async def on_site(
        self, action: Action, run: RunContext, name: str, body: Any = None, **at: Any
    ) -> Any:
        """The request its routes name `name`, under the action's site."""
        site = run.resolve(child(action).site)
        return await self.send(run.api, name, body, org=run.org_id, site=site, **at)

    @final
    async def post_once(
        self, action: Action, run: RunContext, body: dict[str, Any], find: Finder
    ) -> dict[str, Any]:
        """Creates without ever making a duplicate: when the server may or may not have made
        the item (5xx, dropped connection), one read of the site's structure (the site's route
        `structure`) finds it and the apply adopts it; only when it is not there is the request
        sent again."""
        site = run.resolve(child(action).site)

        async def create() -> dict[str, Any]:
            created: dict[str, Any] = await self.on_site(action, run, "create", body)
            path = self.route("create").at(org=run.org_id, site=site)
            check_answer("POST", path, created, item_shape(self.kinds, self.pointer_type))
            return created

        async def look() -> dict[str, Any] | None:
            holder = self.kinds.named("site")
            structure = await holder.send(run.api, "structure", org=run.org_id, id=site)
            return find(structure, body, set(run.ids.values()))

        return await create_once(create, look)

    @final
    async def update_item(
        self,
        action: Action,
        run: RunContext,
        item_id: str,
        fields: dict[str, Any],
        body: dict[str, Any] | None = None,
    ) -> None:
        """The paths handed round (planned by the site's driver), the update's `body` (by
        default the fields an update carries), then the default moved."""
        # Paths handed round within this level (planned by the site's driver), one at a time.
        for step in child(action).paths:
            await self.on_site(action, run, "update", {"path": step.path}, id=step.id)
        if body is None:
            body = {
                f.wire_name: fields[f.name] for f in self.fields if f.update and f.name in fields
            }
        if body:
            await self.on_site(action, run, "update", body, id=item_id)
        if fields.get("default"):
            assert action.live_id is not None
            await self.set_default(action, run, action.live_id)

    @final
    async def finish_create(
        self, action: Action, run: RunContext, item_id: str, fields: dict[str, Any], answer: Any
    ) -> None:
        """What a create request could not carry (late fields, then the default flag), unless
        its answer already shows it: a generated path that is the one wanted, the first site
        space of a level, which the API makes its default."""
        shown = answer if isinstance(answer, dict) else {}
        late = {
            f.wire_name: fields[f.name]
            for f in _late(self, fields, child(action).made_by_section)
            if not shown or f.read(shown) != fields[f.name]
        }
        if late:
            await self.on_site(action, run, "update", late, id=item_id)
        if fields.get("default") and not shown.get("default"):
            await self.set_default(action, run, item_id)

    @final
    async def set_default(self, action: Action, run: RunContext, own_id: str) -> None:
        """Makes this item its level's default: the API moves the flag through the parent (its
        routes `section default`, `site default`)."""
        target = child(action).default_via
        if target is None:
            raise TypeError(f"{action.key}: no level to set its default through")
        if target.kind == "section":
            section = run.resolve(target.id)
            body = {"defaultSiteSpace": own_id}
            await self.on_site(action, run, "section default", body, section=section)
        else:
            await self.on_site(action, run, "site default", {self.default_field: own_id})

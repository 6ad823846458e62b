"""A part of a site (`SitePart`) or of one of a site's children (`ChildPart`, a site space's
override), in the framework of what a site holds: asked by the site kind, under the names every
kind answers, each with what the site hands it; its one action per site is the site's (kind
`site`, addressed `site["Docs"].<section>`, `SitePart.holder_action` for a keyed list), its
requests under the site's path (`under_site`, `send_under`, `at_site`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, final

from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.model import Action, FieldChange
from docsync.core.payloads import Payload, Ref
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.kind import PLAN_HOOKS, ExportNames
from docsync.kinds.parts import ItemWrites, Part
from docsync.kinds.requests import Route, send

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.core.remote import Api


#: where the API lists an organization's sites, and where one site is: a part's reads and
#: writes are under the second
SITES = "/v1/orgs/{org}/sites"
SITE = f"{SITES}/{{id}}"


@dataclass
class OnSite(Payload):
    """An action on a site as a whole (publish, unpublish), on one of its children, or on one
    of its parts: the site it is on (a `$ref` placeholder until the site exists)."""

    site: Ref = None


def under_site(route: Route, site_path: str) -> Route:
    """A part's request, as its routes declare it under a site (`/v1/orgs/{org}/sites/{site}/
    ...`), placed under the site at `site_path` (what the site's read and apply hand a part)."""
    head, _, under = route.path.partition("/sites/")
    assert head == SITES.removesuffix("/sites") and under, f"{route.path} is not under a site"
    return replace(route, path=f"{site_path}/{under.partition('/')[2]}")


async def send_under(api: Api, route: Route, site_path: str, body: Any = None, **at: Any) -> Any:
    """A part's request sent under the site at `site_path` (`under_site`)."""
    return await send(api, under_site(route, site_path), body, **at)


@dataclass
class SiteItems(OnSite, ItemWrites):
    """A site's items to write (`ItemWrites`, by `ListPart.write_items`), and what the creates
    and updates need made first (an integration's installation, as `$ref` placeholders, for
    their order only: nothing is sent of them)."""

    after: list[Ref] = field(default_factory=list)


@dataclass(frozen=True)
class PlannedItems:
    """What a kind planned of its list on one site: the lines a reviewer reads, the writes,
    and what each deleted item takes away (what the site's assistant read, where it answered),
    which puts the action under "Needs a careful look"."""

    lines: list[FieldChange]
    writes: SiteItems
    losses: list[str]


class SitePart(Part):
    """A part of a site: the site kind reads it for the entries that write it, plans it, carries
    out its action (kind `site`, addressed `site["Docs"].<section>`) and exports it, asking the
    hooks of every kind under their names, each with what the site hands it."""

    HOOKS: ClassVar[tuple[str, ...]] = ("reads", "fetch", "plan", "execute", "export", *PLAN_HOOKS)
    #: the payload of its one action per site
    part_payload: ClassVar[type[OnSite]]
    #: planning it needs the site's structure (redirects name its sections)
    reads_structure: ClassVar[bool] = False

    def reads(self, entry: Any) -> bool:
        """Which site entries make the site read this part?

        Asked by: the site's read and plan, per site entry. Returns: whether the part is read
        and planned for that site. Default: the entry writes the part's field."""
        return getattr(entry, self.section, None) is not None

    async def fetch(self, api: ApiClient, site: dict[str, Any], site_path: str) -> None:
        """What does the API hold of this part for one site?

        Asked by: the site's read, for each site whose entry writes it (every site, for
        export). Returns: nothing; keeps what it read in the site's item (`site["_<section>"]`).
        Default: refuses (every part reads)."""
        raise NotImplementedError(f"{type(self).__name__} must say how it is read")

    def plan(
        self, desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
    ) -> Action | None:
        """Which one action makes this part of a site what its entry writes?

        Asked by: the site's plan, per site entry, after its structure. Returns: the action
        (None: nothing changes), added to `ctx`. Default: refuses (every part plans)."""
        raise NotImplementedError(f"{type(self).__name__} must say how it is planned")

    async def execute(self, action: Action, run: RunContext) -> None:
        """How is this part's action carried out?

        Asked by: the site's `execute`, for an action whose payload is this part's (under the
        site's path, `at_site`). Returns: nothing. Default: refuses (every part writes)."""
        raise NotImplementedError(f"{type(self).__name__} must say how it is written")

    def export(self, site: LiveResource, live: LiveState, names: ExportNames) -> Any:
        """How does a manifest write this part of a site back?

        Asked by: the site's export. Returns: the part's value (None: nothing to write);
        `names` turns a secret into the `env()` template that reads it. Default: None."""
        return None

    def requests(self, action: Action) -> int:
        """What does carrying out its action cost in requests when nothing fails?

        Asked by: the site's `requests`, for `plan -v`'s estimate. Returns: a count. Default:
        one."""
        return 1

    @final
    def holder_action(
        self, desired: DesiredResource, planned: PlannedItems, ctx: PlanContext
    ) -> Action:
        """The site's one action for its list (what the part planned of it): after the site's own
        actions (a site made or renamed first), each loss named."""
        planned.writes.site = ref(desired.address)
        action = Action(
            "update",
            desired.kind,
            f"{desired.address}.{self.section}",
            planned.lines,
            ctx.where((*desired.path, self.section)),
            payload=planned.writes,
            depends_on=[a.key for a in ctx.actions_at[desired.address] if a.verb != "delete"],
        )
        for loss in planned.losses:
            action.takes_away(loss)
        return ctx.add(action)

    @final
    def held(self, site: LiveResource) -> str | None:
        """What a site holds of this part as read, named for a delete that takes it with it
        (`share links "Agency", "Partner"`, `customization`); None: nothing, or not read."""
        found = site.raw.get(f"_{self.section}")
        if isinstance(found, list):
            names = [
                json.dumps(i.get(self.key_field), ensure_ascii=False)
                for i in found
                if isinstance(i, dict)
            ]
            return f"{self.declaration.plural} {', '.join(names)}" if names else None
        return self.declaration.noun if isinstance(found, dict) and any(found.values()) else None

    @final
    async def read_for_rails(self, api: Any, plan: Any, live: LiveState) -> None:
        return None


def at_site(action: Action, run: RunContext) -> str:
    """The path of the site an action of a part (of the site or of one of its children) is on,
    its id known now."""
    assert isinstance(action.payload, OnSite)
    return SITE.format(org=run.org_id, id=run.resolve(action.payload.site))


class ChildPart(Part):
    """A part of one of a site's children (a site space's customization override): read after
    the site's structure, planned with the child once the structure is planned, exported with
    it, asking the hooks of every kind under their names, each with what the site hands it. Its
    field is in the child's entries, never in the site's."""

    HOOKS: ClassVar[tuple[str, ...]] = SitePart.HOOKS
    #: the payload of its one action per child
    part_payload: ClassVar[type[OnSite]]

    def reads(self, entry: Any) -> bool:
        """Which site entries write this part on one of their children?

        Asked by: the site's read, per site entry. Returns: whether the site's structure and
        then this part are read. Default: no."""
        return False

    async def fetch(
        self, api: ApiClient, site: dict[str, Any], site_path: str, entry: Any | None
    ) -> None:
        """What does the API hold of this part for the children a site entry writes it on?

        Asked by: the site's read, after its structure (`entry` None: export, every child's).
        Returns: nothing; keeps what it read in the items of the structure read. Default:
        nothing."""

    def plan(
        self,
        site: DesiredResource,
        site_live: LiveResource | None,
        child: DesiredResource,
        child_live: LiveResource | None,
        ctx: PlanContext,
    ) -> Action | None:
        """Which one action makes this part of one child what its entry writes?

        Asked by: the site's plan, per child of its kind, once the structure is planned.
        Returns: the action (None: nothing changes), added to `ctx`. Default: None."""
        return None

    async def execute(self, action: Action, run: RunContext) -> None:
        """How is this part's action carried out?

        Asked by: the site's `execute`, for an action whose payload is this part's (under the
        site's path, `at_site`). Returns: nothing. Default: refuses (every part writes)."""
        raise NotImplementedError(f"{type(self).__name__} must say how it is written")

    def export(self, child: LiveResource, site: LiveResource) -> Any:
        """How does a manifest write this part of a child back?

        Asked by: the site's export, per child of its kind. Returns: the part's value (None:
        nothing to write). Default: None."""
        return None

    def requests(self, action: Action) -> int:
        """What does carrying out its action cost in requests when nothing fails?

        Asked by: the site's `requests`, for `plan -v`'s estimate. Returns: a count. Default:
        one."""
        return 1

    @final
    async def read_for_rails(self, api: Any, plan: Any, live: LiveState) -> None:
        return None

"""A part of a site (its redirects, share links, publishing auth, customization): read,
planned and written with the site, one action per site, kind `site`, addressed
`site["Docs"].<section>`, its payload the part's own. The site kind finds its parts in the
catalogue (`site_parts`): it reads those an entry writes, plans each, carries out an action by
its payload's part, and exports them; a new part needs no line in the site's module. A part of
a site's child (a site space's override) is a `ChildPart`, planned with that child."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from docsync.core.context import PlanContext, RunContext
from docsync.core.model import Action
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.kind import ExportNames, Kinds
from docsync.kinds.parts import Part
from docsync.kinds.sites.payloads import OnSite

if TYPE_CHECKING:
    from docsync.api import ApiClient

#: where the API lists an organization's sites, and where one site is: a part's reads and
#: writes are under the second
SITES = "/v1/orgs/{org}/sites"
SITE = f"{SITES}/{{id}}"


class SitePart(Part):
    """A part's hooks; never read or planned on its own."""

    #: the payload of its one action per site
    part_payload: ClassVar[type[OnSite]]

    def written(self, entry: Any) -> bool:
        """Whether a site entry manages this part (reads and plans it)."""
        return getattr(entry, self.section, None) is not None

    def needs_structure(self, entry: Any) -> bool:
        """Whether planning it needs the site's structure (redirects name its sections)."""
        return False

    async def read(self, api: ApiClient, site: dict[str, Any], site_path: str) -> None:
        raise NotImplementedError(f"{type(self).__name__} must say how it is read")

    def plan_part(
        self, desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
    ) -> Action | None:
        """The site's one action for this part (None: nothing changes)."""
        raise NotImplementedError(f"{type(self).__name__} must say how it is planned")

    async def write(self, payload: Any, site_path: str, run: RunContext) -> None:
        raise NotImplementedError(f"{type(self).__name__} must say how it is written")

    def export_part(self, site: LiveResource, live: LiveState, names: ExportNames) -> Any:
        """The part as a manifest writes it (None: nothing to write); `names` turns a secret
        into the `env()` template that reads it."""
        return None

    def requests(self, action: Action) -> int:
        return 1


def site_parts(kinds: Kinds) -> tuple[SitePart, ...]:
    """Every part of a site itself, in the catalogue's order (the order their actions are
    planned); a part of one of its children is planned with that child (`ChildPart`)."""
    return tuple(p for p in kinds.parts("site") if isinstance(p, SitePart))


def child_parts(kinds: Kinds) -> tuple[ChildPart, ...]:
    """The parts of a site's children (a site space's customization override)."""
    return tuple(p for p in kinds if isinstance(p, ChildPart))


def part_writing(kinds: Kinds, payload: object) -> SitePart | None:
    """The part, of the site or of one of its children, whose action carries `payload`."""
    every = (*site_parts(kinds), *child_parts(kinds))
    return next((p for p in every if isinstance(payload, p.part_payload)), None)


class ChildPart(SitePart):
    """A part of one of a site's children (a site space's customization override): read after
    the site's structure, planned with the child once the structure is planned, exported with
    it. Its entry's field is the child's; `written` on a site entry is never true."""

    def written(self, entry: Any) -> bool:
        return False

    async def read_under(
        self, api: ApiClient, site: dict[str, Any], site_path: str, entry: Any | None
    ) -> None:
        """Into the items of the site's structure read, what the site `entry` writes of this
        part (every item's, for export: `entry` None)."""

    def plan_under(
        self,
        site: DesiredResource,
        site_live: LiveResource | None,
        child: DesiredResource,
        child_live: LiveResource | None,
        ctx: PlanContext,
    ) -> Action | None:
        """The part's one action for `child` of `site` (None: nothing changes)."""
        return None

    def export_under(self, child: LiveResource, site: LiveResource) -> Any:
        """The part of `child` as a manifest writes it (None: nothing to write)."""
        return None

    def reads_under(self, entry: Any) -> bool:
        """Whether the site `entry` writes this part on one of its children."""
        return False

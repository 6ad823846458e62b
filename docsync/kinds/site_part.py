"""A part of a site (its redirects, share links, publishing auth, customization): read,
planned and written with the site, one action per site, kind `site`, addressed
`site["Docs"].<section>`, its payload the part's own. The site kind finds its parts in the
catalogue (`site_parts`): it reads those an entry writes, plans each, carries out an action by
its payload's part, and exports them; a new part needs no line in the site's module."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from docsync.core.context import PlanContext, RunContext
from docsync.core.model import Action
from docsync.core.payloads import OnSite
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.base import ExportNames
from docsync.kinds.parts import Part

if TYPE_CHECKING:
    from docsync.api import ApiClient


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


@cache
def _every_part() -> tuple[SitePart, ...]:
    from docsync.kinds.catalogue import CATALOGUE, kind_named  # built from this package

    found = [kind_named(d.name) for d in CATALOGUE if d.part]
    return tuple(kind for kind in found if isinstance(kind, SitePart))


def site_parts() -> tuple[SitePart, ...]:
    """Every part of a site itself, in the catalogue's order (the order their actions are
    planned); a part of one of its site spaces is planned with the site space."""
    return tuple(p for p in _every_part() if "site" in p.declaration.parents)


def part_writing(payload: object) -> SitePart | None:
    """The part, of the site or of one of its children, whose action carries `payload`."""
    return next((p for p in _every_part() if isinstance(payload, p.part_payload)), None)

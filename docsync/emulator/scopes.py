"""Where a declared resource lives, and how its path's id finds one of its rows there.

- `IN_ORG`: under `/orgs/{organizationId}/...`; the caller's access to the organization is
  checked first, then a row of another organization is one that does not exist.
- `IN_SITE`: under a site of the organization (`.../sites/{siteId}/...`): its rows are the
  site's (their parent, or the site their data names for an item deep in its structure).
- `BY_ID`: listed and created under the organization, read by an id of its own
  (`/collections/{collectionId}`): found first, then the caller's access to its organization.
- `OWN_ID`: reached by an id of its own that no path of an organization holds
  (`/git/installations/{installationId}`): found first, then the caller's access to its
  organization; one of another organization is an id that names nothing.
- `MEMBER_OF`: the organizations themselves: the caller's are listed, one is found by its id.
- `CATALOGUE`: what every caller reads, found by its id alone (the integrations there are).
- `Within(entry)`: nested in an item of another table entry (a team's members, a space's
  grants): that item is found first, with the access asked, and holds the rows (their parent,
  or the item a field of theirs names).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from docsync.emulator import content
from docsync.emulator.auth import Access, membership
from docsync.emulator.body import Place
from docsync.emulator.errors import not_found
from docsync.emulator.http import Ctx
from docsync.emulator.snapshot import Loading
from docsync.emulator.store import Row

SITE = "site"


class Findable(Protocol):
    """What a scope finds a resource's rows by (a `resource.Resource`)."""

    @property
    def kind(self) -> str: ...

    @property
    def item(self) -> str:
        """The name of the id in an item's path."""

    @property
    def missing(self) -> str:
        """The 404 of an id that names nothing, with `{id}`, `{org}`, `{site}`, `{holder}` and
        the path's parameters."""

    @property
    def scope(self) -> Scope: ...

    @property
    def org_keyed(self) -> bool:
        """Its store id is `<organization>/<the path's id>`."""

    def key_in(self, ctx: Ctx, place: Place) -> str:
        """The store id the path names."""

    def hides(self, ctx: Ctx, row: Row) -> bool:
        """A stored row the API does not show."""

    def nothing(self, ctx: Ctx) -> None:
        """A delete of an id that names nothing: what else the path names is checked, or the
        delete refused (404) where production answers no 204."""


def find_site(ctx: Ctx, org: str, site_id: str | None = None) -> Row:
    """The site of the path (or `site_id`) in `org`; 404 otherwise."""
    site_id = site_id if site_id is not None else ctx.params["siteId"]
    row = ctx.tx.get_row(SITE, site_id)
    if row is None or row.org != org:
        raise not_found(f"Site {site_id!r} not found in organization {org!r}")
    return row


def missing(ctx: Ctx, res: Findable, place: Place) -> str:
    """The 404 of the path's id in `place`."""
    site = None if place.site is None else place.site.id
    holder = None if place.within is None else place.within.id
    named = ctx.params[res.item]
    return res.missing.format(**ctx.params, id=named, org=place.org, site=site, holder=holder)


class Scope:
    """The organization's level: `/orgs/{organizationId}/<resources>/{id}`."""

    def enter(self, ctx: Ctx, access: Access) -> Place:
        """The place of the path, once the caller's access is checked."""
        return Place(ctx.org(access)["id"])

    def rows(self, ctx: Ctx, kind: str, place: Place) -> list[Row]:
        return ctx.tx.rows(kind, org=place.org)

    def seeded_place(self, at: Loading, params: dict[str, str]) -> Place | None:
        """Where what a snapshot's list of a path answered is (None: nowhere it holds)."""
        return Place(at.org)

    def owns(self, place: Place, row: Row) -> bool:
        return row.org == place.org

    def existing(self, ctx: Ctx, res: Findable, access: Access) -> tuple[Place, Row | None]:
        """The row the path names (None when there is none here), the place checked first."""
        place = self.enter(ctx, access)
        row = ctx.tx.get_row(res.kind, res.key_in(ctx, place))
        if row is None or not self.owns(place, row) or res.hides(ctx, row):
            res.nothing(ctx)
            return place, None
        return place, row

    def find(self, ctx: Ctx, res: Findable, access: Access) -> tuple[Place, Row]:
        """The row the path names; 404 (the resource's `missing` message) when there is none."""
        place = self.enter(ctx, access)
        row = ctx.tx.get_row(res.kind, res.key_in(ctx, place))
        if row is None or not self.owns(place, row) or res.hides(ctx, row):
            raise not_found(missing(ctx, res, place))
        return place, row


class SiteScope(Scope):
    """A site's parts: `/orgs/{organizationId}/sites/{siteId}/<resources>/{id}`."""

    def enter(self, ctx: Ctx, access: Access) -> Place:
        org = ctx.org(access)["id"]
        return Place(org, find_site(ctx, org))

    def rows(self, ctx: Ctx, kind: str, place: Place) -> list[Row]:
        return ctx.tx.rows(kind, parent=place.parent)

    def seeded_place(self, at: Loading, params: dict[str, str]) -> Place | None:
        site = at.row(SITE, params["siteId"])
        return None if site is None else Place(at.org, site)

    def owns(self, place: Place, row: Row) -> bool:
        return place.parent in (row.parent, row.data.get("site"))


class ByIdScope(Scope):
    """Listed and created under `/orgs/{organizationId}/...`, reached by `/<resources>/{id}`."""

    def existing(self, ctx: Ctx, res: Findable, access: Access) -> tuple[Place, Row | None]:
        """None also for a row of an organization the caller is not in: a delete of it is
        the 204 of an id that names nothing."""
        row = ctx.tx.get_row(res.kind, ctx.params[res.item])
        hidden = row is None or membership(ctx.tx, str(row.org), ctx.user["id"]) is None
        if row is None or hidden or res.hides(ctx, row):
            return Place(""), None
        return self.find(ctx, res, access)

    def find(self, ctx: Ctx, res: Findable, access: Access) -> tuple[Place, Row]:
        row = content.find(ctx, res.kind, ctx.params[res.item], access)
        assert row.org is not None
        return Place(row.org), row


class OwnIdScope(Scope):
    """Reached by `/<resources>/{id}` alone, listed (if at all) under the organization."""

    def existing(self, ctx: Ctx, res: Findable, access: Access) -> tuple[Place, Row | None]:
        if ctx.tx.get_row(res.kind, ctx.params[res.item]) is None:
            res.nothing(ctx)
            return Place(""), None
        return self.find(ctx, res, access)

    def find(self, ctx: Ctx, res: Findable, access: Access) -> tuple[Place, Row]:
        row = ctx.tx.get_row(res.kind, ctx.params[res.item])
        unseen = missing(ctx, res, Place(""))
        if row is None or res.hides(ctx, row):
            raise not_found(unseen)
        ctx.org(access, str(row.org), unseen=unseen)  # another organization's: as an unknown id
        return Place(str(row.org)), row


class MemberOfScope(Scope):
    """The organizations: `/orgs` lists the caller's, `/orgs/{organizationId}` is one of them
    (404 for one the caller is not a member of, as for one that does not exist)."""

    def enter(self, ctx: Ctx, access: Access) -> Place:
        return Place("")

    def rows(self, ctx: Ctx, kind: str, place: Place) -> list[Row]:
        return [
            row
            for row in ctx.tx.rows(kind)
            if membership(ctx.tx, row.id, ctx.user["id"]) is not None
        ]

    def find(self, ctx: Ctx, res: Findable, access: Access) -> tuple[Place, Row]:
        org = ctx.org(access)["id"]
        row = ctx.tx.get_row(res.kind, org)
        assert row is not None  # ctx.org found it
        return Place(org), row


class CatalogueScope(Scope):
    """`/<resources>/{id}`, of no organization: any caller reads one."""

    def find(self, ctx: Ctx, res: Findable, access: Access) -> tuple[Place, Row]:
        row = ctx.tx.get_row(res.kind, ctx.params[res.item])
        if row is None:
            raise not_found(missing(ctx, res, Place("")))
        return Place(""), row


class Within(Scope):
    """Nested in an item of another table entry: `<its item>/<resources>/{id}`. That item is
    found first (its entry's 404 when the path names none), then `check` refuses one whose
    parts are not reachable (a space in the bin); its rows are the item's children, or those
    of its organization whose field `link` names it (an installation's site installations are
    children of their sites)."""

    def __init__(
        self, outer: Findable, check: Callable[[Ctx, Row], None] | None = None, link: str = ""
    ) -> None:
        self.outer = outer
        self.check = check
        self.link = link

    def enter(self, ctx: Ctx, access: Access) -> Place:
        place, row = self.outer.scope.find(ctx, self.outer, access)
        if self.check is not None:
            self.check(ctx, row)
        return Place(place.org, place.site, row)

    def rows(self, ctx: Ctx, kind: str, place: Place) -> list[Row]:
        if not self.link:
            return ctx.tx.rows(kind, parent=place.holder.id)
        return [r for r in ctx.tx.rows(kind, org=place.org) if self.owns(place, r)]

    def seeded_place(self, at: Loading, params: dict[str, str]) -> Place | None:
        outer = self.outer.scope.seeded_place(at, params)
        if outer is None:
            return None
        named = params[self.outer.item]
        row = at.row(self.outer.kind, f"{outer.org}/{named}" if self.outer.org_keyed else named)
        return None if row is None else Place(outer.org, outer.site, row)

    def owns(self, place: Place, row: Row) -> bool:
        if self.link:
            return row.data.get(self.link) == place.holder.id
        return row.parent == place.holder.id


IN_ORG = Scope()
IN_SITE = SiteScope()
BY_ID = ByIdScope()
OWN_ID = OwnIdScope()
MEMBER_OF = MemberOfScope()
CATALOGUE = CatalogueScope()

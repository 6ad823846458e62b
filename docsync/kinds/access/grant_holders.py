"""The kinds whose resources carry grants (collections, spaces, sites): what grants add to
their reading (only for entries that write `permissions`, one list per resource and principal
type written, all concurrent), their planning (`planning.py`, with the resource) and their
export."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, final

from docsync.api.errors import NotFound
from docsync.core.checking import CheckView, Item
from docsync.core.concurrent import gather_all
from docsync.core.context import PlanContext
from docsync.core.entries import was_names
from docsync.core.reconcile import Reconciliation
from docsync.core.state import LiveResource, LiveState
from docsync.kinds.access.checks import grant_problems
from docsync.kinds.access.grant_writes import GRANT_ITEMS, PRINCIPALS
from docsync.kinds.access.grants import Permissions
from docsync.kinds.access.planning import live_side, plan_grants
from docsync.kinds.crud import CrudKind
from docsync.kinds.kind import ExportNames, Kind
from docsync.kinds.requests import Reading, Route, unless_hidden, unread

if TYPE_CHECKING:
    from docsync.core.loaded import ManifestDoc


#: the kind whose delete names its grants, which production removes with it
TEAM = "team"

#: the requests of a resource's grants, by name: its lists, one per principal type, an invite
#: (a role for the teams and users it names, sent again as it is), a grant's role changed or
#: the grant removed; every kind that holds grants names them among its routes (`Routes.more`),
#: and the grant kind sends them by the names its resource's kind gives them
GRANT_ROUTES = {
    **{
        f"grants of {wire}": Route("GET", f"{{item}}/permissions/{wire}", answer=shape, paged=True)
        for wire, shape in GRANT_ITEMS.items()
    },
    "invite": Route("POST", "{item}/permissions", retry_safe=True),
    "grant": Route("PATCH", "{item}/permissions/{wire}/{principal}"),
    "ungrant": Route("DELETE", "{item}/permissions/{wire}/{principal}"),
}

# -- reading ---------------------------------------------------------------------------------


def managed(
    entries: Sequence[Any], items: Sequence[dict[str, Any]]
) -> list[tuple[dict[str, Any], Permissions]]:
    """(live item, written permissions) of the entries that write `permissions`: an entry's
    pinned id, else the items with its title or the one it had (`was:`; a title repeated in
    other parents reads them all; the planner picks the one the entry is)."""
    out = []
    for entry in entries:
        written = getattr(entry, "permissions", None)
        if written is None or entry.state == "absent":
            continue
        titles = {entry.title} | was_names(entry)
        for item in items:
            if (item["id"] == entry.id) if entry.id else (item.get("title") in titles):
                out.append((item, written))
    return out


async def _grants(holder: Kind, read: Reading, item: dict[str, Any], which: Iterable[str]) -> None:
    """The direct grants of one resource of `holder` into `item["_grants"]`, one list per
    principal type in `which`; a resource the API no longer serves (a space in the bin) has
    none."""
    names = list(which)

    async def one(name: str) -> list[dict[str, Any]]:
        wire = PRINCIPALS[name][0]
        try:
            found: list[dict[str, Any]] = await holder.send(
                read.api, f"grants of {wire}", org=read.org_id, id=item["id"]
            )
        except NotFound:
            return []
        return found

    found = await gather_all(*(one(name) for name in names))
    item["_grants"] = dict(zip(names, found, strict=True))


#: what a resource's grants are called where the API hid them from the token's role
PERMISSIONS = "permissions"


async def read_managed(
    holder: Kind, read: Reading, items: Sequence[dict[str, Any]], everywhere: Sequence[str] = ()
) -> None:
    """Every list a plan needs (the read's entries None: export, every resource's every
    grant), and the principal types in `everywhere` on every resource (those of a kind the plan
    may delete: its grants go with it), all concurrent, by the routes `holder` names."""
    entries = read.entries
    if entries is None:
        chosen = {id(item): (item, list(PRINCIPALS)) for item in items}
    else:
        # an item two entries may be (one title in two parents) reads what either writes
        chosen = {}
        for item, written in managed(entries, items):
            which = chosen.setdefault(id(item), (item, []))[1]
            which += [n for n in PRINCIPALS if getattr(written, n) is not None and n not in which]
        for item in items:
            which = chosen.setdefault(id(item), (item, []))[1]
            which += [n for n in everywhere if n not in which]
    await gather_all(
        *(
            unless_hidden(item, PERMISSIONS, _grants(holder, read, item, which))
            for item, which in chosen.values()
            if which
        )
    )


# -- exporting -------------------------------------------------------------------------------


def export_grants(
    resource: LiveResource, live: LiveState, names: ExportNames
) -> dict[str, Any] | None:
    """The resource's direct grants as a manifest writes them (None: it has none); a team by
    the name export gives it elsewhere (its id when its title is not unique)."""
    read = resource.raw.get("_grants")
    if not read:
        return None
    out = {}
    for name in PRINCIPALS:
        have = live_side(read.get(name) or [], name, live)
        if name == "teams":
            for ident, grant in have.items():
                team = live.by_id.get(("team", ident))
                grant.name = names.name(team.address) if team is not None else ident
        if have:
            out[name] = {g.name: g.role for g in sorted(have.values(), key=lambda g: g.name)}
    return out or None


# -- the kinds that hold grants --------------------------------------------------------------


class GrantedKind(CrudKind):
    """A kind whose resources carry grants (collections, spaces, sites): what grants add to its
    reading, planning and export. Declares no kind itself: the grant kind (`grants.GRANT`)
    writes the grants and answers to the safety rails."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = cls.__dict__.get("declaration")
        if declared is not None and not set(GRANT_ROUTES) <= set(declared.routes.more):
            raise TypeError(f"{declared.name} holds grants: its routes must name GRANT_ROUTES")

    def reads(self, manifest: ManifestDoc) -> set[str]:
        """Itself, and the teams or members its entries' grants name; itself too when the
        manifest may delete teams, whose grants on its resources go with them (named)."""
        entries = getattr(manifest, self.section, None) or []
        written = [e.permissions for e in entries if getattr(e, "permissions", None) is not None]
        teams = self.kinds.named(TEAM).section
        deleted = teams in manifest.prune or any(
            getattr(e, "state", None) == "absent" for e in getattr(manifest, teams, None) or []
        )
        found = super().reads(manifest) | ({self.name} if deleted else set())
        return found | {
            kind
            for name, (_wire, kind) in PRINCIPALS.items()
            if any(getattr(w, name) is not None for w in written)
        }

    async def fetch(self, read: Reading) -> Any:
        items = await self.listed(read.api, read.org_id)
        await self.read_grants(read, items)
        return items

    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        for path, entry in items:
            for where, message in grant_problems(view, path, entry):
                view.report(where, message)

    def plan(self, ctx: PlanContext) -> None:
        self.plan_grants(ctx, self.plan_entries(ctx))

    def export(self, live: LiveState, names: ExportNames) -> Any:
        return self.export_entries(live, names, lambda r: self.with_grants(r, live, names))

    # -- what the kinds that hold grants call --------------------------------------------------
    @final
    async def read_grants(self, read: Reading, items: list[dict[str, Any]]) -> None:
        """Into each item whose entry writes `permissions`, its grants (every item's, for
        export)."""
        everywhere = [name for name, (_w, kind) in PRINCIPALS.items() if kind == TEAM]
        await read_managed(self, read, items, everywhere if TEAM in read.deleting else ())

    @final
    def plan_grants(self, ctx: PlanContext, result: Reconciliation | None) -> None:
        """The grants of each entry planned (`result`), with its resource (none for one
        replaced: its grants are made with the new one)."""
        for desired, live in result.entries if result else []:
            if live is not None and unread(live.raw, PERMISSIONS):
                continue  # hidden from the token's role: named by the plan, not planned
            replaced = any(a.verb == "replace" for a in ctx.actions_at[desired.address])
            plan_grants(desired, None if replaced else live, self.name, ctx)

    @final
    def with_grants(
        self, resource: LiveResource, live: LiveState, names: ExportNames
    ) -> dict[str, Any]:
        """An exported entry with the resource's direct grants, when it has any."""
        entry = self.export_entry(resource, names)
        grants = export_grants(resource, live, names)
        if grants:
            entry["permissions"] = grants
        return entry

"""The resources that hold grants (collections, spaces, sites), as the grant kind (a part they
hold, `grants.GrantKind`) reads and exports them: their grants' requests, named among their
routes; the grants read (only for entries that write `permissions`, one list per resource and
principal type written, all concurrent); the grants exported."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from docsync.api.errors import NotFound
from docsync.core.concurrent import gather_all
from docsync.core.entries import Model, was_names
from docsync.core.state import LiveResource, LiveState
from docsync.kinds.access.grant_writes import GRANT_ITEMS, PRINCIPALS
from docsync.kinds.access.planning import live_side
from docsync.kinds.kind import ExportNames, Kind
from docsync.kinds.requests import Reading, Route, unless_hidden

if TYPE_CHECKING:
    pass


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
) -> list[tuple[dict[str, Any], Model]]:
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

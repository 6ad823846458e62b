"""A site's share links: read as one list per site, compared as a list keyed by `name`, and
written by one action per site (deletes, then (de)activations, then creates). Used by the site
kind.

A link's URL carries its secret: whoever holds it reads the site. docsync keeps only a link's
id, name and `active` from what the API answers, so no URL can reach a plan, a log or an export.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from docsync.api.answers import FLAG, TEXT, Opt
from docsync.api.contract import MIN_LENGTH, NATURAL_KEY, UNMANAGED, Note, Seed
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.entries import Model
from docsync.core.model import Action, FieldChange, address
from docsync.core.nullability import NullChecked
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.kind import ExportNames
from docsync.kinds.nested.parts import OnSite, SitePart, at_site, send_under, under_site
from docsync.kinds.parts import ItemWrites, ListPart
from docsync.kinds.requests import Routes, Writes

if TYPE_CHECKING:
    from docsync.api import ApiClient

Path = tuple[str | int, ...]
#: what docsync keeps of a link as the API answers it (never `urls`: they hold the secret)
KEPT = ("id", "name", "active")
#: how a link whose create lost its answer is found (`requests.Writes`): its name is new to the site
FOUND_BY = "listed again, by its name (a link created here has a name no live link had)"


class ShareLinkEntry(NullChecked, Model):
    """One share link of a site, keyed by `name`; active unless written otherwise."""

    # created by name (the API makes links active), deactivated by a PATCH; a link renamed is
    # another link
    name: str = Api(update=False, answer=Opt(TEXT)).limits(min_length=1, max_length=50)
    active: bool = Api(create=False, answer=Opt(FLAG)).limits(default=True)
    """An inactive link's URL no longer opens the site; activating it again restores it."""


@dataclass
class ShareLinks(OnSite):
    """A site's share links to write: new links (`{name, active}`), live links whose `active`
    changes (`{id, active}`), and the ids of live links to delete."""

    creates: list[dict[str, Any]] | None = None
    updates: list[dict[str, Any]] | None = None
    deletes: list[str] | None = None

    def writes(self) -> ItemWrites:
        """As the list's items are written (`ListPart.write_items`): a link created by its name,
        then deactivated when written inactive (the API makes links active)."""
        return ItemWrites(
            creates=[
                {"body": {"name": new["name"]}, "then": {} if new["active"] else {"active": False}}
                for new in self.creates or []
            ],
            updates=[{"id": c["id"], "body": {"active": c["active"]}} for c in self.updates or []],
            deletes=list(self.deletes or []),
        )


# -- reading ---------------------------------------------------------------------------------


def _live(site: LiveResource | None) -> list[dict[str, Any]] | None:
    if site is None:
        return None
    found = site.raw.get("_shareLinks")
    return None if found is None else list(found)


def _shape(link: dict[str, Any]) -> dict[str, Any]:
    return {"name": str(link.get("name") or ""), "active": bool(link.get("active"))}


# -- the part's kind -------------------------------------------------------------------------

SHARE_LINKS = "/v1/orgs/{org}/sites/{site}/share-links"
CONTRACT = (
    Note(
        UNMANAGED,
        f"PATCH {SHARE_LINKS}/{{id}}",
        "name",
        "a share link's name is its key: a link of another name is another link",
    ),
    Note(MIN_LENGTH, f"POST {SHARE_LINKS}", "name", NATURAL_KEY),
    Seed("POST", SHARE_LINKS, {"name": "Partners"}),
)

SHARE_LINK = Declaration(
    "share_link",
    "shareLinks",
    "share link",
    key="name",
    parents=("site",),
    part=True,
    exact=True,
    entry=ShareLinkEntry,
    routes=Routes(SHARE_LINKS, id_name="shareLinkId"),
    describe=(
        "The site's share links, keyed by name; when written, the exact list. Their URLs are "
        "secrets docsync never reads into a plan, a log or an export."
    ),
    writes=(Writes(found_by=FOUND_BY),),
    contract=CONTRACT,
)


class ShareLinkKind(ListPart, SitePart):
    declaration = SHARE_LINK
    part_payload = ShareLinks

    async def fetch(self, api: ApiClient, site: dict[str, Any], site_path: str) -> None:
        """Every share link of a site into `site["_shareLinks"]`, without their URLs (secrets
        the client masks from then on, wherever they are echoed)."""
        found = await send_under(api, self.route("list"), site_path)
        urls = [link.get("urls") for link in found]
        api.redact(str(u) for urls in urls if isinstance(urls, dict) for u in urls.values() if u)
        site["_shareLinks"] = [{k: link.get(k) for k in KEPT} for link in found]

    def plan(
        self, desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
    ) -> Action | None:
        """One update of the site's share links when the written list differs from the live one:
        links not written are deleted (the list is exact), a changed `active` is patched, a new
        name is created (and deactivated after, when written inactive)."""
        written = desired.written(self.section)
        if written is None:
            return None
        current = _live(live) or []
        base: Path = (*desired.path, "shareLinks")
        wanted = [
            DesiredResource(
                kind=SHARE_LINK.name,
                key=item.name,
                address=address(SHARE_LINK.name, item.name, desired.address),
                name=item.name,
                fields={"name": item.name, "active": item.active},
                path=(*base, index),
            )
            for index, item in enumerate(written)
        ]
        have = [
            LiveResource(
                kind=SHARE_LINK.name,
                id=str(link["id"]),
                key=_shape(link)["name"],
                address=address(SHARE_LINK.name, _shape(link)["name"], desired.address),
                name=_shape(link)["name"],
                fields=_shape(link),
            )
            for link in current
        ]
        changes = self.changes(wanted, have, ctx, desired.address)
        if not changes:
            return None
        creates = [{"name": d.key, "active": d.fields["active"]} for d in changes.created]
        updates = [{"id": link.id, "active": d.fields["active"]} for d, link in changes.changed]
        deletes = [link.id for link in changes.deleted]
        before = sorted((_shape(link) for link in current), key=lambda link: link["name"])
        after = sorted(
            ({"name": item.name, "active": item.active} for item in written),
            key=lambda link: link["name"],
        )
        action = Action(
            "update",
            desired.kind,
            f"{desired.address}.shareLinks",
            [FieldChange("shareLinks", before, after, sensitive=ctx.sensitive(base))],
            ctx.where(base),
            payload=ShareLinks(ref(desired.address), creates, updates, deletes),
        )
        _losses(
            action,
            changes.deleted,
            [link for d, link in changes.changed if d.fields["active"] is False],
        )
        return ctx.add(action)

    async def execute(self, action: Action, run: RunContext) -> None:
        """Deletes, then (de)activations, then creates, one request each (a link written inactive
        is created, then deactivated: the API creates links active). A create whose answer was
        lost is looked for by its name before it is sent again."""
        payload, site_path = action.payload, at_site(action, run)
        assert isinstance(payload, ShareLinks)
        under = partial(under_site, site_path=site_path)
        await self.write_items(run.api, payload.writes(), _named, under)

    def export(
        self, site: LiveResource, live: LiveState, names: ExportNames
    ) -> list[dict[str, Any]] | None:
        """The site's share links as a manifest writes them; a link without a name cannot be
        written (a manifest keys links by name) and is left out."""
        found = _live(site)
        if found is None:
            return None
        return [_shape(link) for link in found if link.get("name")]


def _losses(action: Action, deleted: list[LiveResource], deactivated: list[LiveResource]) -> None:
    """What the links' holders lose: an active link deleted or deactivated no longer opens the
    site (an audience change); an inactive one deleted opens nothing, and is gone all the same."""
    gone = [link.key for link in deleted if link.fields.get("active")]
    if gone:
        action.takes_away(
            f"deletes share link(s) {', '.join(gone)} (the list is exact): whoever holds their "
            "URLs loses access",
            readers=True,
        )
    if deactivated:
        names = ", ".join(link.key for link in deactivated)
        action.takes_away(
            f"deactivates share link(s) {names}: whoever holds their URLs loses access",
            readers=True,
        )
    idle = [link.key for link in deleted if not link.fields.get("active")]
    if idle:
        action.takes_away(f"deletes inactive share link(s) {', '.join(idle)} (the list is exact)")


def _named(body: dict[str, Any], found: dict[str, Any]) -> bool:
    """Whether a listed link is the one a lost create made: a link created here has a name no
    live link had."""
    return bool(found.get("name") == body["name"])

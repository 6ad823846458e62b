"""A site's redirects: read as one list per site, compared as a list keyed by `source`, and
written by one action per site through the bulk upsert, 500 items a request, a delete being an
item with `destination: null` (production's `intent: live`). Used by the site kind."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import field_validator, model_validator

from docsync.api.answers import FLAG, TEXT, Obj, Opt
from docsync.api.contract import LEFT_OUT, SAME_PATTERN, SHAPE, UNMANAGED, Note, Seed
from docsync.api.errors import ApiError
from docsync.core.checking import CheckView, Item
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.entries import PATTERN_MESSAGES, Model, Ref, Uri, explained
from docsync.core.model import Action, FieldChange, address
from docsync.core.nullability import NullChecked
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.kind import ExportNames
from docsync.kinds.nested.parts import OnSite, SitePart, at_site, send_under, under_site
from docsync.kinds.parts import ListPart
from docsync.kinds.presentation.redirect_destinations import (
    live_destination,
    live_places,
    redirect_problems,
    target,
    written_places,
)
from docsync.kinds.requests import Routes, Writes, send

if TYPE_CHECKING:
    from docsync.api import ApiClient

Path = tuple[str | int, ...]

#: production's SiteRedirectSourcePath without its look-aheads, which say the same thing: a
#: `*` only at the very end, never right after the first `/`
SOURCE_PATTERN = explained(
    r"^/(?:[A-Za-z0-9._~+-]|%[0-9A-Fa-f]{2})+(?:/(?:[A-Za-z0-9._~+-]|%[0-9A-Fa-f]{2})+)*(?:/\*|\*)?$",
    "must be a path like '/old-guides' or '/old-guides/*': segments of letters, digits, "
    "'-._~+' or %XX escapes, and at most one '*', at the end",
)
#: items of one bulk upsert (production's maximum)
BULK = 500


#: what the plan compares of a redirect as the API answers it
ANSWER = Obj(
    {
        "source": TEXT,
        "destination": Opt(Obj({"kind": Opt(TEXT)})),
        "permanent": Opt(FLAG),
        "captureWildcard": Opt(FLAG),
    }
)


class Destination(NullChecked, Model):
    """Where a redirect sends readers: `{url}`, `{section}`, `{siteSpace}` (a site space of the
    site's root, by path), `{section, siteSpace}`, or one of those two with `page` (a page id)."""

    url: Uri | None = None
    section: Ref | None = None
    """A section of the same site, by title."""
    siteSpace: Ref | None = None
    """A site space by path: in `section`, or at the site's root without it."""
    page: Ref | None = None
    """A page id in that site space."""

    @model_validator(mode="after")
    def _one_target(self) -> Destination:
        if self.url is not None and (self.section or self.siteSpace or self.page):
            raise ValueError("a destination is either a `url` or a place in the site, not both")
        if self.url is None and self.section is None and self.siteSpace is None:
            raise ValueError("a destination needs `url`, `section` or `siteSpace`")
        if self.page is not None and self.siteSpace is None:
            raise ValueError("`page` is a page of a site space: write `siteSpace` too")
        return self


class RedirectEntry(NullChecked, Model):
    """One redirect rule of a site, keyed by `source`; the whole rule is managed (`permanent`
    and `captureWildcard` are false unless written)."""

    # written by the site's bulk upsert (items, not fields of a request of their own)
    source: str = Api(create=False, update=False).limits(
        max_length=512, json_schema_extra={"pattern": SOURCE_PATTERN}
    )
    destination: Destination = Api(create=False, update=False).limits()
    permanent: bool = Api(create=False, update=False).limits(default=False)
    """Served as 308 (public live traffic) instead of 307."""
    captureWildcard: bool = Api(create=False, update=False).limits(default=False)
    """Appends what the `*` of the source matched to the destination."""

    @field_validator("source")
    @classmethod
    def _source_path(cls, value: str) -> str:
        if not re.match(SOURCE_PATTERN, value):
            raise ValueError(f"{value!r} {PATTERN_MESSAGES[SOURCE_PATTERN]}")
        return value


@dataclass
class Redirects(OnSite):
    """A site's redirects to write: bulk upsert items (ids as `$ref` placeholders) and the
    sources to delete."""

    upserts: list[dict[str, Any]] | None = None
    deletes: list[str] | None = None

    @property
    def requests(self) -> int:
        items = len(self.upserts or []) + len(self.deletes or [])
        return -(-items // BULK)


# -- reading ---------------------------------------------------------------------------------


def live_redirects(site: LiveResource, live: LiveState) -> list[dict[str, Any]] | None:
    """The site's redirects in manifest shape, by source; None when they were not read."""
    raw = site.raw.get("_redirects")
    if raw is None:
        return None
    items = [
        {
            "source": str(item["source"]),
            "destination": live_destination(item.get("destination") or {}, live),
            "permanent": bool(item.get("permanent")),
            "captureWildcard": bool(item.get("captureWildcard")),
        }
        for item in raw
    ]
    return sorted(items, key=lambda item: item["source"])


# -- planning --------------------------------------------------------------------------------


REDIRECTS = "/v1/orgs/{org}/sites/{site}/redirects"
DRAFT = (
    "a draft redirect is the app's staging of a rule for the site's next publish (production's "
    "`intent: draft`: a list of its own beside the live rules, published at once with `intent: "
    "publish`); a manifest's rules are live once applied, with nothing to stage"
)
CONTRACT = (
    Note(LEFT_OUT, f"POST {REDIRECTS}", "draft", DRAFT),
    Note(LEFT_OUT, f"PATCH {REDIRECTS}/{{id}}", "draft", DRAFT),
    Note(
        UNMANAGED,
        f"PUT {REDIRECTS}",
        "intent",
        "docsync upserts and deletes live redirects: production's default",
    ),
    Note(
        SAME_PATTERN,
        f"PUT {REDIRECTS}",
        "source",
        "production's look-aheads (no `*` right after the first `/`, nothing after a `*`) said "
        "by the pattern's own shape",
    ),
    Note(
        SHAPE,
        f"PUT {REDIRECTS}",
        "destination",
        "written by name (`{url}`, `{section}`, `{siteSpace}`, with `page`), checked offline "
        "against the site's sections and site spaces, and sent as production's destination of "
        "ids; `null` is how docsync deletes a redirect the manifest no longer lists",
    ),
    Seed(
        "POST",
        REDIRECTS,
        {"source": "/old", "destination": {"kind": "site-section", "siteSectionId": "{section}"}},
    ),
)

REDIRECT = Declaration(
    "redirect",
    "redirects",
    "redirect",
    key="source",
    parents=("site",),
    part=True,
    exact=True,
    entry=RedirectEntry,
    routes=Routes(
        REDIRECTS,
        item=REDIRECTS,  # the bulk upsert: its items are entries
        id_name="redirectId",
        update="PUT",
    ),
    describe=("The site's redirect rules, keyed by source; when written, the exact list."),
    writes=(Writes(),),  # one bulk upsert, idempotent: the client sends it again
    contract=CONTRACT,
    answer=ANSWER,
)


class RedirectKind(ListPart, SitePart):
    declaration = REDIRECT
    part_payload = Redirects

    reads_structure = True  # destinations name the site's sections and site spaces

    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        """Destinations naming a section or site space the site's written structure lacks."""
        if items:
            for path, message in redirect_problems(parent, items[0][0][:-2]):
                view.report(path, message)

    def requests(self, action: Action) -> int:
        assert isinstance(action.payload, Redirects)
        return action.payload.requests

    async def fetch(self, api: ApiClient, site: dict[str, Any], site_path: str) -> None:
        """Every live redirect of a site (pages of 1000) into `site["_redirects"]`."""
        site["_redirects"] = await send_under(api, self.route("list"), site_path)

    def plan(
        self, desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
    ) -> Action | None:
        """One update of the site's redirects when the written list differs from the live one: the
        changed and new ones upserted, the live ones not written deleted (the list is exact)."""
        written = desired.written(self.section)
        if written is None:
            return None
        manages_tree = any(
            getattr(desired.entry, name) is not None for name in ("sections", "siteSpaces")
        )
        if manages_tree or live is None:
            places = written_places(desired)
        else:
            places = live_places(live, ctx.live)
        before = (live_redirects(live, ctx.live) if live is not None else None) or []
        base: Path = (*desired.path, "redirects")
        wanted: list[DesiredResource] = []
        upserts: dict[str, dict[str, Any]] = {}
        for index, item in enumerate(written):
            wire = target(item.destination, places, (*base, index, "destination"), ctx)
            if wire is None:
                continue
            shape = {
                "source": item.source,
                "destination": item.destination.model_dump(exclude_none=True),
                "permanent": item.permanent,
                "captureWildcard": item.captureWildcard,
            }
            own = address(REDIRECT.name, item.source, desired.address)
            wanted.append(
                DesiredResource(REDIRECT.name, item.source, own, item.source, shape, (*base, index))
            )
            upserts[item.source] = shape | {"destination": wire}
        have = [
            LiveResource(
                REDIRECT.name,
                item["source"],  # a site has one rule a source: the source is its identity
                item["source"],
                address(REDIRECT.name, item["source"], desired.address),
                item["source"],
                item,
            )
            for item in before
        ]
        changes = self.changes(wanted, have, ctx, desired.address)
        if not changes:
            return None
        written_anew = {d.key for d in changes.created} | {d.key for d, _ in changes.changed}
        deletes = sorted(gone.key for gone in changes.deleted)
        after = sorted((d.fields for d in wanted), key=lambda item: item["source"])
        action = Action(
            "update",
            desired.kind,
            f"{desired.address}.redirects",
            [FieldChange("redirects", before, after, sensitive=ctx.sensitive(base))],
            ctx.where(base),
            payload=Redirects(
                ref(desired.address),
                [upserts[d.key] for d in wanted if d.key in written_anew],
                deletes,
            ),
        )
        if deletes:
            action.takes_away(
                f"deletes {len(deletes)} redirect(s) the manifest does not list (the list is "
                f"exact): {', '.join(deletes)}; visitors following them reach nothing"
            )
        return ctx.add(action)

    async def execute(self, action: Action, run: RunContext) -> None:
        """Upserts and deletes through the bulk upsert, 500 items a request; an item the API
        refuses fails the action with its message (the others of its request are applied)."""
        payload, site_path = action.payload, at_site(action, run)
        assert isinstance(payload, Redirects)
        items: list[dict[str, Any]] = list(run.resolve(payload.upserts or []))
        items += [{"source": source, "destination": None} for source in payload.deletes or []]
        upsert = under_site(self.route("update"), site_path)
        for start in range(0, len(items), BULK):
            answer = await send(run.api, upsert, {"redirects": items[start : start + BULK]})
            results = answer.get("results", []) if isinstance(answer, dict) else []
            refused = [r for r in results if isinstance(r, dict) and r.get("status") == "error"]
            if refused:
                shown = "; ".join(f"{r.get('source')}: {r.get('error')}" for r in refused[:5])
                more = f" (and {len(refused) - 5} more)" if len(refused) > 5 else ""
                raise ApiError(upsert.method, upsert.path, 200, f"redirects refused: {shown}{more}")

    def export(
        self, site: LiveResource, live: LiveState, names: ExportNames
    ) -> list[dict[str, Any]] | None:
        """The site's redirects as a manifest writes them (defaults left out). A redirect whose
        section or site space is gone cannot be written by name and is left out."""
        items = live_redirects(site, live)
        if items is None:
            return None
        out = []
        for item in items:
            if "kind" in item["destination"]:
                continue
            entry = {"source": item["source"], "destination": item["destination"]}
            entry |= {flag: True for flag in ("permanent", "captureWildcard") if item[flag]}
            out.append(entry)
        return out

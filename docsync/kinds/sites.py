"""Sites, keyed by title: their own fields, publishing, adaptive schema, their parts, and
(through the driver of `site_tree`) the kinds nested under them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field as Limits

from docsync.api.answers import FLAG, ID, TEXT, Obj, Opt
from docsync.core.checking import CheckView, Item
from docsync.core.context import PlanContext, RunContext
from docsync.core.entries import DefaultLevel, Entry
from docsync.core.kind import Declaration, Field, Routes
from docsync.core.model import Action, Picture
from docsync.core.nullability import NULL
from docsync.core.payloads import OnSite
from docsync.core.reconcile import Reconciliation
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.base import ExportNames, Path
from docsync.kinds.granted import GrantedKind
from docsync.kinds.grants import SitePermissions
from docsync.kinds.listing import Place
from docsync.kinds.lost import BY_KEY, Writes
from docsync.kinds.nested_apply import reorder
from docsync.kinds.site_agent_settings import AgentSettings
from docsync.kinds.site_checks import check_sites
from docsync.kinds.site_customization import SiteCustomization
from docsync.kinds.site_fields import (
    PROXY_PATTERN,
    AdaptiveContent,
    SiteType,
    Visibility,
    dump_all,
    proxy_of,
)
from docsync.kinds.site_mcp_servers import McpServerEntry
from docsync.kinds.site_part import part_writing, site_parts
from docsync.kinds.site_picture import site_structures
from docsync.kinds.site_planning import plan_site
from docsync.kinds.site_publishing_auth import PublishingAuthEntry
from docsync.kinds.site_reading import part_answers, read_site_parts
from docsync.kinds.site_redirects import RedirectEntry
from docsync.kinds.site_shape import export_tree, read_live_tree
from docsync.kinds.site_share_links import ShareLinkEntry
from docsync.kinds.site_space_customization import export_space_customization
from docsync.kinds.site_state import LiveTree

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.core.loaded import ManifestDoc


class SiteEntry(Entry):
    """A docs site, keyed by title."""

    title: str | None = Limits(default=None, min_length=2, max_length=128)
    type: SiteType | None = None
    """Used when the site is created only."""
    visibility: Visibility | None = None
    published: bool | None = None
    basename: str | None = Limits(default=None, min_length=1, max_length=100)
    proxy: Annotated[str | None, NULL] = Limits(default=None, max_length=512, pattern=PROXY_PATTERN)
    """A scheme-less origin with a path, e.g. ``acme.example/docs``; null removes it."""
    agentsContext: Literal["excluded", "included"] | None = None
    defaultLevel: Annotated[DefaultLevel | None, NULL] = None
    """The role everyone in the organization has on the site; `inherit`: the organization's
    default; null: none (guests)."""
    adaptiveContent: AdaptiveContent | None = None
    adaptiveSchema: dict[str, Any] | None = None
    """The visitor claims' JSON Schema (draft-07) of PUT .../adaptive-schema."""
    permissions: SitePermissions | None = None
    """Direct grants to teams and members; when written, exact per principal type; a role of
    null is a guest override (no access to the site)."""
    redirects: list[RedirectEntry] | None = None
    """The site's redirect rules, keyed by source; when written, the exact list."""
    shareLinks: list[ShareLinkEntry] | None = None
    """The site's share links, keyed by name; when written, the exact list. Their URLs are
    secrets docsync never reads into a plan, a log or an export."""
    publishingAuth: PublishingAuthEntry | None = None
    """How visitors of a visitor-auth site sign in; only the fields written are managed."""
    customization: SiteCustomization | None = None
    """The site's look (production's customization settings); only the fields written are
    managed, nested ones included."""
    agentSettings: AgentSettings | None = None
    """The site's docs agent (production's agent settings); only the fields written are
    managed, nested ones included."""
    mcpServers: list[McpServerEntry] | None = None
    """The MCP servers the site's assistant may call, keyed by name; when written, the exact
    list. Their header values are secrets docsync never shows or exports."""


SITE = Declaration(
    "site",
    "sites",
    "site",
    key="title",
    fields=(
        Field("title"),
        Field("visibility"),
        Field("type", update=False),
        Field("basename", create=False),
        Field("proxy", create=False, live=proxy_of, normalize=lambda v: proxy_of({"proxy": v})),
        Field("agentsContext", create=False),
        Field("defaultLevel", create=False, quiet=("inherit",)),
        Field("adaptiveContent", create=False, normalize=dump_all),
        Field("adaptiveSchema", create=False, update=False, live=lambda r: r.get("_schema")),
    ),
    needs=("space",),
    export_file="sites.yaml",
    entry=SiteEntry,
    order=80,
    routes=Routes("/v1/orgs/{org}/sites", id_name="siteId"),
)


#: Visibilities that take a site away from some of its readers.
NARROW = ("share-link", "visitor-auth")


class SiteKind(GrantedKind):
    declaration = SITE
    writes = (Writes(found_by=BY_KEY),)  # its parts are kinds of their own (`site_part`)
    answer = Obj(
        {
            "id": ID,
            "title": TEXT,
            "visibility": Opt(TEXT),
            "type": Opt(TEXT),
            "published": Opt(FLAG),
            "basename": Opt(TEXT),
            "defaultLevel": Opt(TEXT),
        }
    )
    answers = part_answers(SITE.routes.item_path if SITE.routes else "")

    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        super().check_list(view, items, parent)
        check_sites(view, items)

    def pictures(self, ctx: PlanContext, actions: Sequence[Action]) -> list[Picture]:
        return site_structures(ctx, list(actions))

    def requests(self, action: Action) -> int:
        """A reorder is a move per item out of place (and a structure read where the API
        places new items); a part's action, what the part counts."""
        part = part_writing(action.payload)
        if part is not None:
            return part.requests(action)
        if action.verb == "reorder":
            checked = 1 if any("checks the order" in note for note in action.notes) else 0
            return len(action.changes) + checked
        return super().requests(action)

    # -- reading -------------------------------------------------------------------------------
    async def fetch(self, api: ApiClient, org_id: str, manifest: ManifestDoc | None) -> Any:
        """The list, then per managed site only what its entry writes (`site_reading`)."""
        sites = await api.list_all(self.list_path.format(org=org_id), items=self.answer)
        grants = self.read_grants(api, org_id, manifest, sites)
        await read_site_parts(api, self.list_path.format(org=org_id), sites, manifest, grants)
        return sites

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        sites = super().to_live(raw, live)
        children: list[LiveResource] = []
        for site in sites:
            if site.raw.get("_structure") is not None:
                tree, parts = read_live_tree(site, live)
                site.raw["_tree"] = tree
                children += parts
        return sites + children

    # -- planning ------------------------------------------------------------------------------
    def desired_value(self, f: Field, value: Any, path: Path, ctx: PlanContext) -> Any:
        if f.name == "adaptiveSchema" and value is None:
            # The API reads and replaces a site's adaptive schema (GET, PUT) but cannot remove
            # it: a null would be planned on every run and never applied.
            ctx.problem(
                (*path, f.name),
                "a site's adaptive schema cannot be removed through the API: write the schema "
                "you want, or leave `adaptiveSchema` out to leave it as it is",
            )
        return super().desired_value(f, value, path, ctx)

    def equal(self, f: Field, before: Any, after: Any) -> bool:
        if f.name == "adaptiveSchema" and before is not None and after is not None:
            from deepdiff import DeepDiff  # only when an adaptive schema is compared

            return not DeepDiff(before, after, ignore_order=True)
        return bool(before == after)

    def plan_update(self, desired: DesiredResource, live: LiveResource, at: Place) -> Action | None:
        ctx = at.ctx
        changes = self.changes(desired, live, ctx)
        if any(c.field == "type" for c in changes):
            return self._replace(desired, live, ctx)
        action = super().plan_update(desired, live, at)
        if action is not None:
            visibility = next((c for c in changes if c.field == "visibility"), None)
            if visibility is not None and visibility.after in NARROW:
                action.notes.append(
                    f"AUDIENCE CHANGE: visibility {visibility.after} narrows who can read the site"
                )
                action.audience_change = True
        return action

    def _replace(
        self, desired: DesiredResource, live: LiveResource, ctx: PlanContext
    ) -> Action | None:
        return self.plan_replace(
            desired,
            live,
            ctx,
            protected="changes `type`, which forces a replace, but is protected",
            note="`type` is set only when a site is created: the site is replaced",
        )

    def plan(self, ctx: PlanContext) -> Reconciliation | None:
        result = super().plan(ctx)
        for desired, live in result.entries if result else []:
            if desired.absent:
                continue
            replaced = any(a.verb == "replace" for a in ctx.actions_at[desired.address])
            plan_site(desired, None if replaced else live, ctx)
        return result

    # -- exporting -----------------------------------------------------------------------------
    def export_entry(
        self, resource: LiveResource, live: LiveState, names: ExportNames
    ) -> dict[str, Any]:
        entry = super().export_entry(resource, live, names)
        entry["published"] = bool(resource.raw.get("published"))
        tree = resource.raw.get("_tree")
        if isinstance(tree, LiveTree):
            entry |= export_tree(tree, names, lambda item: _overrides(item, resource))
        parts = {part.section: part.export_part(resource, live, names) for part in site_parts()}
        entry |= {name: value for name, value in parts.items() if value}
        return entry

    # -- applying ------------------------------------------------------------------------------
    def body(self, fields: dict[str, Any], *, creating: bool) -> dict[str, Any]:
        return {
            k: v
            for k, v in super().body(fields, creating=creating).items()
            if k != "adaptiveSchema"
        }

    async def after_create(self, new_id: str, fields: dict[str, Any], run: RunContext) -> None:
        await super().after_create(new_id, fields, run)
        await self._put_schema(new_id, fields, run)

    async def update(self, live_id: str, fields: dict[str, Any], run: RunContext) -> None:
        await super().update(live_id, fields, run)
        await self._put_schema(live_id, fields, run)

    async def _put_schema(self, site_id: str, fields: dict[str, Any], run: RunContext) -> None:
        if fields.get("adaptiveSchema") is not None:
            path = f"{self.item_path(run, site_id)}/adaptive-schema"
            await run.api.write("PUT", path, {"jsonSchema": fields["adaptiveSchema"]})

    async def execute(self, action: Action, run: RunContext) -> None:
        part = part_writing(action.payload)
        if part is not None:
            assert isinstance(action.payload, OnSite)
            site_id = run.resolve(action.payload.site)
            await part.write(action.payload, self.item_path(run, site_id), run)
        elif action.verb == "reorder":
            await reorder(action, run)
        elif action.verb in ("publish", "unpublish"):
            assert isinstance(action.payload, OnSite)
            site_id = run.resolve(action.payload.site)
            path = f"{self.item_path(run, site_id)}/{action.verb}"
            await run.api.write("POST", path, idempotent=True)
        else:
            await super().execute(action, run)


def _overrides(item: LiveResource, site: LiveResource) -> dict[str, Any]:
    """A site space's customization override, exported with it (when it has one)."""
    found = export_space_customization(item, site) if item.kind == "site_space" else None
    return {"customization": found} if found else {}

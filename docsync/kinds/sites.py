"""Sites, keyed by title: their own fields, publishing, adaptive schema, their parts, and
(through the driver of `site_tree`) the kinds nested under them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field as Limits

from docsync.api.answers import FLAG, ID, TEXT, Obj, Opt
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.entries import Entry, Model, explained
from docsync.core.kind import Declaration, Field
from docsync.core.model import Action, FieldChange, Verb
from docsync.core.nullability import NULL
from docsync.core.payloads import OnSite, Reorder
from docsync.core.reconcile import Reconciliation
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.base import ExportNames, Path
from docsync.kinds.granted import GrantedKind
from docsync.kinds.grants import SitePermissions
from docsync.kinds.lost import BY_KEY, Writes
from docsync.kinds.nested_apply import reorder
from docsync.kinds.site_customization import (
    Customization,
    export_customization,
    plan_customization,
    write_customization,
)
from docsync.kinds.site_publishing_auth import (
    PublishingAuth,
    PublishingAuthEntry,
    export_publishing_auth,
    plan_publishing_auth,
    write_publishing_auth,
)
from docsync.kinds.site_reading import manages_tree, part_answers, read_site_parts
from docsync.kinds.site_redirects import (
    RedirectEntry,
    Redirects,
    export_redirects,
    plan_redirects,
    write_redirects,
)
from docsync.kinds.site_shape import LiveTree, export_tree, read_live_tree
from docsync.kinds.site_share_links import FOUND_BY as SHARE_LINKS_FOUND_BY
from docsync.kinds.site_share_links import (
    ShareLinkEntry,
    ShareLinks,
    export_share_links,
    plan_share_links,
    write_share_links,
)
from docsync.kinds.site_space_customization import (
    SpaceCustomization,
    export_space_customization,
    plan_space_customization,
    write_space_customization,
)
from docsync.kinds.site_tree import SiteTree

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.core.loaded import ManifestDoc


def _dump_all(value: Any) -> Any:
    return value.model_dump() if hasattr(value, "model_dump") else value


def _proxy(raw: dict[str, Any]) -> Any:
    """Written as `host/path`, read back as `{origin, target}`: compare the origin's host/path."""
    proxy = raw.get("proxy")
    origin = proxy.get("origin") if isinstance(proxy, dict) else proxy
    if not origin:
        return None
    text = str(origin).split("://", 1)[-1].rstrip("/")
    host, _, rest = text.partition("/")
    return f"{host.lower()}/{rest}" if rest else host.lower()


Visibility = Literal["public", "unlisted", "share-link", "visitor-auth"]
SiteType = Literal["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"]
PROXY_PATTERN = explained(
    r"^([A-Za-z0-9_-]+[.])*[A-Za-z0-9_-]+[.][a-zA-Z]{2,}(/[A-Za-z0-9_-]+)+$",
    "must be a host and path without a scheme, like 'acme.example/docs'",
)


class AdaptiveContent(Model):
    enabled: bool


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
    customization: dict[str, Any] | None = None
    """The site's look (production's customization settings); only the fields written are
    managed, nested ones included."""


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
        Field("proxy", create=False, live=_proxy, normalize=lambda v: _proxy({"proxy": v})),
        Field("agentsContext", create=False),
        Field("adaptiveContent", create=False, normalize=_dump_all),
        Field("adaptiveSchema", create=False, update=False, live=lambda r: r.get("_schema")),
    ),
    needs=("space",),
    export_file="sites.yaml",
    entry=SiteEntry,
    order=80,
)


#: Visibilities that take a site away from some of its readers.
NARROW = ("share-link", "visitor-auth")


class SiteKind(GrantedKind):
    declaration = SITE
    writes = (
        Writes(found_by=BY_KEY),
        Writes("redirects"),  # one bulk upsert, idempotent
        Writes("shareLinks", found_by=SHARE_LINKS_FOUND_BY),
        Writes("publishingAuth"),
        Writes("customization"),
    )
    list_path = "/v1/orgs/{org}/sites"
    resource_path = "/v1/orgs/{org}/sites/{id}"
    answer = Obj(
        {
            "id": ID,
            "title": TEXT,
            "visibility": Opt(TEXT),
            "type": Opt(TEXT),
            "published": Opt(FLAG),
            "basename": Opt(TEXT),
        }
    )
    answers = part_answers(resource_path)

    # -- reading -------------------------------------------------------------------------------
    async def fetch(self, api: ApiClient, org_id: str, manifest: ManifestDoc | None) -> Any:
        """The list, then per managed site only what the manifest writes (`site_reading`)."""
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

    def plan_update(
        self, desired: DesiredResource, live: LiveResource, ctx: PlanContext
    ) -> Action | None:
        changes = self.changes(desired, live, ctx)
        if any(c.field == "type" for c in changes):
            return self._replace(desired, live, ctx)
        action = super().plan_update(desired, live, ctx)
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
            if replaced:
                live = None
            tree = live.raw.get("_tree") if live is not None else None
            site_tree = SiteTree(ctx, desired, live, tree or LiveTree())
            if manages_tree(desired.entry):
                site_tree.plan()
            self._plan_reorder(desired, site_tree, ctx)
            # The site's parts, one action each, published once they are written.
            for plan_part in _PART_PLANNERS:
                part = plan_part(desired, live, ctx)
                if part is not None:
                    site_tree.actions.append(part)
            for space in site_tree.desired_of("site_space") or []:
                space_live = site_tree.matches.get(space.address)
                override = plan_space_customization(desired, live, space, space_live, ctx)
                if override is not None:
                    site_tree.actions.append(override)
            self._plan_publish(desired, live, ctx, site_tree)
        return result

    def _plan_reorder(
        self, desired: DesiredResource, site_tree: SiteTree, ctx: PlanContext
    ) -> None:
        if not site_tree.reorders:
            return
        action = Action(
            "reorder",
            self.name,
            desired.address,
            site_tree.moved_lines,
            ctx.where(desired.path),
            payload=Reorder(ref(desired.address), site_tree.reorders),
            depends_on=[a.key for a in site_tree.actions],
        )
        if site_tree.placed_by_api:
            action.notes.append(
                "checks the order once the new or regrouped items are in (the API decides where "
                "they go) and moves only what is out of place"
            )
        ctx.add(action)

    def _plan_publish(
        self,
        desired: DesiredResource,
        live: LiveResource | None,
        ctx: PlanContext,
        site_tree: SiteTree,
    ) -> None:
        if "published" not in desired.entry.model_fields_set or desired.entry.published is None:
            return
        wanted = bool(desired.entry.published)
        now = bool(live.raw.get("published")) if live is not None else False
        if wanted == now:
            return
        verb: Verb = "publish" if wanted else "unpublish"
        # The site's own actions and its tree's: published once all of them are done.
        mine = [a.key for a in ctx.actions_at[desired.address]]
        mine += [a.key for a in site_tree.actions]
        action = Action(
            verb,
            self.name,
            desired.address,
            [FieldChange("published", now, wanted)],
            ctx.where((*desired.path, "published")),
            live_id=live.id if live else None,
            payload=OnSite(ref(desired.address)),
            depends_on=mine,
        )
        if not wanted:
            action.notes.append("AUDIENCE CHANGE: readers lose access to the site")
            action.audience_change = True
        ctx.add(action)

    # -- exporting -----------------------------------------------------------------------------
    def export_entry(
        self, resource: LiveResource, live: LiveState, names: ExportNames
    ) -> dict[str, Any]:
        entry = super().export_entry(resource, live, names)
        entry["published"] = bool(resource.raw.get("published"))
        tree = resource.raw.get("_tree")
        if isinstance(tree, LiveTree):
            entry |= export_tree(tree, names, lambda item: _overrides(item, resource))
        parts = {
            "redirects": export_redirects(resource, live),
            "shareLinks": export_share_links(resource),
            "publishingAuth": export_publishing_auth(resource),
            "customization": export_customization(resource),
        }
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
        writer = _PART_WRITERS.get(type(action.payload))
        if writer is not None:
            assert isinstance(action.payload, OnSite)
            site_id = run.resolve(action.payload.site)
            await writer(action.payload, self.item_path(run, site_id), run)
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


#: The planners of a site's parts (one action per site, None when nothing changes).
_PART_PLANNERS: tuple[
    Callable[[DesiredResource, LiveResource | None, PlanContext], Action | None], ...
] = (plan_redirects, plan_share_links, plan_publishing_auth, plan_customization)

#: The writers of a site's parts, by the payload of their one action per site (or site space).
_PART_WRITERS: dict[type[Any], Callable[[Any, str, RunContext], Awaitable[None]]] = {
    Redirects: write_redirects,
    ShareLinks: write_share_links,
    PublishingAuth: write_publishing_auth,
    SpaceCustomization: write_space_customization,
    Customization: write_customization,
}

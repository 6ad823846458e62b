"""Sites, keyed by title: their own fields, publishing, adaptive schema, their parts, their Git
Sync installation (`sync.synced`), and (through the driver of `sites.driver`) the kinds nested
under them, unless the site's repository owns its structure (`sites.owned`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from docsync.api.answers import FLAG, TEXT, Opt
from docsync.api.contract import (
    EXTRA,
    INTERNAL,
    LEAVES,
    LEVEL_DEFAULT,
    ORDER,
    OWN_CHECK,
    SAME_PATTERN,
    STRUCTURE,
    Note,
    Said,
    Seed,
)
from docsync.core.checking import CheckView, Item
from docsync.core.context import PlanContext, RunContext
from docsync.core.entries import DefaultLevel, Entry, Model, Ref, explained
from docsync.core.model import Action, Picture
from docsync.core.nullability import NULL
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.access.grant_holders import GRANT_ROUTES
from docsync.kinds.access.grants import SitePermissions
from docsync.kinds.crud import CrudKind
from docsync.kinds.declaration import Api, Declaration, Field
from docsync.kinds.kind import ExportNames, Path
from docsync.kinds.lists import Place, Steps
from docsync.kinds.nested.parts import SITES, OnSite
from docsync.kinds.nested.state import LiveTree
from docsync.kinds.parts import export_held, plan_held, read_held
from docsync.kinds.requests import BY_KEY, Reading, Route, Routes, Writes
from docsync.kinds.sites.checks import check_sites
from docsync.kinds.sites.gitbook_docs import gitbook_docs
from docsync.kinds.sites.owned import after_uninstall, check_owned, refuse_owned
from docsync.kinds.sites.parts import child_parts, part_writing, site_parts
from docsync.kinds.sites.picture import site_structures
from docsync.kinds.sites.planning import plan_site
from docsync.kinds.sites.reading import SCHEMA, read_site_parts, site_answers
from docsync.kinds.sites.reorder import reorder
from docsync.kinds.sites.structure import export_tree, read_live_tree
from docsync.kinds.sites.wrapper import note_renamed_wrapper, rename_wrapper, wrapper_requests
from docsync.kinds.sync.synced import installation_held, live_owns_structure, owns_structure


# A site's own fields as a manifest writes them and as they compare: their types, the proxy's
# pattern and how a live proxy reads back.
def proxy_of(raw: dict[str, Any]) -> Any:
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


def _styleguide(raw: dict[str, Any]) -> Any:
    """The id of the site's style guide space, which production answers as a content
    reference (`{kind: space, space}`)."""
    found = raw.get("styleguide")
    return found.get("space") if isinstance(found, dict) else None


class AdaptiveContent(Model):
    enabled: bool


def _proxy(value: Any) -> Any:
    return proxy_of({"proxy": value})


def _schema(raw: dict[str, Any]) -> Any:
    return raw.get("_schema")


class SiteEntry(Entry):
    """A docs site, keyed by title."""

    title: str | None = Api(answer=TEXT).limits(default=None, min_length=2, max_length=128)
    type: SiteType | None = Api(update=False, replace=True, answer=Opt(TEXT)).limits(default=None)
    """Used when the site is created only."""
    visibility: Visibility | None = Api(answer=Opt(TEXT)).limits(default=None)
    published: bool | None = None
    basename: str | None = Api(create=False, answer=Opt(TEXT)).limits(
        default=None, min_length=1, max_length=100
    )
    proxy: Annotated[str | None, NULL] = Api(create=False, live=proxy_of, normalize=_proxy).limits(
        default=None, max_length=512, pattern=PROXY_PATTERN
    )
    """A scheme-less origin with a path, e.g. ``acme.example/docs``; null removes it."""
    agentsContext: Literal["excluded", "included"] | None = Api(create=False).limits(default=None)
    defaultLevel: Annotated[DefaultLevel | None, NULL] = Api(
        create=False, api_default=("inherit",), answer=Opt(TEXT)
    ).limits(default=None)
    """The role everyone in the organization has on the site; `inherit`: the organization's
    default; null: none (guests)."""
    adaptiveContent: AdaptiveContent | None = Api(create=False).limits(default=None)
    styleguide: Annotated[Ref | None, NULL] = Api(
        ref="space", ref_live=True, create=False, live=_styleguide
    ).limits(default=None)
    """The style guide space (by title or id) the site's editing agent checks its edits
    against: a space holding a writing style guide, made in the app; null detaches it."""
    adaptiveSchema: dict[str, Any] | None = Api(
        create=False,
        update=False,
        live=_schema,
        unordered=True,  # a claim's `enum`, the `required` list: sets to the API
        wire="jsonSchema",
        route=("PUT", f"{SITES}/{{id}}/adaptive-schema"),
    ).limits(default=None)
    """The visitor claims' JSON Schema (draft-07) of PUT .../adaptive-schema."""
    permissions: SitePermissions | None = None
    """Direct grants to teams and members; when written, exact per principal type; a role of
    null is a guest override (no access to the site)."""


SITE_PATH = f"{SITES}/{{site}}"
PATCH, SORT = f"PATCH {SITE_PATH}", f"PATCH {SITE_PATH}/structure/sort"
CONTRACT: tuple[Said, ...] = (
    Note(STRUCTURE, SORT, "item", ORDER),
    Note(STRUCTURE, SORT, "position", ORDER),
    Note(STRUCTURE, PATCH, "defaultSiteSpace", LEVEL_DEFAULT + " (a site space of its root)"),
    Note(STRUCTURE, PATCH, "defaultSiteSection", LEVEL_DEFAULT + " (a section)"),
    Note(STRUCTURE, f"POST {SITES}", "spaces", "its `siteSpaces` and `sections`, made one by one"),
    Note(
        SAME_PATTERN,
        PATCH,
        "proxy",
        "production's `\\w` spelled out as ASCII (Python's `\\w` takes any letter)",
    ),
    Note(EXTRA, PATCH, "agentsContext", "a field of the API description that production lacks"),
    Note(
        OWN_CHECK,
        f"PUT {SITE_PATH}/adaptive-schema",
        "",
        "a site's adaptive schema is a JSON Schema checked offline by production's rules of "
        "SiteAdaptiveJSONSchema (docsync/kinds/sites/adaptive_schema.py), which "
        "tests/contract/test_adaptive.py holds to production's schema",
    ),
    *(
        Note(
            LEAVES, f"{method} /v1/custom-hostnames/{{name}}", "", f"{INTERNAL} (custom hostnames)"
        )
        for method in ("PATCH", "DELETE")
    ),
    Note(
        LEAVES,
        f"POST {SITE_PATH}/ads",
        "",
        "a site's request to join GitBook's ads program: GitBook reviews it and sets the state, "
        "so what a manifest writes (`in-review`) is never what is read back",
    ),
    Seed("POST", SITES, {"title": "Developer Docs"}, "site"),
    Seed("PATCH", SITE_PATH, {"basename": "docs", "visibility": "public"}),
    Seed("POST", f"{SITE_PATH}/publish"),
)

SITE = Declaration(
    "site",
    "sites",
    "site",
    key="title",
    renames=True,
    order=(
        "title",
        "visibility",
        "type",
        "basename",
        "proxy",
        "agentsContext",
        "defaultLevel",
        "adaptiveContent",
        "styleguide",
        "adaptiveSchema",
    ),
    needs=("space",),
    export_file="sites.yaml",
    entry=SiteEntry,
    routes=Routes(
        SITES,
        id_name="siteId",
        read=True,  # its adaptive schema read back once its PUT's every answer was lost
        more={
            **GRANT_ROUTES,
            # published or not: each POST sent again changes nothing more
            "publish": Route("POST", "{item}/publish", retry_safe=True),
            "unpublish": Route("POST", "{item}/unpublish", retry_safe=True),
            # what its sections, groups, site spaces and links are, and their order: one read
            # (its answer's shape is made of the kinds nested in a site: `site_answers`; its
            # children read it too, to find a create whose answer was lost), and one sort a
            # move
            "structure": Route("GET", "{item}/structure"),
            "sort": Route("PATCH", "{item}/structure/sort"),
            "adaptive schema": Route("GET", "{item}/adaptive-schema", answer=SCHEMA),
        },
    ),
    writes=(Writes(found_by=BY_KEY),),  # its parts are kinds of their own (`sites.parts`)
    contract=CONTRACT,
    roles=("read", "create or admin; admin to delete a site"),
    answer_more={"published": Opt(FLAG)},
)


#: Visibilities that take a site away from some of its readers.
NARROW = ("share-link", "visitor-auth")


class SiteKind(CrudKind):
    declaration = SITE

    def __init__(self) -> None:
        super().__init__()
        # the structure's shape is made of the kinds nested under a site (`self.kinds`)
        self.answers = {**type(self).answers, **site_answers(self)}
        self.formats = (gitbook_docs(self),)

    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        super().check_list(view, items, parent)
        check_sites(view, items)
        check_owned(view, items, self.kinds)

    def pictures(self, ctx: PlanContext, actions: Sequence[Action]) -> list[Picture]:
        return site_structures(ctx, list(actions), self.kinds)

    def requests(self, action: Action) -> int:
        """A reorder is a move per item out of place (and a structure read where the API
        places new items); a part's action, what the part counts."""
        part = part_writing(self.kinds, action.payload)
        if part is not None:
            return part.requests(action)
        if action.verb == "reorder":
            checked = 1 if any("checks the order" in note for note in action.notes) else 0
            return len(action.changes) + checked
        return super().requests(action) + wrapper_requests(action)

    # -- reading -------------------------------------------------------------------------------
    async def fetch(self, read: Reading) -> Any:
        """The list, then per managed site only what its entry writes (`reading`)."""
        sites = await self.listed(read.api, read.org_id)

        # what any site holds (`HeldPart`: its grants, its Git Sync installation) with its parts
        held = read_held(self, read, sites)
        await read_site_parts(read, self.route("list").at(org=read.org_id), sites, held, self)
        return sites

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        """The sites, and the children of each whose structure was read."""
        sites = self.live_resources(raw, live)
        children: list[LiveResource] = []
        for site in sites:
            if site.raw.get("_structure") is not None:
                tree, parts = read_live_tree(site, live, self.kinds)
                site.raw["_tree"] = tree
                children += parts
        return sites + children

    # -- planning ------------------------------------------------------------------------------
    def to_desired(self, ctx: PlanContext) -> list[DesiredResource]:
        return self.desired_resources(ctx, value=self._value)

    def _value(self, f: Field, value: Any, path: Path, ctx: PlanContext) -> Any:
        if f.name == "adaptiveSchema" and value is None:
            # The API reads and replaces a site's adaptive schema (GET, PUT) but cannot remove
            # it: a null would be planned on every run and never applied.
            ctx.problem(
                (*path, f.name),
                "a site's adaptive schema cannot be removed through the API: write the schema "
                "you want, or leave `adaptiveSchema` out to leave it as it is",
            )
        return self.desired_value(f, value, path, ctx)

    def plan(self, ctx: PlanContext) -> None:
        """The sites (a narrower visibility flagged for review), their grants and Git Sync
        installations, then everything under each: its structure (refused where its repository
        owns it), its parts, its publishing (`planning.plan_site`)."""
        result = self.plan_entries(ctx, Steps(self.plan_create, self._updated, self._deleted))
        plan_held(self, ctx, result)
        for desired, live in result.entries if result else []:
            if desired.absent:
                continue
            replaced = any(a.verb == "replace" for a in ctx.actions_at[desired.address])
            if owns_structure(desired, None if replaced else live):
                refuse_owned(desired, ctx, self.kinds)
            plan_site(desired, None if replaced else live, ctx, self.kinds)
            after_uninstall(desired, ctx, self.kinds)

    def _updated(self, desired: DesiredResource, live: LiveResource, at: Place) -> Action | None:
        action = self.plan_update(desired, live, at)
        if action is not None and action.verb == "update":
            visibility = next((c for c in action.changes if c.field == "visibility"), None)
            if visibility is not None and visibility.after in NARROW:
                action.notes.append(
                    f"AUDIENCE CHANGE: visibility {visibility.after} narrows who can read the site"
                )
                action.audience_change = True
            proxy = next((c for c in action.changes if c.field == "proxy"), None)
            if proxy is not None and proxy.before and not proxy.after:
                gone = f"removes its proxy: readers at {proxy.before} no longer reach it"
                action.takes_away(gone)
            note_renamed_wrapper(action, live)
        return action

    def _deleted(
        self, live: LiveResource, desired: DesiredResource | None, at: Place
    ) -> Action | None:
        """A delete naming what goes with the site: its children and the parts read (a site
        the manifest deletes is read whole); its readers lose it when it is published."""
        action = self.plan_delete(live, desired, at)
        if action is None:
            return None
        tree = live.raw.get("_tree")
        children: dict[str, list[str]] = {}
        for child in tree.items() if isinstance(tree, LiveTree) else []:
            children.setdefault(self.kinds.named(child.kind).declaration.plural, []).append(
                child.key
            )
        held = [
            f"{noun} {', '.join(json.dumps(k, ensure_ascii=False) for k in keys)}"
            for noun, keys in children.items()
        ]
        held += [found for part in site_parts(self.kinds) if (found := part.held(live))]
        held += [synced] if (synced := installation_held(live)) else []
        if held:
            action.takes_away(f"goes with it: {'; '.join(held)}")
        if live.raw.get("published"):
            action.takes_away("its readers lose the published site", readers=True)
        return action

    # -- exporting -----------------------------------------------------------------------------
    def export(self, live: LiveState, names: ExportNames) -> Any:
        return self.export_entries(live, names, lambda r: self._exported(r, live, names))

    def _exported(self, resource: LiveResource, live: LiveState, names: ExportNames) -> Any:
        """Its fields, grants and Git Sync installation, whether it is published, its structure
        with each child's parts (not where its repository owns it), and its own parts."""
        entry = export_held(self, resource, live, names, self.export_entry(resource, names))
        entry["published"] = bool(resource.raw.get("published"))
        tree = resource.raw.get("_tree")
        if isinstance(tree, LiveTree) and not live_owns_structure(resource):
            entry |= export_tree(
                tree, names, self.kinds, lambda item: self._parts_of(item, resource)
            )
        parts = {
            part.section: part.export(resource, live, names) for part in site_parts(self.kinds)
        }
        entry |= {name: value for name, value in parts.items() if value}
        return entry

    def _parts_of(self, item: LiveResource, site: LiveResource) -> dict[str, Any]:
        """The parts of a child of the site, exported with it (a site space's override)."""
        found = {
            part.section: part.export(item, site)
            for part in child_parts(self.kinds)
            if item.kind in part.declaration.parents
        }
        return {section: value for section, value in found.items() if value}

    # -- applying ------------------------------------------------------------------------------
    async def execute(self, action: Action, run: RunContext) -> None:
        part = part_writing(self.kinds, action.payload)
        if part is not None:
            await part.execute(action, run)
        elif action.verb == "reorder":
            await reorder(action, run, self)
        elif action.verb in ("publish", "unpublish"):
            assert isinstance(action.payload, OnSite)
            site_id = run.resolve(action.payload.site)
            await self.send(run.api, action.verb, org=run.org_id, id=site_id)
        else:
            await super().execute(action, run)
            await rename_wrapper(action, run, self)

"""Site spaces: a space published on a site, keyed by path within its section (or within the
site, when it has no sections); matched by its space when no path matches, its level's default
set through its parent, its level's order kept with the fewest moves."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field as Limits

from docsync.api.answers import ID, TEXT, Either, Obj, Opt
from docsync.core.checking import CheckView, Item, is_absent, text
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.entries import Condition, Entry, Ref
from docsync.core.model import Action
from docsync.core.nullability import NULL
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.declaration import Declaration, Field, Routes
from docsync.kinds.kind import ExportNames, Path
from docsync.kinds.lost_answers import IN_STRUCTURE, Writes
from docsync.kinds.sites import child_requests as site_found
from docsync.kinds.sites.children import NestedKind, read_flag
from docsync.kinds.sites.payloads import ChildChange, DefaultVia, child
from docsync.kinds.sites.state import Parent, Planned

if TYPE_CHECKING:
    from docsync.kinds.sites.state import LiveTree, SiteState


class SiteSpaceEntry(Entry):
    """A space published on a site, keyed by path within its section (or site)."""

    space: Ref | None = None
    """A space by title (of the manifest or live) or id."""
    path: str | None = Limits(default=None, min_length=1, max_length=100)
    condition: Annotated[Condition | None, NULL] = None
    default: bool | None = None


SITE_SPACE = Declaration(
    "site_space",
    "siteSpaces",
    "site space",
    key="path",
    parents=("section", "site"),
    exact=True,
    paths_unique=True,
    key_note="; else the one publishing the same `space` in that level (its path is changed, "
    "not deleted and made anew)",
    fields=(
        Field("space", ref="space", wire="spaceId", ref_live=True),
        Field("path", create=False),
        Field("condition", create=False),
        Field("default", create=False, update=False, live=read_flag),
    ),
    entry=SiteSpaceEntry,
    routes=Routes("/v1/orgs/{org}/sites/{site}/site-spaces", id_name="siteSpaceId"),
    writes=(Writes(found_by=IN_STRUCTURE),),
    answer=Obj({"id": ID, "path": TEXT, "space": Opt(Either((Obj({"id": ID}), ID)))}),
)


class SiteSpaceKind(NestedKind):
    declaration = SITE_SPACE
    pointer_type = "site-space"
    default_field = "defaultSiteSpace"
    layout = "siteSpaces"
    leads = True

    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        for path, entry in items:
            if not is_absent(entry) and text(entry, "id") is None and "space" not in entry:
                view.report(
                    path, "a site space needs 'space': the space (title or id) it publishes"
                )

    # -- planning ----------------------------------------------------------------------------
    def desired_key(self, entry: Any) -> str:
        return str(entry.path or (str(entry.space) if entry.space else entry.id))

    def desired_fields(self, entry: Any, path: Path, tree: SiteState) -> dict[str, Any]:
        fields = super().desired_fields(entry, path, tree)
        if entry.space is not None:
            fields["space"] = tree.ctx.resolve("space", str(entry.space), (*path, "space"))
        return fields

    def read_item(self, item: dict[str, Any], parent: str, live: LiveState) -> LiveResource:
        """Its space as an address (a live space the manifest may not list: by its id)."""
        resource = super().read_item(item, parent, live)
        space = item.get("space") or {}
        space_id = space.get("id") if isinstance(space, dict) else space
        resource.fields["space"] = live.address_of("space", space_id) or f"space#{space_id}"
        resource.refs = {resource.fields["space"]}
        return resource

    def fallback(
        self, desired: DesiredResource, free: Collection[LiveResource]
    ) -> LiveResource | None:
        """A site space no path matches is the one publishing its space in that level, if
        any: written without `path`, or left at the path the API chose (a create whose path
        change never came, as after a crash): its path is changed, never deleted and made anew."""
        return next((r for r in free if r.fields["space"] == desired.fields.get("space")), None)

    def default_via(self, parent: Parent) -> DefaultVia | None:
        """A section's default site space is set on the section, a root one on the site."""
        if parent.kind == "site":
            return DefaultVia("site")
        return DefaultVia(parent.kind, ref(parent.address))

    def change(self, parent: Parent) -> ChildChange:
        within = ref(parent.address) if parent.kind != "site" else None
        return ChildChange(section=within, default_via=self.default_via(parent))

    def level_planned(self, planned: Planned, tree: SiteState) -> None:
        """Its level's order: new site spaces are appended by the API, in manifest order."""
        parent, result = planned.parent, planned.result
        present = [w.address for w in planned.wanted if not w.absent]
        tree.plan_order(
            None if parent.kind == "site" else parent.address,
            dict.fromkeys(present, self.name),
            tree.current(self.live_children(parent, tree), result.matched, present),
            present,
            placed_by_api=any(w not in result.matched for w in present),
            known_when_new=True,
        )

    def picture(self, key: str, fields: dict[str, Any]) -> str:
        return f"/{fields.get('path')} -> {fields.get('space')}"

    def picture_fields(self, entry: Any, ctx: PlanContext) -> dict[str, Any]:
        """Its space by address: of the manifest, else live (by id, else by title)."""
        ref_text = str(entry.space or entry.id)
        hits = ctx.desired.named.get(("space", ref_text), ())
        by_id = ctx.live.by_id.get(("space", ref_text))
        named = ctx.live.named.get(("space", ref_text), [])
        if hits:
            space = sorted(hits)[0]
        elif by_id is not None:
            space = by_id.address
        else:
            space = named[0].address if named else f"space {ref_text!r}"
        return {"path": entry.path or entry.space, "space": space}

    # -- export ------------------------------------------------------------------------------
    def export_item(self, item: LiveResource, tree: LiveTree, names: ExportNames) -> dict[str, Any]:
        entry: dict[str, Any] = {"space": names.name(item.fields["space"]), "path": item.key}
        if item.fields.get("condition") is not None:
            entry["condition"] = item.fields["condition"]
        if item.fields.get("default"):
            entry["default"] = True
        return entry

    # -- applying ----------------------------------------------------------------------------

    async def create(
        self, action: Action, run: RunContext, base: str, fields: dict[str, Any]
    ) -> None:
        payload = child(action)
        if payload.made_by_section:
            # Its section's create made it: only what that request could not carry is left.
            own_id, created = run.id_of(action.address), run.answers.get(action.address)
        else:
            body = {"spaceId": fields["space"]}
            if payload.section:
                body["sectionId"] = run.resolve(payload.section)
            created = await self.post_once(action, run, base, body, site_found.new_site_space)
            own_id = str(created["id"])
            run.ids[action.address] = own_id
        await self.finish_create(action, run, f"{base}/{own_id}", fields, created)

"""A site's sections, keyed by title within their site: made with their first site space,
their site's default set through the site, and the site's root order (the groups and links
among them, `kinds.site_root`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field as Limits

from docsync.core.context import RunContext, ref
from docsync.core.entries import Condition, Entry, Icon
from docsync.core.model import Action
from docsync.core.nullability import NULL
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.declaration import Declaration, Field, Routes
from docsync.kinds.kind import ExportNames
from docsync.kinds.lost_answers import IN_STRUCTURE, Writes
from docsync.kinds.sites import child_requests as site_found
from docsync.kinds.sites.children import NestedKind, quoted, read_flag
from docsync.kinds.sites.payloads import DefaultVia, child
from docsync.kinds.sites.root_order import plan_root_order
from docsync.kinds.sites.state import Parent

if TYPE_CHECKING:
    from docsync.kinds.sites.state import LiveTree, SiteState


class SectionEntry(Entry):
    """A site section, keyed by title within its site."""

    title: str | None = Limits(default=None, min_length=2, max_length=128)
    path: str | None = Limits(default=None, min_length=1, max_length=100)
    icon: Annotated[Icon | None, NULL] = None
    description: Annotated[str | None, NULL] = Limits(default=None, max_length=256)
    condition: Annotated[Condition | None, NULL] = None
    default: bool | None = None


SECTION = Declaration(
    "section",
    "sections",
    "section",
    key="title",
    parents=("site",),
    exact=True,
    paths_unique=True,
    fields=(
        Field("title"),
        Field("icon"),
        Field("path", create=False),
        Field("description", create=False),
        Field("condition", create=False),
        Field("default", create=False, update=False, live=read_flag),
    ),
    entry=SectionEntry,
    routes=Routes("/v1/orgs/{org}/sites/{site}/sections", id_name="siteSectionId"),
    writes=(Writes(found_by=IN_STRUCTURE),),
)


class SectionKind(NestedKind):
    declaration = SECTION
    pointer_type = "site-section"
    default_field = "defaultSiteSection"
    layout = "sections"
    leads = True

    # -- planning ----------------------------------------------------------------------------
    def default_via(self, parent: Parent) -> DefaultVia | None:
        return DefaultVia("site")

    def admits(
        self, item: Parent, kind: NestedKind, wanted: list[DesiredResource] | None, tree: SiteState
    ) -> bool:
        """The API creates a section from its first space: a new one needs its site spaces."""
        if wanted is None:
            if item.live is None:
                tree.ctx.problem(
                    item.desired.path,
                    f"a new section needs `{kind.section}`: the API creates a section from its "
                    "first space",
                )
            return False
        if item.live is None and all(w.absent for w in wanted):
            where = (*item.desired.path, kind.section)
            tree.ctx.problem(where, f"a new section needs at least one {kind.declaration.noun}")
            return False
        return True

    def children_planned(
        self, item: Parent, kind: NestedKind, wanted: list[DesiredResource], tree: SiteState
    ) -> None:
        """The section's create request makes its first site space: that space's create only
        sets what the request could not carry."""
        if item.live is not None:
            return
        first = next(w for w in wanted if not w.absent)
        create = next(a for a in tree.ctx.actions_at[item.address] if a.verb == "create")
        child(create).first_space = ref(first.fields.get("space"))
        child(create).first_site_space = first.address
        own = next((a for a in tree.ctx.actions_at[first.address] if a.verb == "create"), None)
        if own is not None:
            child(own).made_by_section = True
            own.notes.append("made by its section's create request")

    def finish(self, tree: SiteState) -> None:
        plan_root_order(tree)

    def picture(self, key: str, fields: dict[str, Any]) -> str:
        where = f"  /{fields['path']}" if fields.get("path") else ""
        return f"section {quoted(key)}{where}"

    # -- export ------------------------------------------------------------------------------
    def export_order(self, tree: LiveTree, container: str) -> list[LiveResource]:
        """In the site's order: a grouped section where its group stands."""
        by_id = {s.id: s for s in tree.of(self.name, container)}
        ordered: list[LiveResource] = []
        for item_id in tree.root_order:
            if item_id in by_id:
                ordered.append(by_id[item_id])
            ordered += [by_id[i] for i in tree.holds.get(item_id, []) if i in by_id]
        return ordered

    def export_item(self, item: LiveResource, tree: LiveTree, names: ExportNames) -> dict[str, Any]:
        entry: dict[str, Any] = {"title": item.key}
        for name in ("path", "icon", "description", "condition"):
            if item.fields.get(name) is not None:
                entry[name] = item.fields[name]
        if item.fields.get("default"):
            entry["default"] = True
        return entry

    # -- applying ----------------------------------------------------------------------------

    async def create(
        self, action: Action, run: RunContext, base: str, fields: dict[str, Any]
    ) -> None:
        """One request makes the section and its first site space."""
        payload = child(action)
        body = {"spaceId": run.resolve(payload.first_space)}
        body |= {k: fields[k] for k in ("title", "icon") if k in fields}
        created = await self.post_once(action, run, base, body, site_found.new_section)
        run.ids[action.address] = str(created["id"])
        first = created.get("siteSpaces") or []
        if first and isinstance(first[0], dict) and payload.first_site_space:
            run.ids[payload.first_site_space] = str(first[0]["id"])
            if isinstance(first[0], dict):
                run.answers[payload.first_site_space] = first[0]
        item = f"{base}/{created['id']}"
        await self.finish_create(action, run, item, fields, created)

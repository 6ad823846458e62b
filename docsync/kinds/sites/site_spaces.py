"""Site spaces: a space published on a site, keyed by path within its section (or within the
site, when it has no sections); matched by its space when no path matches, its level's default
set through its parent, its level's order kept with the fewest moves."""

from __future__ import annotations

from typing import Annotated, Any

from docsync.api.answers import ID, TEXT, Either, Obj, Opt
from docsync.api.contract import (
    CONDITION,
    MIN_LENGTH,
    NOT_CONFIGURATION,
    STRUCTURE,
    TEMPLATE,
    Explained,
    Note,
    Seed,
    moved,
)
from docsync.core.checking import CheckView, Item, is_absent, text
from docsync.core.context import RunContext, ref
from docsync.core.entries import Condition, Entry, Ref
from docsync.core.model import Action
from docsync.core.nullability import NULL
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.declaration import Api, Declaration, Structure
from docsync.kinds.kind import ExportNames, Path
from docsync.kinds.nested.applied import ON_SECTION, SITE_DEFAULT, child_routes
from docsync.kinds.nested.kind import NestedKind, flags_and_texts, read_flag
from docsync.kinds.nested.payloads import child
from docsync.kinds.nested.state import Extra, LiveTree, Parent, Planned, SiteState
from docsync.kinds.requests import IN_STRUCTURE, Writes
from docsync.kinds.sites.found import new_site_space


class SiteSpaceEntry(Entry):
    """A space published on a site, keyed by path within its section (or site)."""

    space: Ref | None = Api(
        ref="space", wire="spaceId", ref_live=True, answer=Opt(Either((Obj({"id": ID}), ID)))
    ).limits(default=None)
    """A space by title (of the manifest or live) or id."""
    path: str | None = Api(create=False, answer=TEXT).limits(
        default=None, min_length=1, max_length=100
    )
    condition: Annotated[Condition | None, NULL] = Api(create=False).limits(default=None)
    default: bool | None = Api(create=False, update=False, live=read_flag).limits(default=None)
    # production's PATCH takes no title (`check_title`)
    title: str | None = Api(update=False).limits(default=None, min_length=2, max_length=128)
    """Its own title on this site (a language's name, where each language is a site space), set
    when it is made: production's API cannot change it later (the app can). Absent: its
    space's title."""
    # absent: shown
    hidden: bool | None = Api(create=False, normalize=bool).limits(default=None)
    """Left out of the site's navigation (still published at its path)."""
    # absent: live
    draft: bool | None = Api(normalize=bool).limits(default=None)
    """A draft is not live: readers see it once it is `false`."""
    pageId: Annotated[str | None, NULL] = Api().limits(default=None)
    """The page of its space shown at its path instead of the space's first page; null: the
    first page."""


SITE_SPACES = "/v1/orgs/{org}/sites/{site}/site-spaces"
CREATE, MOVE = f"POST {SITE_SPACES}", f"POST {SITE_SPACES}/{{id}}/move"
CONTRACT = (
    *moved(MOVE, "a site space's place: its level's sort"),
    Note(STRUCTURE, CREATE, "sectionId", "the section whose `siteSpaces` list it"),
    Note(NOT_CONFIGURATION, CREATE, "template", TEMPLATE),
    Note(MIN_LENGTH, f"PATCH {SITE_SPACES}/{{id}}", "condition", CONDITION),
    Explained(
        (CREATE,),
        r"pageId: cannot be given",
        "addSpaceToSite's pageId: 'Providing it when `spaceId` is `null` returns a 400 error'",
    ),
    Explained(
        (CREATE,),
        r"provisions an OpenAPI",
        "addSpaceToSite's template: 'Templates that provision organization-level resources, "
        "such as OpenAPI specifications, are not supported by this site-scoped operation'",
    ),
    Seed("POST", SITE_SPACES, {"spaceId": "{reference}", "sectionId": "{section}"}),
)

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
    entry=SiteSpaceEntry,
    routes=child_routes(
        "site-spaces",
        "siteSpaceId",
        {"site default": SITE_DEFAULT, "section default": ON_SECTION},
    ),
    writes=(Writes(found_by=IN_STRUCTURE),),
    contract=CONTRACT,
    chained=True,
    # a site space no path matches is the one publishing its space in that level, if any:
    # written without `path`, or left at the path the API chose (a create whose path change
    # never came, as after a crash): its path is changed, never deleted and made anew
    matched_by="space",
    structure=Structure(
        "site-space", layout="siteSpaces", leads=True, default_field="defaultSiteSpace"
    ),
)


class SiteSpaceKind(NestedKind):
    declaration = SITE_SPACE
    line = ("/{path} -> {space}",)

    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        for path, entry in items:
            if not is_absent(entry) and text(entry, "id") is None and "space" not in entry:
                view.report(
                    path, "a site space needs 'space': the space (title or id) it publishes"
                )

    # -- planning ----------------------------------------------------------------------------
    def to_desired(self, parent: Parent, tree: SiteState) -> list[DesiredResource] | None:
        """Its space as the address of the space it publishes."""

        def fields(entry: Any, path: Path) -> dict[str, Any]:
            found = self.written_fields(entry)
            if entry.space is not None:
                found["space"] = tree.ctx.resolve("space", str(entry.space), (*path, "space"))
            return found

        return self.children_of(parent, tree, fields)

    def to_live(self, item: dict[str, Any], parent: str, live: LiveState) -> LiveResource:
        """Its space as an address (a live space the manifest may not list: by its id)."""
        resource = super().to_live(item, parent, live)
        space = item.get("space") or {}
        space_id = space.get("id") if isinstance(space, dict) else space
        resource.fields["space"] = live.address_of("space", space_id) or f"space#{space_id}"
        resource.refs = {resource.fields["space"]}
        return resource

    def plan(self, planned: Planned | None, tree: SiteState) -> None:
        """Its level's order: new site spaces are appended by the API, in manifest order; the
        first of a new section is made by the section's create request, whose own create only
        sets what that request could not carry."""
        if planned is None:
            return
        parent, result = planned.parent, planned.result
        present = [w.address for w in planned.wanted if not w.absent]
        tree.plan_order(
            None if parent.kind == "site" else parent.address,
            dict.fromkeys(present, self.name),
            tree.current(self.fetch(parent, tree), result.matched, present),
            present,
            placed_by_api=any(w not in result.matched for w in present),
            known_when_new=True,
        )
        _check_titles(planned, tree)
        _page_kept(planned)
        if parent.kind == "site" or parent.live is not None or not present:
            return
        first = next(w for w in planned.wanted if not w.absent)
        made = next((a for a in tree.ctx.actions_at[parent.address] if a.verb == "create"), None)
        if made is None:
            return
        child(made).first_space = ref(first.fields.get("space"))
        child(made).first_site_space = first.address
        child(made).first_page = first.fields.get("pageId")
        if "title" in first.fields:
            tree.ctx.problem(
                (*first.path, "title"),
                "the first site space of a new section is made by the section's create, which "
                "takes no title for it (and production's API cannot set one later): leave "
                "`title` out here, or list first a site space without one",
            )
        own = next((a for a in tree.ctx.actions_at[first.address] if a.verb == "create"), None)
        if own is not None:
            child(own).made_by_section = True
            own.notes.append("made by its section's create request")

    # -- export ------------------------------------------------------------------------------
    def export(
        self, tree: LiveTree, container: str, names: ExportNames, extra: Extra
    ) -> list[dict[str, Any]]:
        def entry(item: LiveResource) -> dict[str, Any]:
            out: dict[str, Any] = {"space": names.name(item.fields["space"]), "path": item.key}
            for name in ("condition", "pageId"):
                if item.fields.get(name) is not None:
                    out[name] = item.fields[name]
            space = item.raw.get("space")
            own = space.get("title") if isinstance(space, dict) else None
            if item.fields.get("title") not in (None, own):
                out["title"] = item.fields["title"]  # its own, not its space's
            return out | flags_and_texts(item, "default", "hidden", "draft")

        return self.export_items(tree, container, names, extra, entry)

    # -- applying ----------------------------------------------------------------------------
    async def execute(self, action: Action, run: RunContext) -> None:
        if action.verb != "create":
            await super().execute(action, run)
            return
        fields = self.resolved(action, run)
        payload = child(action)
        if payload.made_by_section:
            # Its section's create made it: only what that request could not carry is left.
            own_id, created = run.id_of(action.address), run.answers.get(action.address)
        else:
            body = self.create_body(fields)
            if payload.section:
                body["sectionId"] = run.resolve(payload.section)
            created = await self.post_once(action, run, body, new_site_space)
            own_id = str(created["id"])
            run.ids[action.address] = own_id
        await self.finish_create(action, run, own_id, fields, created)


def _check_titles(planned: Planned, tree: SiteState) -> None:
    """A site space's title is set when it is made: production's PATCH takes none, so a written
    title another than the live one's is a located problem, not an update that never lands."""
    for wanted in planned.wanted:
        live = planned.result.matched.get(wanted.address)
        if live is None or wanted.absent or "title" not in wanted.fields:
            continue
        if wanted.fields["title"] != live.fields.get("title"):
            tree.ctx.problem(
                (*wanted.path, "title"),
                f"this site space's title is {live.fields.get('title')!r}, and production's "
                "API cannot change a site space's title once it is made (its PATCH takes none): "
                "change it in the app, or write the title it has",
            )


def _page_kept(planned: Planned) -> None:
    """Production's PATCH drops a site space's home page when its space changes (`pageId` not
    sent with it): a written one goes with the new space, even where it does not change."""
    by_address = {w.address: w for w in planned.wanted}
    for action in planned.actions:
        if action.verb != "update" or "space" not in child(action).fields:
            continue
        page = by_address[action.address].fields.get("pageId")
        if page is not None and "pageId" not in child(action).fields:
            child(action).fields["pageId"] = page
            action.notes.append("its pageId is sent again: a new space drops the home page")

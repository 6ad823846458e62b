"""A site's sections, keyed by title within their site: made with their first site space,
their site's default set through the site, and the site's root order (the groups and links
among them, `sites.root_order`)."""

from __future__ import annotations

from typing import Annotated, Any

from docsync.api.contract import (
    AS_NULL,
    CONDITION,
    LANGUAGE_NULL,
    LEVEL_DEFAULT,
    MIN_LENGTH,
    NOT_CONFIGURATION,
    STRUCTURE,
    TEMPLATE,
    Explained,
    Note,
    Said,
    Seed,
    icons,
    moved,
)
from docsync.core.context import RunContext
from docsync.core.entries import Condition, Entry, Icon, LocalizedText128, LocalizedText256
from docsync.core.model import Action
from docsync.core.nullability import NULL
from docsync.core.state import LiveResource
from docsync.kinds.declaration import Api, Declaration, Structure
from docsync.kinds.kind import ExportNames
from docsync.kinds.nested.applied import SITE_DEFAULT, child_routes
from docsync.kinds.nested.kind import (
    NestedKind,
    flags_and_texts,
    nested_kinds,
    read_flag,
)
from docsync.kinds.nested.payloads import child
from docsync.kinds.nested.state import Extra, LiveTree, Parent, Planned, SiteState
from docsync.kinds.requests import IN_STRUCTURE, ORGANIZATION, Lose, Lost, LostAnswers, Writes
from docsync.kinds.sites.found import new_section
from docsync.kinds.sites.root_order import plan_root_order


class SectionEntry(Entry):
    """A site section, keyed by title within its site."""

    title: str | None = Api().limits(default=None, min_length=2, max_length=128)
    path: str | None = Api(create=False).limits(default=None, min_length=1, max_length=100)
    icon: Annotated[Icon | None, NULL] = Api().limits(default=None)
    description: Annotated[str | None, NULL] = Api(create=False).limits(
        default=None, max_length=256
    )
    condition: Annotated[Condition | None, NULL] = Api(create=False).limits(default=None)
    default: bool | None = Api(create=False, update=False, live=read_flag).limits(default=None)
    # production's create takes neither: written by the PATCH that follows it
    localizedTitle: LocalizedText128 | None = Api(create=False, keyed=True).limits(default=None)
    """The title in languages other than the site's default, by language (`{de: Anleitungen}`):
    only the languages written are managed; a language written null loses its title."""
    localizedDescription: LocalizedText256 | None = Api(create=False, keyed=True).limits(
        default=None
    )
    """The description in languages other than the site's default, as `localizedTitle`."""
    # absent: live
    draft: bool | None = Api(normalize=bool).limits(default=None)
    """A draft is not live: readers see it once it is `false`."""


SECTIONS = "/v1/orgs/{org}/sites/{site}/sections"
CREATE, PATCH, MOVE = f"POST {SECTIONS}", f"PATCH {SECTIONS}/{{id}}", f"POST {SECTIONS}/{{id}}/move"
GROUPED = "the group that lists the section in its `sections`"
CONTRACT: tuple[Said, ...] = (
    *moved(MOVE, "a section's place: its site's sort and its group's `sections`"),
    Note(STRUCTURE, PATCH, "defaultSiteSpace", LEVEL_DEFAULT + " (a site space of the section)"),
    Note(
        STRUCTURE, CREATE, "spaceId", "the section's first site space's `space`, made by its create"
    ),
    Note(
        STRUCTURE, CREATE, "pageId", "the section's first site space's `pageId`, made by its create"
    ),
    Note(STRUCTURE, CREATE, "siteSectionGroupId", GROUPED),
    Note(STRUCTURE, PATCH, "siteSectionGroupId", GROUPED),
    Note(NOT_CONFIGURATION, CREATE, "template", TEMPLATE),
    *icons(CREATE, PATCH),
    Note(MIN_LENGTH, PATCH, "condition", CONDITION),
    Note(AS_NULL, PATCH, "localizedTitle.*", LANGUAGE_NULL),
    Note(AS_NULL, PATCH, "localizedDescription.*", LANGUAGE_NULL),
    Explained(
        (CREATE,),
        r"pageId: cannot be given",
        "addSectionToSite's pageId: 'Providing it when `spaceId` is `null` returns a 400 error'",
    ),
    Explained(
        (CREATE,),
        r"provisions an OpenAPI",
        "addSectionToSite's template: 'Templates that provision organization-level resources, "
        "such as OpenAPI specifications, are not supported by this site-scoped operation'",
    ),
    Seed("POST", SECTIONS, {"spaceId": "{guides}", "title": "Guides"}, "section"),
    Seed("POST", SECTIONS, {"spaceId": "{reference}", "title": "API"}),
)
#: a site and its structure made, answers lost; then a site space goes, a section joins the
#: group, a site space's path changes
STRUCTURED = (
    ORGANIZATION
    + """\
teams: [{title: Platform}]
spaces: [{title: Guides}, {title: Runbooks}, {title: API Reference}]
sites:
  - title: Docs
    sections:
      - title: Guides
        siteSpaces: [{space: Guides, path: latest}%s]
      - title: API
        siteSpaces: [{space: API Reference, path: %s}]
    sectionGroups:
      - {title: Learn, sections: [%s]}
  - title: Handbook
    siteSpaces: [{space: Internal Handbook, path: handbook}]
"""
)
LOST = LostAnswers(
    "a site's structure",
    ORGANIZATION,
    (
        Lost(
            STRUCTURED % (", {space: Runbooks, path: ops}", "reference", "Guides"),
            (
                Lose("PUT", "/teams$"),
                Lose("POST", "/spaces$"),
                Lose("POST", "/sites$"),
                Lose("POST", "/sites/[^/]+/sections$"),
                Lose("POST", "/site-spaces$", 2),
                Lose("POST", "/section-groups$"),
                Lose("PATCH", "/site-spaces/[^/]+$"),
            ),
        ),
        Lost(
            STRUCTURED % ("", "api-reference", "Guides, API"),
            (
                Lose("DELETE", "/site-spaces/[^/]+$"),
                Lose("PATCH", "/site-spaces/[^/]+$"),
                Lose("PATCH", "/sections/[^/]+$"),  # into its group: siteSectionGroupId
            ),
        ),
    ),
    covers=("site", "site_space", "section_group"),
)

SECTION = Declaration(
    "section",
    "sections",
    "section",
    key="title",
    renames=True,
    parents=("site",),
    exact=True,
    paths_unique=True,
    order=(
        "title",
        "icon",
        "path",
        "description",
        "condition",
        "default",
        "localizedTitle",
        "localizedDescription",
        "draft",
    ),
    entry=SectionEntry,
    routes=child_routes("sections", "siteSectionId", {"site default": SITE_DEFAULT}),
    writes=(Writes(found_by=IN_STRUCTURE),),
    lost_answers=(LOST,),
    contract=CONTRACT,
    chained=True,
    structure=Structure(
        "site-section", layout="sections", leads=True, default_field="defaultSiteSection"
    ),
)


class SectionKind(NestedKind):
    declaration = SECTION
    line = ("section {key}", "  /{path}")

    def plan(self, planned: Planned | None, tree: SiteState) -> None:
        """The API creates a section from its first space: a new one needs its site spaces
        (its create makes the first of them, `SiteSpaceKind.plan`); once every list is
        planned, the order of the site's root."""
        if planned is None:
            plan_root_order(tree)
            return
        for item, found in planned.result.entries:
            if item.absent or found is not None:
                continue
            below = Parent(self.name, item, None)
            for inner in nested_kinds(self.kinds, self.name):
                written = inner.written_list(below)
                if written is None:
                    tree.ctx.problem(
                        item.path,
                        f"a new section needs `{inner.section}`: the API creates a section "
                        "from its first space",
                    )
                elif all(entry.state == "absent" for entry in written):
                    where = (*item.path, inner.section)
                    noun = inner.declaration.noun
                    tree.ctx.problem(where, f"a new section needs at least one {noun}")

    # -- export ------------------------------------------------------------------------------
    def export(
        self, tree: LiveTree, container: str, names: ExportNames, extra: Extra
    ) -> list[dict[str, Any]]:
        """In the site's order: a grouped section where its group stands."""
        by_id = {s.id: s for s in tree.of(self.name, container)}
        ordered: list[LiveResource] = []
        for item_id in tree.root_order:
            if item_id in by_id:
                ordered.append(by_id[item_id])
            ordered += [by_id[i] for i in tree.holds.get(item_id, []) if i in by_id]
        return self.export_items(tree, container, names, extra, _exported, ordered)

    # -- applying ----------------------------------------------------------------------------
    async def execute(self, action: Action, run: RunContext) -> None:
        """One request makes the section and its first site space."""
        if action.verb != "create":
            await super().execute(action, run)
            return
        fields = self.resolved(action, run)
        payload = child(action)
        body = {"spaceId": run.resolve(payload.first_space)}
        body |= self.create_body(fields)
        if payload.first_page is not None:
            body["pageId"] = payload.first_page
        created = await self.post_once(action, run, body, new_section)
        run.ids[action.address] = str(created["id"])
        first = created.get("siteSpaces") or []
        if first and isinstance(first[0], dict) and payload.first_site_space:
            run.ids[payload.first_site_space] = str(first[0]["id"])
            if isinstance(first[0], dict):
                run.answers[payload.first_site_space] = first[0]
        await self.finish_create(action, run, str(created["id"]), fields, created)


def _exported(item: LiveResource) -> dict[str, Any]:
    entry: dict[str, Any] = {"title": item.key}
    for name in ("path", "icon", "description", "condition"):
        if item.fields.get(name) is not None:
            entry[name] = item.fields[name]
    return entry | flags_and_texts(item, "default", "draft")

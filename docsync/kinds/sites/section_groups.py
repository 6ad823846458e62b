"""Section groups: sections of one site gathered under a title, keyed by title. Which sections
a group holds is written by PATCHes of those sections (production has no membership
endpoints); where the groups stand is the site's root order (`sites.root_order`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

from docsync.api.contract import (
    AS_NULL,
    LANGUAGE_NULL,
    NOT_MANAGED,
    Explained,
    Note,
    Said,
    Seed,
    icons,
    moved,
)
from docsync.core.checking import CheckView, Item, is_absent, raw_entries, text
from docsync.core.context import RunContext, ref
from docsync.core.entries import Entry, Icon, LocalizedText128, Ref
from docsync.core.model import Action
from docsync.core.nullability import NULL
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.declaration import Api, Declaration, Structure
from docsync.kinds.kind import ExportNames, Path
from docsync.kinds.nested.applied import ON_SECTION, child_routes
from docsync.kinds.nested.kind import NestedKind, flags_and_texts
from docsync.kinds.nested.payloads import GroupMembership, child
from docsync.kinds.nested.state import Extra, LiveTree, Parent, Planned, SiteState
from docsync.kinds.requests import IN_STRUCTURE, Writes
from docsync.kinds.sites.external_links import EXTERNAL_LINK, with_links
from docsync.kinds.sites.found import new_group


class SectionGroupEntry(Entry):
    """A group of sections of the same site, keyed by title."""

    title: str | None = Api().limits(default=None, min_length=1, max_length=100)
    icon: Annotated[Icon | None, NULL] = Api().limits(default=None)
    # Which sections a group holds; their order is the site's order (a reorder's business).
    sections: list[Ref] | None = Api(
        ref="section", update=False, ref_sibling=True, unordered=True
    ).limits(default=None)
    """Titles (or ids) of sections of the same site."""
    # production's create takes none
    localizedTitle: LocalizedText128 | None = Api(create=False, keyed=True).limits(default=None)
    """The title in languages other than the site's default, by language (`{de: Produkte}`):
    only the languages written are managed; a language written null loses its title."""
    # absent: live
    draft: bool | None = Api(normalize=bool).limits(default=None)
    """A draft is not live: readers see it once it is `false`."""


GROUPS = "/v1/orgs/{org}/sites/{site}/section-groups"
CREATE, PATCH, MOVE = f"POST {GROUPS}", f"PATCH {GROUPS}/{{id}}", f"POST {GROUPS}/{{id}}/move"
NESTED = (
    "groups in groups (production's `parent`, `parentSectionGroupId`): a manifest's group "
    "stands at the site's root; nesting needs a group's place among another's sections"
)
CONTRACT: tuple[Said, ...] = (
    *moved(MOVE, "a group's place: its site's sort"),
    Note(NOT_MANAGED, CREATE, "parent", NESTED),
    Note(NOT_MANAGED, PATCH, "parentSectionGroupId", NESTED),
    *icons(CREATE, PATCH),
    Note(AS_NULL, PATCH, "localizedTitle.*", LANGUAGE_NULL),
    Explained(
        (CREATE,),
        "at its root level",
        "SiteStructure is sections (sections, groups, links) or siteSpaces (oneOf): a group has "
        "no place in a site whose root holds site spaces (a section enables sections: "
        "addSectionToSite)",
    ),
    Explained(
        (PATCH,),
        r"a group cannot be nested in itself",
        "SiteSectionGroup.children is a tree of sections, groups and links: a group moved into "
        "itself or one of its own groups has no place in it",
    ),
    Seed("POST", GROUPS, {"title": "Learn", "sections": ["{section}"]}, "group"),
)

SECTION_GROUP = Declaration(
    "section_group",
    "sectionGroups",
    "section group",
    key="title",
    renames=True,
    parents=("site",),
    exact=True,
    entry=SectionGroupEntry,
    routes=child_routes("section-groups", "siteSectionGroupId", {"group a section": ON_SECTION}),
    writes=(Writes(found_by=IN_STRUCTURE),),
    contract=CONTRACT,
    chained=True,
    structure=Structure("site-section-group", layout="sections"),
)


class SectionGroupKind(NestedKind):
    declaration = SECTION_GROUP
    line = ("group {key}",)

    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        """A section is listed once, in one group at most: the API refuses a section listed
        twice in a group, and a section written in two groups moves between them on every
        apply."""
        sections = raw_entries(parent, "sections", ())
        pinned = {text(s, "id"): text(s, "title") for _, s in sections if "id" in s}
        first_group: dict[str, tuple[Path, Any]] = {}
        for group_path, group in items:
            listed = group.get("sections")
            if is_absent(group) or not isinstance(listed, list):
                continue
            title = group.get("title", group.get("id"))
            here: dict[str, Path] = {}
            for index, item in enumerate(listed):
                if not isinstance(item, str):
                    continue  # the model reports the type
                path: Path = (*group_path, "sections", index)
                section = pinned.get(item) or item
                if section in here:
                    message = (
                        f"section {item!r} is listed twice in this group (first at "
                        f"{view.where(here[section])}): the API refuses it; keep one"
                    )
                    view.report(path, message)
                    continue
                here[section] = path
                first, named = first_group.setdefault(section, (path, title))
                if first[:-2] != group_path:
                    message = (
                        f"section {item!r} is in group {title!r} and in group {named!r} (at "
                        f"{view.where(first)}): a section is in one group at most; remove it "
                        "from one"
                    )
                    view.report(path, message)

    # -- planning ----------------------------------------------------------------------------
    def to_desired(self, parent: Parent, tree: SiteState) -> list[DesiredResource] | None:
        """Its sections by the addresses the plan knows them by: shown as written, compared as
        a set, ordered by the site's order (`members`)."""

        def fields(entry: Any, path: Path) -> dict[str, Any]:
            found = self.written_fields(entry)
            if entry.sections is not None:
                held = [
                    _section_address(str(s), (*path, "sections", j), tree)
                    for j, s in enumerate(entry.sections)
                ]
                found["sections"] = [m for m in held if m is not None]
            return found

        return self.children_of(parent, tree, fields)

    def fetch(self, parent: Parent, tree: SiteState) -> list[LiveResource]:
        return [_mapped(g, tree) for g in super().fetch(parent, tree)]

    def plan(self, planned: Planned | None, tree: SiteState) -> None:
        """A new group is created with its sections, in the site's order; an existing one
        gains and loses sections one PATCH each; once every list is planned, the order inside
        each group."""
        if planned is None:
            _plan_group_orders(tree)
            return
        written = members(tree) or {}
        for action in planned.actions:
            if action.verb == "create" and "sections" in child(action).fields:
                child(action).fields["sections"] = [ref(m) for m in written.get(action.address, [])]
            elif action.verb == "update" and "sections" in child(action).fields:
                live = planned.result.matched[action.address]
                _membership(action, live, planned.wanted, written, tree)

    # -- export ------------------------------------------------------------------------------
    def export(
        self, tree: LiveTree, container: str, names: ExportNames, extra: Extra
    ) -> list[dict[str, Any]]:
        """Its sections by title, in its order."""
        titles = {s.id: s.key for s in tree.of(_SECTION)}

        def entry(item: LiveResource) -> dict[str, Any]:
            held = [titles[i] for i in tree.holds.get(item.id, []) if i in titles]
            icon = {"icon": item.fields["icon"]} if item.fields.get("icon") else {}
            return {"title": item.key} | icon | {"sections": held} | flags_and_texts(item, "draft")

        return self.export_items(tree, container, names, extra, entry)

    # -- applying ----------------------------------------------------------------------------
    async def execute(self, action: Action, run: RunContext) -> None:
        """A create with its sections; an update of its own fields, then of its members: each
        section moves in or out with one PATCH of its `siteSectionGroupId` (production has no
        membership endpoints), idempotent, so a PATCH whose answer was lost is simply sent
        again. In, a section goes last; out, right after the group: the reorder that follows
        settles the rest."""
        if action.verb == "create":
            fields = self.resolved(action, run)
            body = self.create_body(fields)
            created = await self.post_once(action, run, body, new_group)
            run.ids[action.address] = str(created["id"])
            await self.finish_create(action, run, str(created["id"]), fields, created)
            return
        await super().execute(action, run)
        if action.verb != "update":
            return
        membership = child(action).membership or GroupMembership()
        moves: list[tuple[str, str | None]] = [(s, None) for s in run.resolve(membership.remove)]
        moves += [(s, action.live_id) for s in run.resolve(membership.add)]
        for section_id, group_id in moves:
            body = {"siteSectionGroupId": group_id}
            await self.on_site(action, run, "group a section", body, section=section_id)


#: the kind of a group's members
_SECTION = str(SECTION_GROUP.field("sections").ref)


def members(tree: SiteState) -> dict[str, list[str]] | None:
    """Group address -> its sections in the site's order, when the manifest writes groups."""
    groups = tree.desired_of(SECTION_GROUP.name)
    if groups is None:
        return None
    order = [s.address for s in tree.desired_of(_SECTION) or [] if not s.absent]
    written: dict[str, list[str]] = {}
    for group in groups:
        if "sections" in group.fields:
            known = list(group.fields["sections"])
            known.sort(key=lambda a: order.index(a) if a in order else len(order))
            written[group.address] = known
    return written


def grouping(tree: SiteState) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Each present section's group, and each group's present sections in the manifest's order:
    as the manifest writes the groups, else as they are."""
    sections = [s for s in tree.desired_of(_SECTION) or [] if not s.absent]
    written = members(tree)
    group_of: dict[str, str] = {}
    if written is not None:
        group_of = {member: group for group, held in written.items() for member in held}
    else:
        for live in tree.live_tree.of(SECTION_GROUP.name):
            for member in live.fields["sections"]:
                group_of[tree.as_desired(member)] = live.address
    grouped: dict[str, list[str]] = {}
    for section in sections:
        if section.address in group_of:
            grouped.setdefault(group_of[section.address], []).append(section.address)
    return group_of, grouped


def ids(tree: SiteState, *also: str) -> dict[str, str]:
    """Live id -> the address the plan knows it by, for sections, groups and the kinds `also`."""
    by_id = tree.addresses_by_id(_SECTION, SECTION_GROUP.name, *also)
    if members(tree) is None:  # groups not written: known by their live addresses
        by_id |= {g.id: g.address for g in tree.live_tree.of(SECTION_GROUP.name)}
    return by_id


def _section_address(ref_text: str, path: Path, tree: SiteState) -> str | None:
    """A group's section, by title or id: a section of the manifest's list, else a live one."""
    for section in tree.desired_of(_SECTION) or []:
        if ref_text in (section.key, section.pinned_id) and not section.absent:
            return section.address
    for live in tree.live_tree.of(_SECTION):
        if ref_text in (live.key, live.id):
            return tree.as_desired(live.address)
    tree.ctx.problem(path, f"no section {ref_text!r} in this site")
    return None


def gone_sections(tree: SiteState) -> set[str]:
    """Live sections this plan deletes: their groups lose them with no request of their own."""
    sections = tree.desired_of(_SECTION)
    if sections is None:
        return set()
    kept = {
        tree.matches[s.address].id for s in sections if not s.absent and s.address in tree.matches
    }
    return {s.address for s in tree.live_tree.of(_SECTION) if s.id not in kept}


def _mapped(group: LiveResource, tree: SiteState) -> LiveResource:
    """A live group as the plan compares it: members under their desired addresses, without
    the sections the plan deletes (else each deletion would also show as a group update)."""
    gone = gone_sections(tree)
    fields = dict(group.fields)
    fields["sections"] = [tree.as_desired(a) for a in group.fields["sections"] if a not in gone]
    return replace(group, fields=fields, refs=set())


def _membership(
    action: Action,
    live: LiveResource,
    groups: list[DesiredResource],
    written: dict[str, list[str]],
    tree: SiteState,
) -> None:
    # The payload holds `$ref` placeholders; the change holds the addresses.
    child(action).fields.pop("sections")
    after = set(next(c.after for c in action.changes if c.field == "sections"))
    before = set(live.fields["sections"])
    gone = gone_sections(tree)
    # A section moving to another group gets there with one PATCH naming that group (or
    # by that group's create): taking it out of this one first would cost a request.
    staying = {g.address for g in groups if not g.absent and g.address != action.address}
    elsewhere = {m for g, ms in written.items() if g in staying for m in ms}
    child(action).membership = GroupMembership(
        # Added in the manifest's order: the API appends them, so they arrive in place.
        add=[ref(a) for a in written[action.address] if a not in before],
        remove=[ref(a) for a in sorted(before - after) if a not in gone | elsewhere],
    )


def _plan_group_orders(tree: SiteState) -> None:
    """The order inside each group (written or live): its sections, and the links the manifest
    places in it."""
    _, grouped = grouping(tree)
    by_id = ids(tree, EXTERNAL_LINK.name)
    links = tree.desired_of(EXTERNAL_LINK.name)
    holding = [link.fields.get("group") for link in links or [] if not link.absent]
    for group in [*grouped, *(g for g in holding if g and g not in grouped)]:
        sections = grouped.get(group, [])
        kinds = dict.fromkeys(sections, _SECTION)
        inside = sections
        if links is not None:
            inside = with_links(sections, kinds, tree, group)
            kinds |= {a: EXTERNAL_LINK.name for a in inside if a not in kinds}
        live_members = [
            by_id.get(i, "")
            for gid, held in tree.live_tree.holds.items()
            if by_id.get(gid) == group
            for i in held
        ]
        current = [m for m in live_members if m in inside]
        placed = len(current) < len(inside)
        current += [m for m in inside if m not in current]
        tree.plan_order(group, kinds, current, inside, placed, known_when_new=False)

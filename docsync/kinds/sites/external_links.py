"""External links: links to other sites standing among a site's root sections and groups, or
among the sections of one group (`group`), keyed by title; created last of their level (in the
group with `parent`), moved between levels by one PATCH of `parent`, then placed by `after` in
their level's order (the site's one reorder)."""

from __future__ import annotations

from dataclasses import replace
from difflib import get_close_matches
from typing import Annotated, Any

from pydantic import Field as Limits

from docsync.api.contract import (
    AS_NULL,
    CONDITION,
    LANGUAGE_NULL,
    MIN_LENGTH,
    STRUCTURE,
    Explained,
    Note,
    Said,
    Seed,
    icons,
)
from docsync.core.checking import CheckView, Item
from docsync.core.context import RunContext
from docsync.core.entries import Entry, Icon, LocalizedText128, LocalizedText256, Uri
from docsync.core.model import Action, address
from docsync.core.nullability import NULL
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.declaration import Api, Declaration, Structure
from docsync.kinds.kind import ExportNames, Path
from docsync.kinds.nested.applied import child_routes
from docsync.kinds.nested.kind import NestedKind, flags_and_texts
from docsync.kinds.nested.payloads import child
from docsync.kinds.nested.state import Extra, LiveTree, Parent, Planned, SiteState
from docsync.kinds.requests import IN_STRUCTURE, ORGANIZATION, Lose, Lost, LostAnswers, Writes
from docsync.kinds.sites.checks import check_link_places
from docsync.kinds.sites.found import new_link

#: the list of the site entry the links stand among
_AMONG = "sections"


def _group(raw: dict[str, Any]) -> Any:
    return raw.get("sectionGroup")


class ExternalLinkEntry(Entry):
    """A link to another site among a site's root sections and groups, keyed by title."""

    title: str | None = Api().limits(default=None, min_length=2, max_length=128)
    url: Uri | None = Api().limits(default=None)
    description: Annotated[str | None, NULL] = Api().limits(default=None, max_length=256)
    icon: Annotated[Icon | None, NULL] = Api().limits(default=None)
    condition: Annotated[str | None, NULL] = Api().limits(
        default=None, min_length=1, max_length=1024
    )
    # The group it stands in (None: the root); moved by the kind's own PATCH of `parent`.
    group: str | None = Api(
        ref="section_group",
        ref_live=True,
        live=_group,
        create=False,
        update=False,
    ).limits(default=None, min_length=1)
    """The title of the section group of the same site the link stands in; absent: the root."""
    after: str | None = Limits(default=None, min_length=1)
    """The title of the item of its level the link follows (a root section or group, or a
    section of its group); absent: the link goes first."""
    localizedTitle: Annotated[LocalizedText128 | None, NULL] = Api(keyed=True).limits(default=None)
    """The title in languages other than the site's default, by language: only the languages
    written are managed; a language written null loses its title, `null` every language."""
    localizedDescription: Annotated[LocalizedText256 | None, NULL] = Api(keyed=True).limits(
        default=None
    )
    """The description in languages other than the site's default, as `localizedTitle`."""
    # absent: live
    draft: bool | None = Api(normalize=bool).limits(default=None)
    """A draft is not live: readers see it once it is `false`."""


LINKS = "/v1/orgs/{org}/sites/{site}/external-links"
CREATE, PATCH = f"POST {LINKS}", f"PATCH {LINKS}/{{id}}"
CONTRACT: tuple[Said, ...] = (
    *(Note(STRUCTURE, op, "parent", "the link's `group`, by title") for op in (CREATE, PATCH)),
    *icons(CREATE, PATCH),
    *(Note(MIN_LENGTH, op, "condition", CONDITION) for op in (CREATE, PATCH)),
    *(
        Note(AS_NULL, op, f"{name}.*", LANGUAGE_NULL)
        for op in (CREATE, PATCH)
        for name in ("localizedTitle", "localizedDescription")
    ),
    Explained(
        (CREATE,),
        "site spaces at its root level",
        "addExternalLinkToSite: 'External links require a section-based site structure', and "
        "SiteStructure has no place for a link beside root site spaces; it declares 400",
    ),
    Seed("POST", LINKS, {"title": "Status", "url": "https://status.example"}),
    Seed("POST", LINKS, {"title": "Blog", "url": "https://blog.example", "parent": "{group}"}),
)
LINKED = (
    ORGANIZATION
    + """\
spaces: [{title: Guides}]
sites:
  - title: Docs
    sections: [{title: Guides, siteSpaces: [{space: Guides, path: latest}]}]
    sectionGroups: [{title: Learn, sections: [Guides]}]
"""
)
LOST = LostAnswers(
    "external links",
    LINKED,
    (
        Lost(
            LINKED
            + "    externalLinks:\n"
            + '      - {title: Status, url: "https://status.acme.example"}\n'
            + '      - {title: Forum, url: "https://forum.acme.example", group: Learn}\n',
            (Lose("POST", "/external-links$"), Lose("POST", "/external-links$", carried_out=False)),
        ),
    ),
)

EXTERNAL_LINK = Declaration(
    "external_link",
    "externalLinks",
    "external link",
    key="title",
    renames=True,
    parents=("site",),
    exact=True,
    entry=ExternalLinkEntry,
    routes=child_routes("external-links", "siteExternalLinkId"),
    writes=(Writes(found_by=IN_STRUCTURE),),
    lost_answers=(LOST,),
    contract=CONTRACT,
    chained=True,
    # links stand among sections: a site with root site spaces has none
    structure=Structure("site-external-link", layout="sections"),
)


class ExternalLinkKind(NestedKind):
    declaration = EXTERNAL_LINK
    line = ("link {key} -> {url}",)
    placed_after = "after"  # the title of the root item it follows (none: first)

    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        check_link_places(view, items, parent)

    # -- planning ----------------------------------------------------------------------------
    def to_desired(self, parent: Parent, tree: SiteState) -> list[DesiredResource] | None:
        """Only beside the site's sections; always with its group, the root when not written:
        a link left out of a group leaves it."""
        written = self.written_list(parent)
        if written is not None and getattr(parent.desired.entry, _AMONG) is None:
            tree.ctx.problem(
                (*parent.desired.path, self.section),
                f"external links stand among a site's sections: write `{_AMONG}` in the same "
                "entry (a site of root site spaces has no place for them)",
            )
            return None
        base: Path = (*parent.desired.path, self.section)
        for index, entry in enumerate(written or []):
            if entry.state != "absent" and entry.url is None:
                tree.ctx.problem((*base, index), "an external link needs `url`")

        def fields(entry: Any, path: Path) -> dict[str, Any]:
            found = self.written_fields(entry)
            found["group"] = None
            if entry.group is not None:
                found["group"] = _group_address(entry.group, (*path, "group"), tree)
            return found

        return self.children_of(parent, tree, fields)

    def fetch(self, parent: Parent, tree: SiteState) -> list[LiveResource]:
        """Its group under the group's address as the plan knows it."""
        groups = {g.id: tree.as_desired(g.address) for g in tree.live_tree.of(_GROUP)}
        found = super().fetch(parent, tree)
        return [
            replace(link, fields=link.fields | {"group": groups.get(link.fields["group"])})
            for link in found
        ]

    def plan(self, planned: Planned | None, tree: SiteState) -> None:
        """At the root, a new link shows no `group` (only a move out of a group says null).
        The API takes a link only in a site that has sections: on a new site, or one leaving
        root site spaces, a link's create waits for the creates of the sections it stands
        among, and for its group's."""
        if planned is None:
            return
        among = self.kinds.declarations.by_section(_AMONG).name
        made = [a.key for a in tree.actions if a.verb == "create" and a.kind == among]
        groups = {a.address: a.key for a in tree.actions if a.verb == "create" and a.kind == _GROUP}
        for action in planned.actions:
            group = child(action).fields.get("group") if action.verb != "delete" else None
            if action.verb == "create":
                if group is None:
                    action.changes = [c for c in action.changes if c.field != "group"]
                    child(action).fields.pop("group", None)
                action.depends_on += [key for key in made if key not in action.depends_on]
            if isinstance(group, dict) and group.get("$ref") in groups:
                action.depends_on.append(groups[group["$ref"]])

    # -- export ------------------------------------------------------------------------------
    def export(
        self, tree: LiveTree, container: str, names: ExportNames, extra: Extra
    ) -> list[dict[str, Any]]:
        """The root's links, then each group's, each with `after`: the title of the item of its
        level it follows (none: first, or only other links before it)."""
        links = {link.id: link for link in tree.of(self.name, container)}
        titles = {r.id: r.key for r in tree.items() if r.kind != self.name}
        levels: list[tuple[dict[str, Any], list[str]]] = [({}, tree.root_order)]
        levels += [
            ({"group": titles[i]}, tree.holds[i]) for i in tree.root_order if i in tree.holds
        ]
        entries = []
        for group, order in levels:
            anchor: str | None = None
            for item_id in order:
                if item_id in links:
                    after = {"after": anchor} if anchor is not None else {}
                    entries.append(_exported(links[item_id]) | group | after)
                elif item_id in titles:
                    anchor = titles[item_id]
        return entries

    # -- applying ----------------------------------------------------------------------------
    async def execute(self, action: Action, run: RunContext) -> None:
        """A create, last of its level (the root, or its group by `parent`): the site's reorder
        puts it where the manifest writes it. An update of its fields and, when its group
        changes, `parent` (null: the root) in one PATCH."""
        fields = self.resolved(action, run)
        if action.verb == "create":
            body = self.create_body(fields)
            if fields.get("group") is not None:
                body["parent"] = fields["group"]
            created = await self.post_once(action, run, body, new_link)
            run.ids[action.address] = str(created["id"])
        elif action.verb == "update":
            body = {
                f.wire_name: fields[f.name] for f in self.fields if f.update and f.name in fields
            }
            if "group" in fields:
                body["parent"] = fields["group"]
            assert action.live_id is not None
            await self.update_item(action, run, action.live_id, fields, body)
        else:
            await super().execute(action, run)


def _exported(item: LiveResource) -> dict[str, Any]:
    entry: dict[str, Any] = {"title": item.key, "url": item.fields["url"]}
    for name in ("description", "icon", "condition"):
        if item.fields.get(name) is not None:
            entry[name] = item.fields[name]
    return entry | flags_and_texts(item, "draft")


_GROUP = "section_group"
#: the list of the site entry that writes its groups
_GROUPS = "sectionGroups"


def _group_address(title: str, path: Path, tree: SiteState) -> str | None:
    """The address of the site's group titled `title`: written in the manifest, else live."""
    site = tree.site.address
    written = getattr(tree.site.entry, _GROUPS, None)  # planned after the links: read as written
    titles = [str(g.title or g.id) for g in written or [] if g.state != "absent"]
    if written is None:
        titles = [g.key for g in tree.live_tree.of(_GROUP)]
    if title in titles:
        return address(_GROUP, title, site)
    hint = get_close_matches(title, titles, n=1)
    shown = f" (did you mean {hint[0]!r}?)" if hint else ""
    tree.ctx.problem(path, f"no section group titled {title!r} in this site{shown}")
    return None


def with_links(
    root: list[str], kinds: dict[str, str], tree: SiteState, group: str | None = None
) -> list[str]:
    """A level's order (the root, or the sections of `group`) with the manifest's links of that
    level in place: those without `after` first, each other one right after the item of the
    level it names, in the order written. `kinds`: the kind of each item of `root`."""
    present = [
        link
        for link in tree.desired_of(EXTERNAL_LINK.name) or []
        if not link.absent and link.fields.get("group") == group
    ]
    site = tree.site.address
    anchors: dict[str, str | None] = {}
    for link in present:
        after = link.entry_as(ExternalLinkEntry).after
        if after is None:
            anchors[link.address] = None
            continue
        named = {address(kind, after, site) for kind in set(kinds.values())}
        found = next((item for item in root if item in named), None)
        if found is None:
            level = "root section or group" if group is None else "section of its group"
            tree.ctx.problem(
                (*link.path, "after"),
                f"no {level} titled {after!r} in this site's manifest (a link follows an "
                "item of its own level: the root, or the group it names in `group`)",
            )
        anchors[link.address] = found
    order = [a for a, anchor in anchors.items() if anchor is None]
    for item in root:
        order.append(item)
        order += [a for a, anchor in anchors.items() if anchor == item]
    return order

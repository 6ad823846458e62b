"""External links: links to other sites standing among a site's root sections and groups, keyed
by title; created at the root's end, then placed by `after` in the site's root order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field as Limits

from docsync.core.context import PlanContext, RunContext
from docsync.core.entries import Entry, Uri
from docsync.core.kind import Declaration, Field
from docsync.core.model import Action, address
from docsync.core.nullability import NULL
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds import site_found
from docsync.kinds.base import ExportNames, Path
from docsync.kinds.nested import NestedKind, Parent, Planned, quoted

if TYPE_CHECKING:
    from docsync.kinds.site_shape import Extra, LiveTree
    from docsync.kinds.site_tree import SiteTree

#: the list of the site entry the links stand among
_AMONG = "sections"


class ExternalLinkEntry(Entry):
    """A link to another site among a site's root sections and groups, keyed by title."""

    title: str | None = Limits(default=None, min_length=2, max_length=128)
    url: Uri | None = None
    description: Annotated[str | None, NULL] = Limits(default=None, max_length=256)
    after: str | None = Limits(default=None, min_length=1)
    """The title of the root section or group the link follows; absent: the link goes first."""


EXTERNAL_LINK = Declaration(
    "external_link",
    "externalLinks",
    "external link",
    key="title",
    parents=("site",),
    exact=True,
    fields=(Field("title"), Field("url"), Field("description")),
    entry=ExternalLinkEntry,
    order=84,
)


class ExternalLinkKind(NestedKind):
    declaration = EXTERNAL_LINK
    path = "external-links"
    pointer_type = "site-external-link"

    # -- planning ----------------------------------------------------------------------------
    def desired_children(self, parent: Parent, tree: SiteTree) -> list[DesiredResource] | None:
        entries = self.written(parent)
        if entries is not None and getattr(parent.desired.entry, _AMONG) is None:
            tree.ctx.problem(
                (*parent.desired.path, self.section),
                f"external links stand among a site's sections: write `{_AMONG}` in the same "
                "entry (a site of root site spaces has no place for them)",
            )
            return None
        base: Path = (*parent.desired.path, self.section)
        for index, entry in enumerate(entries or []):
            if entry.state != "absent" and entry.url is None:
                tree.ctx.problem((*base, index), "an external link needs `url`")
        return super().desired_children(parent, tree)

    def level_planned(self, planned: Planned, tree: SiteTree) -> None:
        """The API takes a link only in a site that has sections: on a new site, or one leaving
        root site spaces, a link's create waits for the creates of the sections it stands among."""
        from docsync.kinds.catalogue import CATALOGUE  # built from this package's modules

        among = CATALOGUE.by_section(_AMONG).name
        made = [a.key for a in tree.actions if a.verb == "create" and a.kind == among]
        for action in planned.actions:
            if action.verb == "create":
                action.depends_on += [key for key in made if key not in action.depends_on]

    def picture(self, key: str, fields: dict[str, Any]) -> str:
        return f"link {quoted(key)} -> {fields.get('url')}"

    def picture_placed(
        self, entry: Any, keys: list[str], site: LiveResource | None, ctx: PlanContext
    ) -> list[tuple[str, str | None]]:
        """As written: first without `after`, else after the root item it names."""
        if getattr(entry, _AMONG) is None:
            return []  # root site spaces: no place for links
        written = getattr(entry, self.section)
        if written is None:
            return super().picture_placed(entry, keys, site, ctx)
        return [
            (self.picture(self.desired_key(link), self.picture_fields(link, ctx)), link.after)
            for link in written
            if link.state != "absent"
        ]

    # -- export ------------------------------------------------------------------------------
    def export_level(
        self, tree: LiveTree, container: str, names: ExportNames, extra: Extra
    ) -> list[dict[str, Any]]:
        """Each with `after`: the title of the root item it follows (none: first, or only
        other links before it)."""
        links = {link.id: link for link in tree.of(self.name, container)}
        titles = {r.id: r.key for r in tree.items() if r.kind != self.name}
        anchor: str | None = None
        entries = []
        for item_id in tree.root_order:
            if item_id in links:
                after = {"after": anchor} if anchor is not None else {}
                entries.append(self.export_item(links[item_id], tree, names) | after)
            elif item_id in titles:
                anchor = titles[item_id]
        return entries

    def export_item(self, item: LiveResource, tree: LiveTree, names: ExportNames) -> dict[str, Any]:
        entry: dict[str, Any] = {"title": item.key, "url": item.fields["url"]}
        if item.fields.get("description") is not None:
            entry["description"] = item.fields["description"]
        return entry

    # -- applying ----------------------------------------------------------------------------

    async def create(
        self, action: Action, run: RunContext, base: str, fields: dict[str, Any]
    ) -> None:
        """At the root, last: the site's reorder puts it where the manifest writes it."""
        body: dict[str, Any] = {
            k: fields[k] for k in ("title", "url", "description") if k in fields
        }
        created = await self.post_once(action, run, base, body, site_found.new_link)
        run.ids[action.address] = str(created["id"])


def with_links(root: list[str], kinds: dict[str, str], tree: SiteTree) -> list[str]:
    """The root order with the manifest's links in place: those without `after` first, each
    other one right after the root section or group it names, in the order written.
    `kinds`: the kind of each item of `root`."""
    present = [link for link in tree.desired_of(EXTERNAL_LINK.name) or [] if not link.absent]
    site = tree.site.address
    anchors: dict[str, str | None] = {}
    for link in present:
        after = link.entry.after
        if after is None:
            anchors[link.address] = None
            continue
        named = {address(kind, after, site) for kind in set(kinds.values())}
        found = next((item for item in root if item in named), None)
        if found is None:
            tree.ctx.problem(
                (*link.path, "after"),
                f"no root section or group titled {after!r} in this site's manifest (a "
                "link follows an item of the root level, not a section inside a group)",
            )
        anchors[link.address] = found
    order = [a for a, anchor in anchors.items() if anchor is None]
    for item in root:
        order.append(item)
        order += [a for a, anchor in anchors.items() if anchor == item]
    return order

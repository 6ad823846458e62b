"""A site's structure as docsync sees it: the live tree of one structure read, the desired
entries of a site, and the tree written back as manifest entries by export."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from docsync.core.model import address
from docsync.core.state import LiveResource, LiveState
from docsync.kinds.base import ExportNames


# -- live ------------------------------------------------------------------------------------
@dataclass
class LiveTree:
    """One site's structure as read: children by container, in the API's order."""

    sections: list[LiveResource] = field(default_factory=list)
    groups: list[LiveResource] = field(default_factory=list)
    root_spaces: list[LiveResource] = field(default_factory=list)
    spaces_of: dict[str, list[LiveResource]] = field(default_factory=dict)  # section id ->
    links: list[LiveResource] = field(default_factory=list)  # external links at the root
    root_order: list[str] = field(default_factory=list)  # ids of root sections, groups, links
    group_order: dict[str, list[str]] = field(default_factory=dict)  # group id -> section ids

    def items(self) -> list[LiveResource]:
        """Every child of the site, whatever its kind."""
        spaces = [s for inner in self.spaces_of.values() for s in inner]
        return self.sections + self.groups + self.links + self.root_spaces + spaces


def _site_space(item: dict[str, Any], parent: str, live: LiveState) -> LiveResource:
    space = item.get("space") or {}
    space_id = space.get("id") if isinstance(space, dict) else space
    space_address = live.address_of("space", space_id) or f"space#{space_id}"
    key = str(item.get("path"))
    return LiveResource(
        kind="site_space",
        id=str(item["id"]),
        key=key,
        address=address("site_space", key, parent),
        name=key,
        fields={
            "space": space_address,
            "path": item.get("path"),
            "condition": item.get("condition"),
            "default": bool(item.get("default")),
        },
        raw=item,
        refs={space_address},
        parent=parent,
    )


def _section(item: dict[str, Any], site: str, live: LiveState, tree: LiveTree) -> LiveResource:
    key = str(item.get("title"))
    own = address("section", key, site)
    resource = LiveResource(
        kind="section",
        id=str(item["id"]),
        key=key,
        address=own,
        name=key,
        fields={name: item.get(name) for name in ("title", "icon", "path", "description")}
        | {"condition": item.get("condition"), "default": bool(item.get("default"))},
        raw=item,
        parent=site,
    )
    spaces = [_site_space(s, own, live) for s in item.get("siteSpaces") or []]
    tree.spaces_of[resource.id] = spaces
    tree.sections.append(resource)
    return resource


def _link(item: dict[str, Any], site: str) -> LiveResource:
    key = str(item.get("title"))
    return LiveResource(
        kind="external_link",
        id=str(item["id"]),
        key=key,
        address=address("external_link", key, site),
        name=key,
        fields={name: item.get(name) for name in ("title", "url", "description")},
        raw=item,
        parent=site,
    )


def link_places(tree: LiveTree) -> list[tuple[LiveResource, str | None]]:
    """Each root link with the title of the root section or group it follows (None: first,
    or only other links before it)."""
    links = {link.id: link for link in tree.links}
    titles = {r.id: r.key for r in tree.sections + tree.groups}
    anchor: str | None = None
    places: list[tuple[LiveResource, str | None]] = []
    for item_id in tree.root_order:
        if item_id in links:
            places.append((links[item_id], anchor))
        elif item_id in titles:
            anchor = titles[item_id]
    return places


def read_live_tree(site: LiveResource, live: LiveState) -> tuple[LiveTree, list[LiveResource]]:
    """Every child of a site, from its one structure read."""
    tree = LiveTree()
    structure = site.raw.get("_structure") or {}
    items = structure.get("structure") or []
    if structure.get("type") == "siteSpaces":
        tree.root_spaces = [_site_space(item, site.address, live) for item in items]
    else:
        for item in items:
            tree.root_order.append(str(item["id"]))
            if item.get("object") == "site-section-group":
                members = [
                    _section(s, site.address, live, tree)
                    for s in item.get("sections") or item.get("children") or []
                    if s.get("object", "site-section") == "site-section"
                ]
                key = str(item.get("title"))
                tree.groups.append(
                    LiveResource(
                        kind="section_group",
                        id=str(item["id"]),
                        key=key,
                        address=address("section_group", key, site.address),
                        name=key,
                        fields={
                            "title": item.get("title"),
                            "icon": item.get("icon"),
                            "sections": [m.address for m in members],
                        },
                        raw=item,
                        parent=site.address,
                    )
                )
                tree.group_order[str(item["id"])] = [m.id for m in members]
            elif item.get("object") == "site-external-link":
                tree.links.append(_link(item, site.address))
            else:
                _section(item, site.address, live, tree)
    return tree, tree.items()


# -- export ----------------------------------------------------------------------------------
#: a site space's customization override as exported (None: none)
Overrides = Callable[[LiveResource], dict[str, Any] | None]


def _export_site_space(
    item: LiveResource, names: ExportNames, overrides: Overrides
) -> dict[str, Any]:
    entry: dict[str, Any] = {"space": names.name(item.fields["space"]), "path": item.key}
    if item.fields.get("condition") is not None:
        entry["condition"] = item.fields["condition"]
    if item.fields.get("default"):
        entry["default"] = True
    customization = overrides(item)
    if customization:
        entry["customization"] = customization
    return entry


def _export_link(link: LiveResource, after: str | None) -> dict[str, Any]:
    entry: dict[str, Any] = {"title": link.key, "url": link.fields["url"]}
    if link.fields.get("description") is not None:
        entry["description"] = link.fields["description"]
    return entry | ({"after": after} if after is not None else {})


def export_tree(
    tree: LiveTree, names: ExportNames, overrides: Overrides = lambda _: None
) -> dict[str, Any]:
    """A site's structure as manifest entries, in the live order."""
    if tree.root_spaces:
        return {"siteSpaces": [_export_site_space(s, names, overrides) for s in tree.root_spaces]}
    if not tree.sections:
        return {}
    by_id = {s.id: s for s in tree.sections}
    ordered: list[LiveResource] = []
    for item_id in tree.root_order:
        if item_id in by_id:
            ordered.append(by_id[item_id])
        ordered += [by_id[i] for i in tree.group_order.get(item_id, []) if i in by_id]
    sections = []
    for section in ordered:
        entry: dict[str, Any] = {"title": section.key}
        for name in ("path", "icon", "description", "condition"):
            if section.fields.get(name) is not None:
                entry[name] = section.fields[name]
        if section.fields.get("default"):
            entry["default"] = True
        entry["siteSpaces"] = [
            _export_site_space(s, names, overrides) for s in tree.spaces_of[section.id]
        ]
        sections.append(entry)
    out: dict[str, Any] = {"sections": sections}
    if tree.links:
        out["externalLinks"] = [_export_link(link, after) for link, after in link_places(tree)]
    if tree.groups:
        out["sectionGroups"] = [
            {"title": g.key}
            | ({"icon": g.fields["icon"]} if g.fields.get("icon") else {})
            | {"sections": [by_id[i].key for i in tree.group_order.get(g.id, []) if i in by_id]}
            for g in tree.groups
        ]
    return out

"""A site's structure as production's `gitbook-docs.yaml` (its GitSyncSiteConfig), the file a
site's Git Sync reads its sections, groups, site spaces and links from: `docsync export --site
TITLE --format gitbook-docs` writes it, so that a team moves the structure of a site into its
repository before Git Sync owns it (`owned.py`).

It is made from the structure as the API answers it, one read, in the live order: every node
with production's fields, a key unique across the file made from its path (a section's, a
space's within its section) or its title (a group's, a link's), and each space's content in the
directory of its path (`./guides`, `./product/guides` within a section), which the team moves
its content into; a space's language goes with it. What production's file cannot hold is left
out: localized titles (the app keeps them), a section's home page."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from docsync.api.answers import ID, TEXT, Obj
from docsync.kinds.formats import ExportFormat
from docsync.kinds.kind import Kind
from docsync.kinds.nested.answers import structure_shape
from docsync.kinds.nested.parts import SITES
from docsync.kinds.sites.owned import FILE

if TYPE_CHECKING:
    from docsync.api import ApiClient

NAME = "gitbook-docs"
#: what is relied on in a site of the list, to find it by title
LISTED = Obj({"id": ID, "title": TEXT})
#: the optional fields each node takes from its item as read, when set
_SECTION = ("description", "icon", "condition")
_SPACE = ("condition",)
_GROUP = ("icon",)
_LINK = ("description", "icon", "condition")


class _Keys:
    """Keys unique across one file (production's rule): a second `section-guides` is
    `section-guides-2`."""

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def __call__(self, prefix: str, *names: str) -> str:
        slug = "-".join(s for s in (_slug(n) for n in names) if s) or "item"
        key, number = f"{prefix}-{slug}", 1
        while key in self.taken:
            number += 1
            key = f"{prefix}-{slug}-{number}"
        self.taken.add(key)
        return key


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _flags(item: dict[str, Any], node: dict[str, Any], *names: str) -> None:
    """`default`, `hidden`, `draft` when true (false is production's default)."""
    for name in names:
        if item.get(name) is True:
            node[name] = True


def _optional(item: dict[str, Any], node: dict[str, Any], names: tuple[str, ...]) -> None:
    for name in names:
        if item.get(name):
            node[name] = item[name]


def _space(item: dict[str, Any], within: str, keys: _Keys) -> dict[str, Any]:
    space = item.get("space") or {}
    path = str(item["path"])
    node: dict[str, Any] = {
        "type": "space",
        "key": keys("space", within, path),
        "title": str(item.get("title") or space.get("title") or path),
        "path": path,
    }
    _flags(item, node, "default", "hidden", "draft")
    _optional(item, node, _SPACE)
    content: dict[str, Any] = {"directory": "./" + "/".join(p for p in (within, path) if p)}
    if space.get("language"):
        content["language"] = space["language"]
    node["content"] = content
    return node


def _section(item: dict[str, Any], keys: _Keys) -> dict[str, Any]:
    path = str(item["path"])
    node: dict[str, Any] = {
        "type": "section",
        "key": keys("section", path),
        "title": item["title"],
        "path": path,
    }
    _flags(item, node, "default")
    _optional(item, node, _SECTION)
    node["children"] = [_space(s, path, keys) for s in item.get("siteSpaces") or []]
    return node


def _node(item: dict[str, Any], keys: _Keys) -> dict[str, Any]:
    """A node of a site of sections: a section, a group (with what it holds) or a link."""
    kind = item.get("object")
    if kind == "site-section-group":
        group: dict[str, Any] = {
            "type": "section-group",
            "key": keys("group", str(item["title"])),
            "title": item["title"],
        }
        _optional(item, group, _GROUP)
        _flags(item, group, "draft")
        group["children"] = [_node(child, keys) for child in _held(item)]
        return group
    if kind == "site-external-link":
        link: dict[str, Any] = {
            "type": "external-link",
            "key": keys("link", str(item["title"])),
            "title": item["title"],
            "url": item["url"],
        }
        _optional(item, link, _LINK)
        _flags(item, link, "draft")
        return link
    return _section(item, keys)


def _held(group: dict[str, Any]) -> list[dict[str, Any]]:
    """What a group holds, in order (production's `children`; its deprecated `sections`)."""
    children = group.get("children")
    return list(children if isinstance(children, list) else group.get("sections") or [])


def site_config(title: str, structure: dict[str, Any] | None) -> dict[str, Any]:
    """Production's GitSyncSiteConfig of a site, from its structure as the API answers it."""
    keys = _Keys()
    items = (structure or {}).get("structure") or []
    if (structure or {}).get("type") == "siteSpaces":
        nodes = [_space(item, "", keys) for item in items]
    else:
        nodes = [_node(item, keys) for item in items]
    return {"version": 1, "site": {"title": title, "structure": nodes}}


def gitbook_docs(site: Kind) -> ExportFormat:
    """The format the site kind offers: the site of that title read (the list, then its
    structure, as the kinds of the site's catalogue read it)."""

    async def read(api: ApiClient, org_id: str, title: str) -> Any:
        path = SITES.format(org=org_id)
        sites = await api.list_all(path, items=LISTED)
        found = [s for s in sites if s["title"] == title]
        if len(found) != 1:
            titles = ", ".join(repr(s["title"]) for s in sites) or "none"
            many = f"{len(found)} sites are titled {title!r}" if found else f"no site {title!r}"
            raise LookupError(f"{many} in organization {org_id}; its sites: {titles}")
        shape = structure_shape(site.kinds)
        structure = await api.get(f"{path}/{found[0]['id']}/structure", shape=shape)
        return site_config(title, structure)

    return ExportFormat(NAME, FILE, f"a site's structure as production's {FILE}", read)

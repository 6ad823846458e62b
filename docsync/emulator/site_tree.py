"""The site tree in the store: lookups, levels, defaults and unique paths for the sites routes.

Rows (id / org / parent): site (id / org / -); site-section-group (id / org / site);
site-section and site-external-link (id / org / its group, or the site at the root); site-space
(id / org / its section, or the site at the root). Every child row carries `site` in its data, so
`delete_tree` on a site removes everything. Store positions give the order of siblings: sections,
groups and links at the root, sections and links of one group, site spaces of one level
(docs/emulator-sites.md).

Defaults are pointers in the container's data (`defaultSection` on the site, `defaultSiteSpace`
on the site for the root level and on each section); a pointer naming nothing that exists falls
back to the first item, so there is exactly one default wherever there are items.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from docsync.emulator import space_templates
from docsync.emulator.content import insert_space
from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.http import Ctx, new_id
from docsync.emulator.refs import live_space
from docsync.emulator.scopes import SITE as SITE
from docsync.emulator.scopes import find_site as find_site
from docsync.emulator.store import Row, Tx
from docsync.emulator.validate import Fields

SECTION = "site-section"
GROUP = "site-section-group"
SITE_SPACE = "site-space"
LINK = "site-external-link"
ROOT_KINDS = (SECTION, GROUP, LINK)
#: a group holds what the root holds: sections, (nested) groups and links
GROUP_KINDS = ROOT_KINDS
PATH_MAX = 100


def find_child(tx: Tx, site: Row, kind: str, id_: str, field: str | None = None) -> Row:
    """A section, group or site space of `site`; 404 naming `field` (or the path id) when not."""
    row = tx.get_row(kind, id_)
    if row is None or row.data.get("site") != site.id:
        what = {
            SECTION: "section",
            GROUP: "section group",
            SITE_SPACE: "site space",
            LINK: "external link",
        }[kind]
        prefix = f"{field}: " if field else ""
        raise not_found(f"{prefix}no {what} {id_!r} in site {site.id!r}")
    return row


def find_space(ctx: Ctx, org: str, space_id: str, field: str) -> Row:
    """A live space of `org` named by a body field; 404 naming the field otherwise."""
    row = live_space(ctx.tx, org, space_id)
    if row is None:
        raise not_found(f"{field}: no space {space_id!r} in organization {org!r}")
    return row


def space_or_new(ctx: Ctx, org: str, body: Fields, title: str | None) -> Row:
    """The space a section or site space create names by `spaceId`, or for `spaceId: null` a
    new space titled `title` (production's "create a new space"), which has no `pageId`, or
    made from the seeded space template `template` names (titled after it; a template that
    provisions an OpenAPI spec is refused here, as production refuses it on a site)."""
    template = space_templates.named(ctx.tx, body.obj("template"), site_scoped=True)
    space_id = body.string("spaceId", required=True, nullable=True)
    if space_id is not None:
        return find_space(ctx, org, space_id, "spaceId")  # production: `template` is for a new one
    if body.data.get("pageId") is not None:
        raise bad_request("pageId: cannot be given with spaceId null (the new space has no pages)")
    if template is not None:
        title = str(template.data["title"])
    new_space = insert_space(ctx, org, (title or "Untitled")[:50])
    return find_space(ctx, org, new_space, "spaceId")


def reload(tx: Tx, row: Row) -> Row:
    """The current version of a row (rows are snapshots)."""
    fresh = tx.get_row(row.kind, row.id)
    assert fresh is not None
    return fresh


def patch(tx: Tx, row: Row, changes: dict[str, Any]) -> Row:
    """Merge `changes` into the stored data of `row` and return the updated row."""
    current = reload(tx, row)
    tx.update(row.kind, row.id, {**current.data, **changes})
    return reload(tx, row)


# -- levels --------------------------------------------------------------------------------


def root_items(tx: Tx, site: Row) -> list[Row]:
    """Sections, groups and external links at the root of a site, in order."""
    return tx.rows(ROOT_KINDS, parent=site.id)


def items_under(tx: Tx, parent: str) -> list[Row]:
    """Every section, group and link under `parent` (the site or a group), depth first in
    structure order: a group's items right after the group."""
    found: list[Row] = []
    for item in tx.rows(ROOT_KINDS, parent=parent):
        found.append(item)
        if item.kind == GROUP:
            found.extend(items_under(tx, item.id))
    return found


def groups(tx: Tx, site: Row) -> list[Row]:
    """The site's section groups, nested ones included, in structure order."""
    return [row for row in items_under(tx, site.id) if row.kind == GROUP]


def sections(tx: Tx, site: Row) -> list[Row]:
    """Every section of the site in structure order (a group's sections where the group is)."""
    return [row for row in items_under(tx, site.id) if row.kind == SECTION]


def top_group(tx: Tx, site: Row, group: Row) -> Row:
    """The group at the root of the site that holds `group` (itself when it is at the root)."""
    while group.parent != site.id:
        outer = tx.get_row(GROUP, group.parent or "")
        if outer is None:
            break
        group = outer
    return group


def level(tx: Tx, parent: str) -> list[Row]:
    """The site spaces of one level (a section id, or the site id for the root), in order.

    A site space whose space was purged (deleted more than 7 days ago) is left out.
    """
    return [row for row, _ in level_spaces(tx, parent)]


def level_spaces(tx: Tx, parent: str) -> list[tuple[Row, Row]]:
    """`level()` with the space of each site space (one batch read for the level's spaces)."""
    rows = tx.rows(SITE_SPACE, parent=parent)
    spaces = tx.get_many("space", [str(r.data["space"]) for r in rows])
    return [(r, spaces[r.data["space"]]) for r in rows if r.data["space"] in spaces]


def preload_levels(tx: Tx, site: Row) -> None:
    """Read the site spaces of every level of the site and their spaces in two batch reads, so
    that rendering the levels one by one reads them from the store's memo."""
    containers = [site.id] + [s.id for s in sections(tx, site)]
    rows = tx.preload(SITE_SPACE, containers)
    tx.get_many("space", [str(r.data["space"]) for r in rows])


def all_site_spaces(tx: Tx, site: Row) -> list[Row]:
    """Every site space of the site in structure order."""
    found = level(tx, site.id)
    for section in sections(tx, site):
        found.extend(level(tx, section.id))
    return found


def has_sections(tx: Tx, site: Row) -> bool:
    """Whether the site is organized in sections: a section, group or link at its root, and no
    root site space. A site of groups only that is given a space keeps it at its root
    (production's addSpaceToSite: "at the root level if the site has no sections") and reads as
    root site spaces until sections are enabled."""
    return bool(root_items(tx, site)) and not level(tx, site.id)


# -- defaults ------------------------------------------------------------------------------


def pick_default(pointer: Any, ids: Iterable[str]) -> str | None:
    """`pointer` when it names one of `ids`, else the first id (None when there are none)."""
    ordered = list(ids)
    if pointer in ordered:
        return str(pointer)
    return ordered[0] if ordered else None


def default_section(tx: Tx, site: Row) -> str | None:
    """The id of the site's default section."""
    site = reload(tx, site)
    return pick_default(site.data.get("defaultSection"), [s.id for s in sections(tx, site)])


def default_site_space(tx: Tx, container: Row) -> str | None:
    """The id of the default site space of a level (`container` is the section or the site)."""
    container = reload(tx, container)
    ids = [r.id for r in level(tx, container.id)]
    return pick_default(container.data.get("defaultSiteSpace"), ids)


def settle_defaults(tx: Tx, site: Row) -> None:
    """Write the effective defaults back, so a promoted default stays put when items move."""
    changes = {"defaultSection": default_section(tx, site)}
    if not has_sections(tx, site):
        changes["defaultSiteSpace"] = default_site_space(tx, site)
    patch(tx, site, changes)
    for section in sections(tx, site):
        patch(tx, section, {"defaultSiteSpace": default_site_space(tx, section)})


# -- paths ---------------------------------------------------------------------------------


def slugify(text: str, fallback: str) -> str:
    """A URL path segment from a title: ASCII, lowercase, words joined by `-`, at most 100."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return slug[:PATH_MAX].rstrip("-") or fallback


def unique_path(base: str, taken: Iterable[str]) -> str:
    """`base`, or `base-2`, `base-3`... the first not in `taken` (kept within 100 chars)."""
    used = set(taken)
    candidate, number = base, 1
    while candidate in used:
        number += 1
        suffix = f"-{number}"
        candidate = base[: PATH_MAX - len(suffix)] + suffix
    return candidate


def section_paths(tx: Tx, site: Row, excluding: str | None = None) -> list[str]:
    """Paths of the site's sections (all of them are one namespace), but `excluding`."""
    return [str(s.data["path"]) for s in sections(tx, site) if s.id != excluding]


def level_paths(tx: Tx, parent: str, excluding: str | None = None) -> list[str]:
    """Paths of the site spaces of one level, but `excluding`."""
    return [str(r.data["path"]) for r in level(tx, parent) if r.id != excluding]


# -- creation ------------------------------------------------------------------------------


def add_site_space(
    ctx: Ctx, site: Row, parent: Row, space: Row, extra: dict[str, Any] | None = None
) -> Row:
    """Insert a site space for `space` at the end of a level (`parent` = section or site).

    Its path comes from the space title, unique within the level; the first site space of a
    level becomes that level's default.
    """
    path = unique_path(
        slugify(str(space.data.get("title") or ""), "space"), level_paths(ctx.tx, parent.id)
    )
    ss_id = new_id()
    section = parent.id if parent.kind == SECTION else None
    data = {"id": ss_id, "site": site.id, "section": section, "space": space.id, "path": path}
    ctx.tx.insert(
        SITE_SPACE,
        ss_id,
        {**data, "condition": None, "createdAt": ctx.now, **(extra or {})},
        org=site.org,
        parent=parent.id,
    )
    if default_site_space(ctx.tx, parent) == ss_id:
        patch(ctx.tx, parent, {"defaultSiteSpace": ss_id})
    row = ctx.tx.get_row(SITE_SPACE, ss_id)
    assert row is not None
    return row

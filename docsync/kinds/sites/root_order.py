"""The order of a site's root: its sections in the manifest's order, a grouped one standing where
its group stands, the groups the manifest writes, and the external links placed by `after`. The
section kind contributes this level to the site's one reorder once every list is planned; the
order inside each group is the group kind's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docsync.kinds.sites.external_links import EXTERNAL_LINK, with_links
from docsync.kinds.sites.section_groups import SECTION_GROUP, grouping, ids, members

if TYPE_CHECKING:
    from docsync.core.state import DesiredResource
    from docsync.kinds.nested.state import SiteState

_GROUP = SECTION_GROUP.name
_LINK = EXTERNAL_LINK.name
_SECTION = str(SECTION_GROUP.field("sections").ref)


def plan_root_order(tree: SiteState) -> None:
    sections = [s for s in tree.desired_of(_SECTION) or [] if not s.absent]
    if not sections:
        return
    written = members(tree)
    group_of, grouped = grouping(tree)
    desired: list[str] = []
    for section in sections:
        group = group_of.get(section.address)
        if group is None:
            desired.append(section.address)
        elif group not in desired:
            desired.append(group)
    by_id = ids(tree, _LINK)
    _place_empty_groups(desired, [g for g in written or {} if g not in grouped], tree, by_id)
    groups = set(grouped) | set(written or {})
    kinds = {a: _GROUP if a in groups else _SECTION for a in desired}
    if tree.desired_of(_LINK) is not None:
        desired = with_links(desired, kinds, tree)
        kinds |= {a: _LINK for a in desired if a not in kinds}
    tree.plan_order(
        None,
        kinds,
        _current(tree, sections, desired, group_of, grouped, by_id),
        desired,
        any(a not in {by_id.get(i) for i in tree.live_tree.root_order} for a in desired),
        known_when_new=not groups,
    )


def _place_empty_groups(
    desired: list[str], empty: list[str], tree: SiteState, by_id: dict[str, str]
) -> None:
    """A group that holds no section has no place the manifest gives it: one that stands
    already stays where it is (right after the item before it), and a new one goes last, where
    the API puts it. So the export of a site with an empty group anywhere plans no move."""
    standing = [a for a in (by_id.get(i) for i in tree.live_tree.root_order) if a is not None]
    for group in sorted(empty, key=lambda g: standing.index(g) if g in standing else len(standing)):
        if group not in standing:
            desired.append(group)
            continue
        before = [a for a in standing[: standing.index(group)] if a in desired]
        desired.insert(desired.index(before[-1]) + 1 if before else 0, group)


def _current(
    tree: SiteState,
    sections: list[DesiredResource],
    desired: list[str],
    group_of: dict[str, str],
    grouped: dict[str, list[str]],
    by_id: dict[str, str],
) -> list[str]:
    """Where the root's items stand once creates, deletes and group changes are done: the API
    appends what it makes, and a section leaving its group right after it."""
    live = tree.live_tree
    live_group_of = {
        tree.as_desired(m): by_id.get(g.id, g.address)
        for g in live.of(_GROUP)
        for m in g.fields["sections"]
    }
    current = [by_id[i] for i in live.root_order if by_id.get(i) in desired]
    for section in sections:
        if section.address in current:
            continue
        old_group = live_group_of.get(section.address)
        if group_of.get(section.address) is None and (
            old_group is None or old_group not in grouped
        ):
            current.append(section.address)
    return current + [g for g in desired if g not in current]

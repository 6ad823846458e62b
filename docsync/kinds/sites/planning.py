"""What a site's plan adds to its own create, update or delete: its children (through the
driver, `sites.driver`), one reorder of the fewest moves, one action per part it writes
(`sites.parts`), its site spaces' overrides, and its publish or unpublish once all of those are
done."""

from __future__ import annotations

from docsync.core.context import PlanContext, ref
from docsync.core.model import Action, FieldChange, Verb
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.kind import Kinds
from docsync.kinds.nested.parts import OnSite
from docsync.kinds.nested.payloads import Reorder
from docsync.kinds.nested.state import LiveTree
from docsync.kinds.requests import unread
from docsync.kinds.sites.driver import SiteTree
from docsync.kinds.sites.parts import child_parts, site_parts
from docsync.kinds.sites.reading import STRUCTURE, manages_structure


def plan_site(
    desired: DesiredResource, live: LiveResource | None, ctx: PlanContext, kinds: Kinds
) -> None:
    """Everything under one site entry (`live`: None for a site created or replaced)."""
    tree = live.raw.get("_tree") if live is not None else None
    site_tree = SiteTree(ctx, desired, live, tree or LiveTree(), kinds)
    # What the API hid from the token's role is left out (the plan names it).
    read = live.raw if live is not None else None
    structure = not unread(read, STRUCTURE)
    if manages_structure(desired.entry, kinds) and structure:
        site_tree.plan()
    _plan_reorder(desired, site_tree, ctx)
    # The site's parts, one action each, published once they are written.
    for part in site_parts(kinds):
        if unread(read, part.section) or (part.reads_structure and not structure):
            continue
        action = part.plan(desired, live, ctx)
        if action is not None:
            site_tree.actions.append(action)
    for child_part in child_parts(kinds) if structure else ():
        for child in site_tree.desired_of(child_part.declaration.parents[0]) or []:
            child_live = site_tree.matches.get(child.address)
            found = child_part.plan(desired, live, child, child_live, ctx)
            if found is not None:
                site_tree.actions.append(found)
    _plan_publish(desired, live, ctx, site_tree)


def _plan_reorder(desired: DesiredResource, site_tree: SiteTree, ctx: PlanContext) -> None:
    if not site_tree.reorders:
        return
    action = Action(
        "reorder",
        desired.kind,
        desired.address,
        site_tree.moved_lines,
        ctx.where(desired.path),
        payload=Reorder(ref(desired.address), site_tree.reorders),
        depends_on=[a.key for a in site_tree.actions],
    )
    if site_tree.placed_by_api:
        action.notes.append(
            "checks the order once the new or regrouped items are in (the API decides where "
            "they go) and moves only what is out of place"
        )
    ctx.add(action)


def _plan_publish(
    desired: DesiredResource, live: LiveResource | None, ctx: PlanContext, site_tree: SiteTree
) -> None:
    if not desired.writes("published") or desired.written("published") is None:
        return
    wanted = bool(desired.written("published"))
    now = bool(live.raw.get("published")) if live is not None else False
    if wanted == now:
        return
    verb: Verb = "publish" if wanted else "unpublish"
    # The site's own actions and its tree's: published once all of them are done.
    mine = [a.key for a in ctx.actions_at[desired.address]]
    mine += [a.key for a in site_tree.actions]
    action = Action(
        verb,
        desired.kind,
        desired.address,
        [FieldChange("published", now, wanted)],
        ctx.where((*desired.path, "published")),
        live_id=live.id if live else None,
        payload=OnSite(ref(desired.address)),
        depends_on=mine,
    )
    if not wanted:
        action.notes.append("AUDIENCE CHANGE: readers lose access to the site")
        action.audience_change = True
    ctx.add(action)

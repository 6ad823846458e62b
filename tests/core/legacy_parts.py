"""The matching loops the one reconciler replaced, as they were (main before the redesign of
issue 21), kept only to be compared with the planners that replaced them
(`test_parts_match_legacy.py`). Their helpers, which did not change, are today's."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from docsync.core.context import PlanContext, ref
from docsync.core.entries import role_shown
from docsync.core.model import Action, FieldChange, Kept
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.access.grant_writes import PRINCIPALS, grant_address
from docsync.kinds.access.grants import GRANT
from docsync.kinds.access.planning import (
    _batch,
    _before_team_delete,
    _changed,
    _created,
    _desired_side,
    _On,
    live_side,
)
from docsync.kinds.presentation.redirect_destinations import live_places as _live_places
from docsync.kinds.presentation.redirect_destinations import target as _target
from docsync.kinds.presentation.redirect_destinations import written_places as _written_places
from docsync.kinds.presentation.redirects import Redirects, live_redirects
from docsync.kinds.presentation.share_links import ShareLinks, _live, _shape

Path = tuple[str | int, ...]


def plan_share_links(
    desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
) -> Action | None:
    """One update of the site's share links when the written list differs from the live one:
    links not written are deleted (the list is exact), a changed `active` is patched, a new
    name is created (and deactivated after, when written inactive)."""
    written = desired.entry.shareLinks
    if written is None:
        return None
    current = _live(live) or []
    by_name: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for link in current:
        by_name[_shape(link)["name"]].append(link)
    base: Path = (*desired.path, "shareLinks")
    creates: list[dict[str, Any]] = []
    updates: list[dict[str, Any]] = []
    kept: set[str] = set()
    for index, item in enumerate(written):
        found = by_name.get(item.name, [])
        if len(found) > 1:
            ids = ", ".join(str(link["id"]) for link in found)
            ctx.problem(
                (*base, index, "name"),
                f"{desired.address} has {len(found)} share links named {item.name!r} ({ids}): "
                "rename or delete all but one in the app, so the name says which link it is",
            )
            kept.update(str(link["id"]) for link in found)
            continue
        if not found:
            creates.append({"name": item.name, "active": item.active})
            continue
        link = found[0]
        kept.add(str(link["id"]))
        if bool(link.get("active")) != item.active:
            updates.append({"id": str(link["id"]), "active": item.active})
    deletes = [str(link["id"]) for link in current if str(link["id"]) not in kept]
    if not (creates or updates or deletes):
        return None
    before = sorted((_shape(link) for link in current), key=lambda link: link["name"])
    after = sorted(
        ({"name": item.name, "active": item.active} for item in written),
        key=lambda link: link["name"],
    )
    action = Action(
        "update",
        desired.kind,
        f"{desired.address}.shareLinks",
        [FieldChange("shareLinks", before, after, sensitive=ctx.sensitive(base))],
        ctx.where(base),
        payload=ShareLinks(ref(desired.address), creates, updates, deletes),
    )
    if deletes:
        action.notes.append(
            f"deletes {len(deletes)} share link(s) the manifest does not list (the list is "
            "exact): whoever holds their URLs loses access"
        )
    return ctx.add(action)


def plan_redirects(
    desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
) -> Action | None:
    """One update of the site's redirects when the written list differs from the live one: the
    changed and new ones upserted, the live ones not written deleted (the list is exact)."""
    written = desired.entry.redirects
    if written is None:
        return None
    manages_tree = any(
        getattr(desired.entry, name) is not None for name in ("sections", "siteSpaces")
    )
    if manages_tree or live is None:
        places = _written_places(desired)
    else:
        places = _live_places(live, ctx.live)
    before = (live_redirects(live, ctx.live) if live is not None else None) or []
    by_source = {item["source"]: item for item in before}
    after: list[dict[str, Any]] = []
    upserts: list[dict[str, Any]] = []
    base: Path = (*desired.path, "redirects")
    for index, item in enumerate(written):
        wire = _target(item.destination, places, (*base, index, "destination"), ctx)
        if wire is None:
            continue
        shape = {
            "source": item.source,
            "destination": item.destination.model_dump(exclude_none=True),
            "permanent": item.permanent,
            "captureWildcard": item.captureWildcard,
        }
        after.append(shape)
        if by_source.get(item.source) != shape:
            upserts.append(
                {
                    "source": item.source,
                    "destination": wire,
                    "permanent": item.permanent,
                    "captureWildcard": item.captureWildcard,
                }
            )
    wanted = {item["source"] for item in after}
    deletes = sorted(source for source in by_source if source not in wanted)
    if not upserts and not deletes:
        return None
    after.sort(key=lambda item: item["source"])
    action = Action(
        "update",
        desired.kind,
        f"{desired.address}.redirects",
        [FieldChange("redirects", before, after, sensitive=ctx.sensitive(base))],
        ctx.where(base),
        payload=Redirects(ref(desired.address), upserts, deletes),
    )
    if deletes:
        action.notes.append(
            f"deletes {len(deletes)} redirect(s) the manifest does not list (the list is exact)"
        )
    return ctx.add(action)


def plan_grants(
    desired: DesiredResource, live: LiveResource | None, holder: str, ctx: PlanContext
) -> None:
    """One action per grant that differs between the written and the live ones, and, when
    there is one, the grants kept as they are (for the access table); `holder` is the
    resource's kind."""
    written = getattr(desired.entry, "permissions", None)
    if written is None or desired.absent:
        return
    read = (live.raw.get("_grants") if live is not None else None) or {}
    base: Path = (*desired.path, "permissions")
    invited: list[Action] = []
    planned = len(ctx.actions)
    kept: list[Kept] = []
    for name, (wire, noun) in PRINCIPALS.items():
        wanted = getattr(written, name)
        if wanted is None:
            continue
        have = live_side(read.get(name) or [], name, ctx.live)
        want = _desired_side(wanted, name, base, ctx)

        on = _On(desired, holder, wire, noun, ctx, GRANT.name)
        for ident, grant in want.items():
            now = have.get(ident)
            where = (*base, name, grant.written)
            if now is None:
                invited.append(_created(on.action("create", grant, None, grant.role, where)))
            elif now.role != grant.role:
                update = on.action("update", grant, now.role, grant.role, where)
                if _changed(update, now.role):
                    invited.append(update)
            else:
                kept.append(
                    Kept(
                        GRANT.name,
                        desired.address,
                        grant_address(desired.address, noun, grant.name),
                        now.role,
                    )
                )
        for ident, grant in have.items():
            if ident not in want:
                gone = on.action("delete", grant, grant.role, None, (*base, name))
                gone.notes.append(
                    f"AUDIENCE CHANGE: removes this access ({role_shown(grant.role)})"
                )
                gone.audience_change = True
                _before_team_delete(gone, ident, wire, ctx)
    _batch(invited)
    if len(ctx.actions) > planned:  # its access table shows who keeps access too
        ctx.kept += kept


def team_batch(before: dict[str, str], after: dict[str, str]) -> dict[str, Any]:
    """The body of a team's batch membership request, as `write_members` made it."""
    body: dict[str, Any] = {}
    add = sorted(set(after) - set(before))
    remove = sorted(set(before) - set(after))
    roles = {u: {"role": r} for u, r in after.items() if before.get(u, "member") != r}
    if add:
        body["add"] = add
    if remove:
        body["remove"] = remove
    if roles:
        body["memberships"] = roles
    return body

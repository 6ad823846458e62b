"""The lists whose matching moved to the one reconciler (a site's share links and redirects, a
resource's grants, a team's members) plan what their own matching loops planned, on random
live states and manifests: the loops as they were are in `legacy_parts.py`."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.core.context import PlanContext
from docsync.core.model import Action
from docsync.kinds.organization import team_members
from tests.core import legacy_parts
from tests.core import plankit as k
from tests.depth import examples

NAMES = st.sampled_from(["A", "B", "C", "D"])
SITE = 'site["Docs"]'


def _again(ctx: PlanContext) -> PlanContext:
    """A context with the same manifest, states and entries, and nothing planned yet."""
    return PlanContext(ctx.loaded, ctx.live, desired=ctx.desired)


def _shown(action: Action | None, *, notes: bool = True) -> Any:
    if action is None:
        return None
    payload = {k: v for k, v in vars(action.payload).items() if k != "site"}
    return (action.verb, action.address, action.changes, notes and action.notes, payload)


def _site(**parts: Any) -> dict[str, Any]:
    return {"site": [k.site("s1", "Docs", []) | parts]}


@settings(max_examples=examples(60), deadline=None)
@given(
    live=st.lists(st.tuples(NAMES, st.booleans()), max_size=5),
    written=st.dictionaries(NAMES, st.booleans(), max_size=4),
)
def test_share_links(live: list[tuple[str, bool]], written: dict[str, bool]) -> None:
    links = [{"id": f"l{i}", "name": n, "active": a} for i, (n, a) in enumerate(live)]
    entries = ", ".join(f"{{name: {n}, active: {str(a).lower()}}}" for n, a in written.items())
    ctx = k.attempt(
        f"sites:\n  - title: Docs\n    shareLinks: [{entries}]\n", _site(_shareLinks=links)
    )
    new = next((a for a in ctx.actions if a.address == f"{SITE}.shareLinks"), None)
    old_ctx = _again(ctx)
    site, site_live = ctx.desired.by_address[SITE], ctx.live.by_address[SITE]
    old = legacy_parts.plan_share_links(site, site_live, old_ctx)
    assert bool(ctx.problems) == bool(old_ctx.problems)
    if not ctx.problems:
        # the notes now name each link lost, deleted or deactivated (test_planner_losses.py)
        assert _shown(new, notes=False) == _shown(old, notes=False)


SOURCES = st.sampled_from(["/a", "/b", "/c/*", "/d"])
URLS = st.sampled_from(["https://x.example", "https://y.example"])


@settings(max_examples=examples(60), deadline=None)
@given(
    live=st.dictionaries(SOURCES, st.tuples(URLS, st.booleans()), max_size=4),
    written=st.dictionaries(SOURCES, st.tuples(URLS, st.booleans()), max_size=4),
)
def test_redirects(live: dict[str, tuple[str, bool]], written: dict[str, tuple[str, bool]]) -> None:
    rules = [
        {"id": f"r{i}", "source": s, "destination": {"kind": "external", "url": u}, "permanent": p}
        for i, (s, (u, p)) in enumerate(live.items())
    ]
    entries = ", ".join(
        f"{{source: '{s}', destination: {{url: '{u}'}}, permanent: {str(p).lower()}}}"
        for s, (u, p) in written.items()
    )
    ctx = k.attempt(
        f"sites:\n  - title: Docs\n    redirects: [{entries}]\n", _site(_redirects=rules)
    )
    new = next((a for a in ctx.actions if a.address == f"{SITE}.redirects"), None)
    old_ctx = _again(ctx)
    site, site_live = ctx.desired.by_address[SITE], ctx.live.by_address[SITE]
    old = legacy_parts.plan_redirects(site, site_live, old_ctx)
    # the notes now name each redirect deleted, a loss (test_planner_losses.py)
    assert _shown(new, notes=False) == _shown(old, notes=False)


TEAMS = [{"id": f"t{i}", "title": f"T{i}"} for i in range(3)]
USERS = ["u1", "u2", "u3"]
ROLES = st.sampled_from(["admin", "edit", "read"])
MEMBERS = [
    {"id": u, "role": "edit", "user": {"id": u, "email": f"{u}@acme.example"}} for u in USERS
]


@settings(max_examples=examples(60), deadline=None)
@given(
    live_teams=st.dictionaries(st.sampled_from(range(3)), ROLES, max_size=3),
    live_users=st.dictionaries(st.sampled_from(range(3)), ROLES, max_size=3),
    teams=st.dictionaries(st.sampled_from(range(3)), ROLES, max_size=3),
    users=st.dictionaries(st.sampled_from(range(3)), ROLES, max_size=3),
)
def test_grants(
    live_teams: dict[int, str],
    live_users: dict[int, str],
    teams: dict[int, str],
    users: dict[int, str],
) -> None:
    grants = {
        "teams": [{"team": {"id": f"t{i}"}, "permission": r} for i, r in live_teams.items()],
        "members": [{"user": {"id": USERS[i]}, "permission": r} for i, r in live_users.items()],
    }
    collection = {"id": "c1", "title": "Docs", "_grants": grants}
    items = {"member": MEMBERS, "team": TEAMS, "collection": [collection]}
    written = {
        "teams": {f"T{i}": r for i, r in teams.items()},
        "members": {f"{USERS[i]}@acme.example": r for i, r in users.items()},
    }
    manifest = f"collections:\n  - title: Docs\n    permissions: {json.dumps(written)}\n"
    ctx = k.attempt(manifest, items)
    new = [_shown(a) for a in ctx.actions if a.kind == "grant"]
    old_ctx = _again(ctx)
    resource = ctx.desired.by_address['collection["Docs"]']
    legacy_parts.plan_grants(
        resource, ctx.live.by_address['collection["Docs"]'], "collection", old_ctx
    )
    assert new == [_shown(a) for a in old_ctx.actions]
    assert ctx.kept == old_ctx.kept


@settings(max_examples=examples(100), deadline=None)
@given(
    before=st.dictionaries(st.sampled_from(USERS), st.sampled_from(["owner", "member"])),
    after=st.dictionaries(st.sampled_from(USERS), st.sampled_from(["owner", "member"])),
)
def test_team_members(before: dict[str, str], after: dict[str, str]) -> None:
    ctx = k.attempt("", {"member": MEMBERS})
    ids = {u: u for u in USERS}
    batch = team_members.membership('team["T"]', before, after, ids, ctx)
    old = legacy_parts.team_batch(before, after)
    if batch is None:
        assert before == after
        return
    body: dict[str, Any] = {}
    if batch.add:
        body["add"] = batch.add
    if batch.remove:
        body["remove"] = batch.remove
    if batch.roles:
        body["memberships"] = {u: {"role": r} for u, r in batch.roles.items()}
    assert body == old
    assert sorted(batch.after) == sorted(after)

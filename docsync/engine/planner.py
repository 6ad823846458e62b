"""Manifest + live state -> plan: read what the manifest needs, match, diff, link, order."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from docsync.api.answers import ID, TEXT, Obj, Opt
from docsync.api.errors import ApiError, OddAnswer
from docsync.core.collector import gc_paused
from docsync.core.concurrent import gather_all
from docsync.core.context import PlanContext
from docsync.core.errors import PlanError, PlanProblems
from docsync.core.graph import link, order
from docsync.core.model import Action, NotPlanned, Plan, Unmanaged
from docsync.core.references import looks_renamed, removed_references
from docsync.core.state import LiveState
from docsync.engine.declared_secrets import declared_secrets
from docsync.engine.provenance import hide, holding
from docsync.engine.reading import ReadWatch
from docsync.kinds.kind import Kind, TopKind, top
from docsync.kinds.requests import ODD_PARTS, UNREAD, Reading, hidden
from docsync.manifest import LoadedManifest

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.manifest.models import Manifest

log = logging.getLogger(__name__)

#: what the plan relies on in an organization as the API answers it
ORGANIZATION = Obj({"id": ID, "title": Opt(TEXT)})


async def resolve_organization(api: ApiClient, wanted: str) -> dict[str, Any]:
    """The organization the manifest names, by id or title, among those the token can see.

    One list call: it returns whole organizations, so no further GET is needed."""
    orgs = await api.list_all("/v1/orgs", items=ORGANIZATION)
    by_id = [o for o in orgs if o.get("id") == wanted]
    if by_id:
        return by_id[0]
    by_title = [o for o in orgs if o.get("title") == wanted]
    if len(by_title) == 1:
        return by_title[0]
    if by_title:
        ids = ", ".join(str(o["id"]) for o in by_title)
        raise UnknownOrganization(f"{wanted!r} is ambiguous (ids {ids}): write its id instead")
    visible = ", ".join(f"{o.get('title')} ({o.get('id')})" for o in orgs) or "none"
    raise UnknownOrganization(
        f"organization {wanted!r} is not one the token can see; it can see: {visible}"
    )


class UnknownOrganization(PlanError):
    """The manifest names an organization the token cannot see (or several)."""


def _referenced(kinds: Sequence[Kind], wanted: set[str]) -> set[str]:
    """Kinds that wanted kinds refer to, transitively: they must be read to resolve names."""
    by_name = {k.name: k for k in kinds}
    out: set[str] = set()
    todo = list(wanted)
    while todo:
        kind = by_name.get(todo.pop())
        if kind is None:
            continue
        for target in {f.ref for f in kind.fields if f.ref} | set(kind.needs):
            if target not in out and target not in wanted:
                out.add(target)
                todo.append(target)
    return out


def _deleting(kinds: Sequence[Kind], manifest: Manifest | None) -> frozenset[str]:
    """Kinds this manifest could delete from: it prunes them, marks an entry absent, or writes
    a change that replaces one."""
    if manifest is None:
        return frozenset()
    return frozenset(
        k.name
        for k in kinds
        if not k.nested
        and (
            k.section in manifest.prune
            or any(
                getattr(e, "state", None) == "absent" or _may_replace(k, e)
                for e in _entries(manifest, k)
            )
        )
    )


def _entries(manifest: Manifest, kind: Kind) -> list[Any]:
    """The manifest's entries of a top-level kind (a singleton's one entry, when written)."""
    written = getattr(manifest, kind.section, None)
    if written is None:
        return []
    return list(written) if isinstance(written, list) else [written]


def _holders(kinds: Sequence[Kind], deleting: frozenset[str]) -> set[str]:
    """Kinds whose resources may refer to something this manifest could delete: read them too,
    so a delete that something still needs is caught while planning, not half-way through an
    apply."""
    return {k.name for k in kinds if not k.nested and _refers(kinds, k) & deleting}


def _refers(kinds: Sequence[Kind], top: Kind) -> set[str]:
    """The kinds `top`'s resources refer to, through the parts nested in them too (a site's
    site spaces publish spaces)."""
    within, refs = {top.name}, {f.ref for f in top.fields if f.ref}
    grown = True
    while grown:
        parts = [k for k in kinds if k.nested and k.name not in within]
        inner = [k for k in parts if set(k.declaration.parents) & within]
        within |= {k.name for k in inner}
        refs |= {f.ref for k in inner for f in k.fields if f.ref}
        grown = bool(inner)
    return {r for r in refs if r is not None}


def _may_replace(kind: Kind, entry: Any) -> bool:
    """An entry writing a field whose change replaces the resource (a site's `type`) may be
    replaced: deleted first, which what refers to it must allow."""
    written: set[str] = getattr(entry, "model_fields_set", set())
    return any(f.replace and f.name in written for f in kind.fields)


async def read_live(
    api: ApiClient,
    organization_ref: str,
    manifest: Manifest | None,
    kinds: Sequence[Kind],
    watch: ReadWatch | None = None,
) -> tuple[LiveState, list[TopKind]]:
    """Reads, concurrently, every kind the manifest needs (all of them, in full, without a
    manifest: for export); normalizes them in declaration order. `watch` follows the reads."""
    api.routes.add(route_ids(kinds))
    organization = await resolve_organization(api, organization_ref)
    live = LiveState(organization)
    deleting = _deleting(kinds, manifest)
    pruned = frozenset(
        k.name for k in kinds if manifest is not None and k.section in manifest.prune
    )
    tops = top(kinds)  # the kinds read on their own; a site's parts come with the site
    if manifest is None:
        direct = {k.name for k in tops}
    else:
        direct = set().union(*(k.reads(manifest) for k in tops)) | _holders(kinds, deleting)
    needed = direct | _referenced(kinds, direct)
    wanted = [k for k in tops if k.name in needed]
    watch = watch or ReadWatch()
    watch.start([k.section for k in wanted])

    async def fetch(kind: TopKind) -> Any:
        entries = None if manifest is None else _entries(manifest, kind)
        try:
            raw = await kind.fetch(Reading(api, live.org_id, entries, deleting, pruned))
        except ApiError as error:
            # The API hides the kind from the token's role, or answers its list otherwise than
            # docsync relies on: named, left out of the plan.
            why = hidden(error)
            if manifest is None or (why is None and not isinstance(error, OddAnswer)):
                raise  # export must read everything it writes
            if why is None:
                live.odd[kind.section] = f"{error.method} {error.path}: {error.message}"
            else:
                live.unread[kind.section] = why
            raw = None
        watch.finish(kind.section)
        return raw

    raws = await gather_all(*(fetch(k) for k in wanted))
    for kind, raw in zip(wanted, raws, strict=True):
        if kind.section in live.unread or kind.section in live.odd:
            continue
        for resource in kind.to_live(raw, live):
            live.add(resource)
            for part, why in resource.raw.get(UNREAD, {}).items():
                live.unread[f"{resource.address}.{part}"] = why
            for part, why in resource.raw.get(ODD_PARTS, {}).items():
                live.odd[f"{resource.address}.{part}"] = why
        live.fetched.add(kind.name)
    api.redact(declared_secrets(live))  # a server's error may repeat what it holds
    return live, wanted


def route_ids(kinds: Sequence[Kind]) -> dict[str, str]:
    """What the kinds' lists are called in paths, and their ids (`{"teams": "teamId"}`)."""
    return {
        routes.segment: routes.id_name
        for kind in kinds
        if (routes := kind.declaration.routes) is not None and routes.id_name
    }


def plan_kinds(
    loaded: LoadedManifest,
    live: LiveState,
    kinds: Sequence[Kind],
    *,
    resend_secrets: bool = False,
) -> PlanContext:
    """What the kinds plan, every entry known before any kind plans (a kind refers to entries
    of others); problems gathered, not raised, so that a test can look at them all."""
    ctx = PlanContext(loaded, live, resend_secrets=resend_secrets)
    for kind in top(kinds):
        for desired in kind.to_desired(ctx):
            ctx.desired.add(desired)
    for kind in top(kinds):
        # hidden from the token's role, or not as docsync relies on: not planned
        if kind.section not in live.unread and kind.section not in live.odd:
            kind.plan(ctx)
    leave_out_what_depends_on_the_unplanned(ctx)
    return ctx


def leave_out_what_depends_on_the_unplanned(ctx: PlanContext) -> None:
    """An action that needs a resource left out of the plan, which has no live id (an entry
    whose create was held back), or that sits under one, is left out too, named with why."""
    while True:
        missing = {a for a in ctx.unplanned if ctx.live_id_of(a) is None}
        dropped = [
            (action, needed)
            for action in ctx.actions
            if (needed := _needs_one_of(action, missing)) is not None
        ]
        if not dropped:
            return
        for action, needed in dropped:
            ctx.actions.remove(action)
            ctx.actions_at[action.address].remove(action)
            why = f"it needs {needed}, which is not planned"
            ctx.not_planned(action.address, action.location, why)


def _needs_one_of(action: Action, missing: set[str]) -> str | None:
    if not missing:
        return None
    parts = action.address.split("].")
    above = {"].".join(parts[:i]) + "]" for i in range(1, len(parts))}
    found = (set(action.payload.refs()) | above) & missing
    return min(found) if found else None


def diff(
    loaded: LoadedManifest,
    live: LiveState,
    kinds: Sequence[Kind],
    *,
    resend_secrets: bool = False,
) -> Plan:
    """The pure half of planning: no network, so it is tested without a server. A burst of
    allocation, made with the cycle collector paused (core.collector)."""
    with gc_paused():
        return _diff(loaded, live, kinds, resend_secrets)


def _diff(
    loaded: LoadedManifest, live: LiveState, kinds: Sequence[Kind], resend_secrets: bool
) -> Plan:
    ctx = plan_kinds(loaded, live, kinds, resend_secrets=resend_secrets)
    removed_references(ctx)
    singletons = {kind.name for kind in kinds if kind.declaration.singleton}
    ctx.problems += link(ctx.actions, live, set(ctx.known_ids.values()), singletons)
    if ctx.problems:
        raise PlanProblems(ctx.problems)
    plan = Plan(organization=live.org_id, actions=order(ctx.actions))
    plan.ids = {r.address: r.id for r in live.by_address.values()} | ctx.known_ids
    hide(plan.actions, loaded.secrets)
    plan.sensitive = set(ctx.sensitive_fields) | holding(live, loaded.secrets)
    plan.made_from = ctx  # what the renderers draw pictures from (docsync.render.pictures)
    plan.resend_secrets = resend_secrets
    plan.warnings += resent_secrets(plan.actions, ctx)
    plan.kept = list(ctx.kept)
    plan.unmanaged = [
        Unmanaged(r.kind, r.address, r.id, ctx.why_kept.get(r.address, "")) for r in ctx.unmanaged
    ]
    by_kind: dict[str, list[Action]] = defaultdict(list)
    for action in plan.actions:
        by_kind[action.kind].append(action)
    for kind in kinds:
        plan.warnings += kind.warnings(ctx, by_kind[kind.name])
    renamable = {k.name: k.declaration.key for k in kinds if k.declaration.renames}
    plan.warnings += looks_renamed(plan.actions, renamable)
    unread = sorted(live.unread.items())
    plan.warnings += [f"{what}: not read, so not planned: {why}" for what, why in unread]
    plan.not_planned = [NotPlanned(what, why) for what, why in sorted(live.odd.items())]
    plan.not_planned += [
        NotPlanned(what, why, where) for what, (where, why) in sorted(ctx.unplanned.items())
    ]
    return plan


def resent_secrets(actions: Sequence[Action], ctx: PlanContext) -> list[str]:
    """`--resend-secrets`: each action that sends a secret again says so; a plan in which
    none does says why."""
    if not ctx.resend_secrets:
        return []
    for action in actions:
        if action.address in ctx.resent:
            action.notes.append(
                "SECRETS SENT AGAIN (--resend-secrets): the API never answers them back, so "
                "the written ones are sent as they are now"
            )
    if ctx.resent:
        return []
    return [
        "--resend-secrets: nothing to send again: the manifests write no secret that the API "
        "keeps without answering it back"
    ]


async def make_plan(
    api: ApiClient,
    loaded: LoadedManifest,
    kinds: Sequence[Kind],
    watch: ReadWatch | None = None,
    *,
    resend_secrets: bool = False,
) -> tuple[Plan, LiveState]:
    try:
        organization = loaded.manifest.organization
        live, wanted = await read_live(api, organization, loaded.manifest, kinds, watch)
    except UnknownOrganization as error:
        where = loaded.location(("organization",))
        raise UnknownOrganization(f"{where}: {error}" if where else str(error)) from None
    plan = diff(loaded, live, wanted, resend_secrets=resend_secrets)
    await gather_all(*(kind.read_for_rails(api, plan, live) for kind in kinds))
    return plan, live

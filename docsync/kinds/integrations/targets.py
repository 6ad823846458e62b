"""An integration installation's sites and spaces (`integrations[].sites`, `.spaces`): each
written list is exact, keyed by the site's or space's key, planned by the one list planner under
its installation, one action per installation that changes (installed, configured, uninstalled).
Read as one list per installation and level. Both kinds are here, one declaration each; they
share everything else, their `execute` too (`install_on`).

Installing or uninstalling on a published site is flagged: an integration on a site runs its
scripts for every visitor."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from functools import partial
from typing import Any

from pydantic import RootModel

from docsync.api.answers import ANY, TEXT, Obj
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.entries import Model
from docsync.core.model import Action, address
from docsync.core.payloads import Payload, Ref
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.integrations.configuration import (
    configuration_changes,
    exported_configuration,
    holds,
    schema_properties,
)
from docsync.kinds.kind import ExportNames, Kind, Kinds, Path
from docsync.kinds.lists import Place, Steps, plan_list
from docsync.kinds.parts import Part
from docsync.kinds.requests import Reading, Routes, Writes, settle, unless_hidden, unread


class InstalledOn(Model):
    """An installation on one site or space; only the configuration keys written are managed."""

    configuration: dict[str, Any] | None = Api(create=False, secret_text=True).limits(default=None)
    """Its configuration there, as the integration's site or space schema takes it."""


@dataclass(frozen=True)
class Level:
    """Sites or spaces: the entry's field, the kind installed on, the request's body field."""

    field: str
    target: str
    kind: str
    body_field: str

    @property
    def slot(self) -> str:
        """Where the installation's item holds them as read (saved plans fingerprint it)."""
        return f"_{self.kind}s"

    def export(
        self, resource: LiveResource, live: LiveState, names: ExportNames
    ) -> dict[str, Any] | None:
        """Where the installation is, by name, with each one's configuration."""
        found = resource.raw.get(self.slot)
        if found is None:
            return None
        out: dict[str, Any] = {}
        for item in found:
            target = live.by_id.get((self.target, str(item[self.target])))
            if target is None:
                continue
            shown = names.name(target.address)
            at = f"{self.field}.{target.key}"
            configuration = exported_configuration(
                item.get("configuration") or {}, resource.address, names, at
            )
            out[shown] = {"configuration": configuration} if configuration else {}
        return out


SITES = Level("sites", "site", "integration_site", "siteId")
SPACES = Level("spaces", "space", "integration_space", "space")
LEVELS = (SITES, SPACES)
#: each level by the name of its kind
LEVEL = {level.kind: level for level in LEVELS}


def on_answer(level: Level) -> Obj:
    """What docsync relies on in one installation on a site or space."""
    return Obj({level.target: TEXT, "configuration": ANY})


def on_routes(level: Level) -> Routes:
    """Where an installation's sites or spaces are: a list per installation, an item by the
    site's or space's id; installing again where it is installed answers that installation."""
    where = f"/v1/integrations/{{integration}}/installations/{{installation}}/{level.field}"
    return Routes(where, item=f"{where}/{{id}}", create_retry_safe=True)


async def read_levels(
    kinds: Kinds, read: Reading, item: dict[str, Any], written: dict[Any, Any], pruned: bool
) -> None:
    """An installation's sites and spaces into its item's slots (`Level.slot`), each level
    listed by its kind: those its entry writes (every level of one the plan may uninstall, an
    entry written absent or none when integrations are pruned, to say what goes with it), or
    all (export)."""
    entry = written.get(item["name"])
    gone = getattr(entry, "state", None) == "absent" or (entry is None and pruned)
    for level in LEVELS:
        if read.everything or gone or getattr(entry, level.field, None) is not None:
            listed = kinds.named(level.kind).send(
                read.api, "list", integration=item["name"], installation=item["id"]
            )
            await unless_hidden(item, level.field, _into(item, level.slot, listed))


async def _into(item: dict[str, Any], slot: str, listed: Awaitable[Any]) -> None:
    item[slot] = await listed


def configuration_texts(item: dict[str, Any]) -> list[str]:
    """The text values of an installation's configurations as read (its own, and on each site
    and space read): what a request may send back and a server's message may echo."""
    configurations = [item.get("configuration")] + [
        on.get("configuration") for level in LEVELS for on in item.get(level.slot) or ()
    ]
    return [
        v for c in configurations if isinstance(c, dict) for v in c.values() if isinstance(v, str)
    ]


@dataclass
class Installed(Payload):
    """An installation on one site or space: where (the integration, its installation, the
    site or space: ids, or placeholders of what this apply makes) and the configuration sent
    (whole: the live one with the keys written), None when it writes none."""

    integration: str = ""
    installation: Ref = None
    target: Ref = None
    configuration: dict[str, Any] | None = None


@dataclass
class _Wanted:
    """What a desired installation on a site or space needs beyond its fields."""

    integration: str
    installation: Ref
    target: Ref
    published: bool
    path: Path


async def install_on(kind: Part, action: Action, run: RunContext) -> None:
    """An install, then its configuration; or an uninstall, by the routes of `kind` (its
    level's). Each is sent again when its answer is lost (installing where it is installed
    answers that installation), and when every answer was lost, read back: done when the
    level's list holds what it wrote."""
    payload = action.payload
    assert isinstance(payload, Installed)
    target, level = run.resolve(payload.target), LEVEL[kind.name]
    at = {"integration": payload.integration, "installation": run.resolve(payload.installation)}

    async def held() -> dict[str, Any] | None:
        found = await kind.send(run.api, "list", **at)
        return next((i for i in found if str(i[level.target]) == str(target)), None)

    if action.verb == "create":
        body = {level.body_field: target}
        await settle(partial(kind.send, run.api, "create", body, **at), lambda: _there(held()))
    if action.verb == "delete":
        await kind.send(run.api, "delete", id=target, **at)
    elif payload.configuration:
        sent = payload.configuration
        body = {"configuration": sent}
        await settle(
            partial(kind.send, run.api, "update", body, id=target, **at),
            lambda: _configured(held(), sent),
        )


async def _there(found: Awaitable[dict[str, Any] | None]) -> bool:
    return await found is not None


async def _configured(found: Awaitable[dict[str, Any] | None], sent: dict[str, Any]) -> bool:
    """Whether an installation read back holds the configuration sent."""
    return holds((await found or {}).get("configuration"), sent)


def _steps(kind: Kind, wanted: dict[str, _Wanted]) -> Steps:
    """The steps of one level's list: where each entry installs is in `wanted`, by address."""
    configured = kind.field("configuration")

    def create(desired: DesiredResource, at: Place) -> Action | None:
        on = wanted[desired.address]
        written = desired.fields.get("configuration")
        path = (*on.path, "configuration")
        changes = configuration_changes(written, {}, path, at.ctx, True, configured, {})
        payload = Installed(on.integration, on.installation, on.target, written)
        action = Action("create", kind.name, desired.address, changes, at.ctx.where(on.path))
        action.payload = payload
        if on.published:
            _flag(action, f"installs {on.integration} on a published site")
        return at.ctx.add(action)

    def update(desired: DesiredResource, live: LiveResource, at: Place) -> Action | None:
        on = wanted[desired.address]
        before = live.fields.get("configuration") or {}
        written = desired.fields.get("configuration")
        path = (*on.path, "configuration")
        properties = schema_properties(at.ctx, on.integration, LEVEL[kind.name].target)
        changes = configuration_changes(
            written, before, path, at.ctx, False, configured, properties
        )
        if not changes:
            return None
        merged = {**before, **(written or {})}
        payload = Installed(on.integration, on.installation, on.target, merged)
        where = at.ctx.where(on.path)
        return at.ctx.add(
            Action("update", kind.name, desired.address, changes, where, live.id, payload=payload)
        )

    def delete(live: LiveResource, desired: DesiredResource | None, at: Place) -> Action | None:
        raw = live.raw
        payload = Installed(str(raw["integration"]), raw["installation"], live.id)
        action = Action("delete", kind.name, live.address, [], live_id=live.id, payload=payload)
        if raw.get("_published"):
            _flag(action, f"removes {raw['integration']} from a published site")
        return at.ctx.add(action)

    return Steps(create, update, delete)


def _flag(action: Action, what: str) -> None:
    action.notes.append(f"SECURITY CHANGE: {what} (its scripts run for every visitor)")
    action.security_change = True


def _published(target: str, ident: str | None, where: str, ctx: PlanContext) -> bool:
    if target != "site":
        return False
    desired = ctx.desired.by_address.get(where)
    written = getattr(desired.entry, "published", None) if desired is not None else None
    if written is not None:
        return bool(written)
    live = ctx.live.by_id.get(("site", ident or ""))
    return bool(live is not None and live.raw.get("published"))


def plan_levels(desired: DesiredResource, ctx: PlanContext, kinds: Kinds) -> None:
    """The sites and spaces an installation entry writes, each list planned under it."""
    live_id = ctx.known_ids.get(desired.address)
    live = ctx.live.by_id.get(("integration", live_id)) if live_id else None
    installation = live_id or ref(desired.address)
    for level in LEVELS:
        held = getattr(desired.entry, level.field, None)
        if held is None or (live is not None and unread(live.raw, level.field)):
            continue  # not written, or hidden from the token's role (the plan names it)
        written = held.root
        kind = kinds.named(level.kind)
        have = _live_side(level, live, desired.address, ctx)
        base: Path = (*desired.path, level.field)
        want = []
        wanted: dict[str, _Wanted] = {}
        for name, on in written.items():
            where = ctx.resolve(level.target, name, (*base, name))
            if where is None:
                continue
            target = ctx.desired.by_address.get(where) or ctx.live.by_address.get(where)
            key = target.key if target is not None else name
            ident = ctx.live_id_of(where)
            wire = ident or ref(where)
            fields = {"configuration": on.configuration} if on and on.configuration else {}
            published = _published(level.target, ident, where, ctx)
            own = address(level.target, key, desired.address)
            wanted[own] = _Wanted(desired.key, installation, wire, published, (*base, name))
            want.append(DesiredResource(kind.name, key, own, key, fields, base, entry=on))
        steps = _steps(kind, wanted)
        plan_list(kind.declaration, steps, want, have, Place(ctx, container=desired.address))


def _live_side(
    level: Level, live: LiveResource | None, owner: str, ctx: PlanContext
) -> list[LiveResource]:
    """One level's live installations, keyed by the name the plan gives each site or space (a
    site renamed with `was:` keeps its installation), addressed by the name it has."""
    out = []
    for item in (live.raw.get(level.slot) if live is not None else None) or []:
        ident = str(item[level.target])
        target = ctx.live.by_id.get((level.target, ident))
        key = ctx.key_after(level.target, ident) or ident
        raw = {
            **item,
            "integration": live.key if live else "",
            "installation": live.id if live else "",
            "_published": level.target == "site" and bool(target and target.raw.get("published")),
        }
        fields = {"configuration": item.get("configuration") or {}}
        own = address(level.target, target.key if target is not None else ident, owner)
        out.append(LiveResource(level.kind, ident, key, own, key, fields, raw))
    return out


def uninstalled_with(action: Action, live: LiveResource, ctx: PlanContext) -> None:
    """What an uninstall takes with it (the API removes its site and space installations),
    flagged when a published site is among them."""
    for level in LEVELS:
        have = _live_side(level, live, live.address, ctx)
        if not have:
            continue
        names = ", ".join(r.key for r in have)
        action.takes_away(f"uninstalls it from its {level.field} too: {names}")
        if any(r.raw["_published"] for r in have):
            _flag(action, f"removes {live.key} from a published site")


# An integration installation's sites (`integrations[].sites`, by title): when written, exact;
# each installation there with its own configuration (only the keys written managed). Planned
# under its installation (`targets.py`).
class SiteInstallation(InstalledOn):
    """An integration installed on one site; only the configuration keys written are managed."""


class SiteInstallations(RootModel[dict[str, SiteInstallation | None]]):
    """The sites an integration is installed on, each with its configuration; exact."""


INTEGRATION_SITE = Declaration(
    SITES.kind,
    "sites",
    "site installation",
    key="site",
    key_names=("site",),
    parents=("integration",),
    mapped=True,
    exact=True,
    entry=SiteInstallations,
    routes=on_routes(SITES),
    answer=on_answer(SITES),
    # an install, a PATCH and an uninstall are each sent again as they are (installing again
    # where it is installed answers that installation)
    writes=(Writes(),),
)


# Each level's kind is a `Part` of its installation, not a `ListPart`: an installation on a site
# or space is an action of its own (an install, a configuration, an uninstall, each settled when
# its answer is lost, flagged on a published site), where a `ListPart`'s changes are gathered
# into one action of its holder (`ListPart.changes`, `holder_action`); and its entries are a
# mapping keyed by the site or space, not a list of keyed items. The two kinds differ by their
# declaration alone (and the `Level` it names): one `execute`, `install_on`.
class IntegrationSiteKind(Part):
    declaration = INTEGRATION_SITE

    async def execute(self, action: Action, run: RunContext) -> None:
        await install_on(self, action, run)


# An integration installation's spaces (`integrations[].spaces`, by title or
# `Collection/Space`): when written, exact; each installation there with its own configuration
# (only the keys written managed). Planned under its installation (`targets.py`).
class SpaceInstallation(InstalledOn):
    """An integration installed on one space; only the configuration keys written are managed."""


class SpaceInstallations(RootModel[dict[str, SpaceInstallation | None]]):
    """The spaces an integration is installed on, each with its configuration; exact."""


INTEGRATION_SPACE = Declaration(
    SPACES.kind,
    "spaces",
    "space installation",
    key="space",
    key_names=("space",),
    parents=("integration",),
    mapped=True,
    exact=True,
    entry=SpaceInstallations,
    routes=on_routes(SPACES),
    answer=on_answer(SPACES),
    # an install, a PATCH and an uninstall are each sent again as they are (installing again
    # where it is installed answers that installation)
    writes=(Writes(),),
)


class IntegrationSpaceKind(Part):
    declaration = INTEGRATION_SPACE

    async def execute(self, action: Action, run: RunContext) -> None:
        await install_on(self, action, run)

"""The organization's integration installations, keyed by the integration's name: installed
(`POST /v1/integrations/{integration}/installations`), configured (its `configuration`, only
the keys written managed, each shown on its own), uninstalled (which takes its site and space
installations with it). Its installations on sites and spaces are kinds of their own
(`targets.py`), planned here, under each entry.

A configuration value is a secret when the manifest reads it with `env()`, or when it is live
text not known to be plain (`Field.secret_text`: a key and a label are both text): shown
`(sensitive)` at its path, kept out of saved plans (a keyed digest) and out of the client's
messages, and export writes every text value as an `env()` placeholder."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from pydantic import model_validator

from docsync.api.answers import ANY, ID, ODD, TEXT, Listed, Obj, Opt, odd_items
from docsync.api.contract import AS_NULL, NOT_CONFIGURATION, STRUCTURE, Note, Said, Seed
from docsync.core.checking import CheckView, Item
from docsync.core.concurrent import gather_all
from docsync.core.context import PlanContext, RunContext
from docsync.core.entries import Entry
from docsync.core.model import Action, FieldChange
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.changes import field_changes, fields_of
from docsync.kinds.crud import CrudKind
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.integrations.checks import check_installed_on
from docsync.kinds.integrations.configuration import (
    configuration_changes,
    exported_configuration,
    holds,
    schema_properties,
)
from docsync.kinds.integrations.schemas import BY_NAME, check_configurations, schemas_of
from docsync.kinds.integrations.targets import (
    LEVELS,
    SITES,
    SiteInstallations,
    SpaceInstallations,
    configuration_texts,
    plan_levels,
    read_levels,
    uninstalled_with,
)
from docsync.kinds.kind import ExportNames
from docsync.kinds.lists import Place, Steps
from docsync.kinds.requests import (
    ORGANIZATION,
    Found,
    Lose,
    Lost,
    LostAnswers,
    Reading,
    Route,
    Routes,
    Writes,
    create_once,
    settle,
)

if TYPE_CHECKING:
    from docsync.core.loaded import ManifestDoc

#: production's integration name
NAME_PATTERN = r"^[a-zA-Z0-9-_.]+$"
Configuration = dict[str, Any]
#: production's IntegrationInstallationSiteSelection and ...SpaceSelection
Selection = Literal["all", "selected"]
SELECTIONS = ("site_selection", "space_selection")


class IntegrationEntry(Entry):
    """An integration installed on the organization, keyed by its name."""

    name: str | None = Api(create=False, update=False).limits(default=None, pattern=NAME_PATTERN)
    """The integration's name (`google-analytics`)."""
    configuration: Configuration | None = Api(create=False, secret_text=True).limits(default=None)
    """Its configuration on the organization; only the keys written are managed; a value from
    env() is a secret."""
    sites: SiteInstallations | None = None
    """The sites it is installed on, by title; when written, exact."""
    spaces: SpaceInstallations | None = None
    """The spaces it is installed on, by title or `Collection/Space`; when written, exact."""
    site_selection: Selection | None = Api(create=False, api_default=("all",)).limits(default=None)
    """`all`: it reaches every site; `selected`: only those it is installed on (`sites`)."""
    space_selection: Selection | None = Api(create=False, api_default=("all",)).limits(default=None)
    """`all`: it reaches every space; `selected`: only those it is installed on (`spaces`)."""

    @model_validator(mode="after")
    def _all_or_listed(self) -> IntegrationEntry:
        for level, selection in (("sites", "site_selection"), ("spaces", "space_selection")):
            if getattr(self, selection) == "all" and getattr(self, level) is not None:
                raise ValueError(
                    f"`{selection}: all` reaches every one of its {level}, which `{level}` "
                    f"would list one by one: write one or the other"
                )
        return self


#: one item of the organization's installations, as docsync relies on it
LISTED = Obj(
    {
        "installation": Obj({"id": ID, "configuration": ANY}),
        "integration": Obj({"name": TEXT, "configurations": Opt(ANY)}),
    }
)


# What it says of production's document for itself and its installations on sites and spaces
# (`targets.py`), which it plans; the scenario where their answers are lost.
INSTALLATIONS = "/v1/integrations/{integration}/installations"
ON = f"{INSTALLATIONS}/{{id}}/%s"
EXTERNAL_IDS = 'ids the integration assigns ("External IDs assigned by the integration")'
GA = "/v1/integrations/google-analytics/installations"
NOT_WRITTEN = "null writes no configuration: the request is not sent"
CONTRACT: tuple[Said, ...] = (
    Note(STRUCTURE, f"POST {INSTALLATIONS}", "organization", "the manifest's `organization`"),
    *(
        Note(NOT_CONFIGURATION, f"PATCH {path}", "externalIds", EXTERNAL_IDS)
        for path in (f"{INSTALLATIONS}/{{id}}", *(f"{ON % lv.field}/{{x}}" for lv in LEVELS))
    ),
    *(Note(AS_NULL, f"PATCH {ON % lv.field}/{{x}}", "configuration", NOT_WRITTEN) for lv in LEVELS),
    Note(STRUCTURE, f"POST {ON % SITES.field}", SITES.body_field, "by title"),  # a space's: its key
    Seed("POST", GA, {"organization": "{org}"}, "ga"),
    Seed("PATCH", f"{GA}/{{ga}}", {"configuration": {"tracking_id": "G-FUZZ"}}),
    Seed("POST", f"{GA}/{{ga}}/sites", {"siteId": "{site}"}),
    Seed("POST", f"{GA}/{{ga}}/spaces", {"space": "{guides}"}),
)
INSTALLED = ORGANIZATION + "spaces: [{title: Guides}]\nsites: [{title: Docs}, {title: Blog}]\n"
ANALYTICS = """integrations:
  - name: google-analytics
    configuration: {tracking_id: %s}
    sites: {Docs: {configuration: {anonymize: true}}%s}
    spaces: {Guides: {configuration: {label: %s}}}
"""
TARGETS = "/installations/[^/]+/(sites|spaces)"
#: every answer of an installation's writes lost, as many times as the client sends one (5):
#: each was carried out, and the apply reads back what it wrote instead of failing (an
#: installation on a site was left without its configuration, and the apply FAILED)
EVERY_ANSWER = tuple(
    Lose(verb, f"/installations/[^/]+{path}$", 5)
    for verb, path in (("PATCH", ""), ("POST", "/sites"), ("PATCH", "/sites/[^/]+"))
)
LOST = LostAnswers(
    "integrations",
    INSTALLED,
    (
        Lost(
            INSTALLED + ANALYTICS % ("G-1", ", Blog: {}", "hb"),
            (
                Lose("POST", "/installations$", carried_out=False),
                Lose("POST", "/installations$"),
                Lose("PATCH", "/installations/[^/]+$"),
                Lose("POST", f"{TARGETS}$", 2),
                Lose("PATCH", f"{TARGETS}/[^/]+$", 2),
            ),
        ),
        Lost(
            INSTALLED + ANALYTICS % ("G-2", "", "guides"),
            (
                Lose("PATCH", "/installations/[^/]+$"),
                Lose("DELETE", f"{TARGETS}/[^/]+$"),
                Lose("PATCH", f"{TARGETS}/[^/]+$"),
            ),
        ),
        Lost(
            INSTALLED + "integrations: [{name: google-analytics, state: absent}]\n",
            (Lose("DELETE", "/installations/[^/]+$"),),
        ),
        Lost(INSTALLED + ANALYTICS % ("G-1", "", "hb"), EVERY_ANSWER),
        Lost(
            INSTALLED + ANALYTICS % ("G-2", ", Blog: {configuration: {sample_rate: 5}}", "hb"),
            EVERY_ANSWER,
        ),
    ),
    covers=("integration_site", "integration_space"),
)

INTEGRATION = Declaration(
    "integration",
    "integrations",
    "integration",
    key="name",
    needs=("site", "space"),
    export_file="org.yaml",
    entry=IntegrationEntry,
    routes=Routes(
        "/v1/orgs/{org}/installations",
        item=f"{INSTALLATIONS}/{{id}}",
        id_name="installationId",
        create=None,  # installed by its integration's name, not in the organization's list
        more={"install": Route("POST", INSTALLATIONS), "integration": BY_NAME},
    ),
    writes=(
        Writes(
            found_by=Found(
                "listed again: the organization's installation of the integration",
                key_at="integration.name",
                id_at="installation.id",
            )
        ),
    ),
    lost_answers=(LOST,),
    contract=CONTRACT,
    roles=("read", "admin"),
    answer=LISTED,
)


class IntegrationKind(CrudKind):
    declaration = INTEGRATION

    def reads(self, manifest: ManifestDoc) -> set[str]:
        """Itself, and the sites and spaces its entries install on."""
        written = getattr(manifest, self.section, None) or []
        named = {level.target for level in LEVELS if any(getattr(e, level.field) for e in written)}
        return super().reads(manifest) | named

    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        """The sites and spaces each entry installs on: none the manifest deletes, or prunes
        away from under it (`checks.py`)."""
        levels = [(level.field, self.kinds.named(level.target).declaration) for level in LEVELS]
        check_installed_on(view, items, levels)

    async def fetch(self, read: Reading) -> Any:
        """The installations, and, for each whose entry writes `sites` or `spaces` (every one
        for an export), its installations there: one list per installation and level. Beside
        them, the schemas of the configurations of each integration written (one read by name
        of each not installed yet), which planning checks the configurations against."""
        listed = await self.listed(read.api, read.org_id)
        items = Listed(
            [_installed(pair) for pair in listed], [_installed(pair) for pair in odd_items(listed)]
        )
        written = {e.name: e for e in read.entries or ()}
        pruned = self.name in read.pruned
        await gather_all(*(read_levels(self.kinds, read, item, written, pruned) for item in items))
        read.api.redact(text for item in items for text in configuration_texts(item))
        schemas = {p["integration"]["name"]: p["integration"].get("configurations") for p in listed}
        unread = sorted(
            name
            for name, entry in written.items()
            if name and name not in schemas and entry.state != "absent"  # nothing to check
        )
        reads = (self.send(read.api, "integration", integration=n) for n in unread)
        found = await gather_all(*(schemas_of(r) for r in reads))
        schemas |= {name: s for name, s in zip(unread, found, strict=True) if s is not None}
        return {"items": items, "schemas": schemas}

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        live.read_aside[self.name] = {k: v or {} for k, v in raw["schemas"].items()}
        return self.live_resources(raw["items"], live, key=lambda item, _: str(item["name"]))

    def plan(self, ctx: PlanContext) -> None:
        """The installations (configured one key at a time), then their sites and spaces under
        each entry that writes them."""
        check_configurations(self.name, ctx)
        steps = Steps(self._installed, self._configured, self._uninstalled)
        if self.plan_entries(ctx, steps) is not None:
            for desired in ctx.desired.by_kind[self.name]:
                if not desired.absent:
                    plan_levels(desired, ctx, self.kinds)

    def _changes(
        self, desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
    ) -> list[FieldChange]:
        """One change per configuration key written that differs, at its path (a secret one
        named there and shown `(sensitive)`), and each selection written that differs."""
        selections = [f for f in self.fields if f.name in SELECTIONS]
        chosen = field_changes(selections, desired, live, ctx)
        written = desired.fields.get("configuration")
        if written is None:
            return chosen
        before = (live.fields.get("configuration") if live else None) or {}
        path = (*desired.path, "configuration")
        if any(ctx.sensitive((*path, key)) for key in written):
            ctx.sensitive_fields.add((desired.address, "configuration"))
            if live is not None:
                ctx.sensitive_fields.add((live.address, "configuration"))
        properties = schema_properties(ctx, desired.key, "account")
        field = self.field("configuration")
        found = configuration_changes(written, before, path, ctx, live is None, field, properties)
        return found + chosen

    def _installed(self, desired: DesiredResource, at: Place) -> Action | None:
        changes = self._changes(desired, None, at.ctx)
        action = Action("create", self.name, desired.address, changes, at.ctx.where(desired.path))
        action.payload = self.written(desired)
        return at.ctx.add(action)

    def _configured(self, desired: DesiredResource, live: LiveResource, at: Place) -> Action | None:
        """The configuration sent whole (the live one with the keys written), and the
        selections that change."""
        changes = self._changes(desired, live, at.ctx)
        if not changes:
            return None
        fields = {c.field: c.after for c in changes if c.field in SELECTIONS}
        if any(c.field not in SELECTIONS for c in changes):  # a key of its configuration
            live_configuration = live.fields.get("configuration") or {}
            fields["configuration"] = {**live_configuration, **desired.fields["configuration"]}
        payload = self.payload_type(key=desired.key, fields=fields)
        where = at.ctx.where(desired.path)
        return at.ctx.add(
            Action("update", self.name, desired.address, changes, where, live.id, payload=payload)
        )

    def _uninstalled(
        self, live: LiveResource, desired: DesiredResource | None, at: Place
    ) -> Action | None:
        """An uninstall, which takes its site and space installations with it."""
        action = self.plan_delete(live, desired, at)
        if action is not None:
            action.changes = [c for c in action.changes if c.field == "name"]
            uninstalled_with(action, live, at.ctx)
        return action

    async def execute(self, action: Action, run: RunContext) -> None:
        payload = fields_of(action)
        name, fields = payload.key, run.resolve(payload.fields)
        if action.verb == "create":

            async def install() -> str:
                body = {"organization": run.org_id}
                made = await self.send(run.api, "install", body, integration=name)
                return str(made["id"])

            new_id = await create_once(install, lambda: self.find(action, run))
            run.ids[action.address] = new_id
            body = {k: v for k, v in fields.items() if k != "configuration" or v}
            await self._configure(name, new_id, self.body(body, creating=False), run)
        elif action.verb == "update":
            assert action.live_id is not None
            await self._configure(name, action.live_id, self.body(fields, creating=False), run)
        elif action.verb == "delete":
            await self.send(run.api, "delete", integration=name, id=action.live_id)
        else:
            raise ValueError(f"{self.name} cannot {action.verb}")

    async def _configure(
        self, integration: str, ident: str, body: dict[str, Any], run: RunContext
    ) -> None:
        """One PATCH of the whole configuration and the selections written (nothing when
        neither is); when every answer was lost, the installation is read back, and the PATCH
        is done when it holds what was sent (`settle`)."""
        if not body:
            return

        async def done() -> bool:
            listed = await self.listed(run.api, run.org_id)
            found = [p["installation"] for p in listed if str(p["installation"]["id"]) == ident]
            sent = {**body.get("configuration", {})}
            chosen = {k: v for k, v in body.items() if k in SELECTIONS}
            return (
                bool(found)
                and holds(found[0].get("configuration"), sent)
                and holds(found[0], chosen)
            )

        update = partial(self.send, run.api, "update", body, integration=integration, id=ident)
        await settle(update, done)

    def export(self, live: LiveState, names: ExportNames) -> Any:
        def entry(resource: LiveResource) -> dict[str, Any]:
            out: dict[str, Any] = {"name": resource.name}
            configuration = exported_configuration(
                resource.fields.get("configuration") or {}, resource.address, names
            )
            if configuration:
                out["configuration"] = configuration
            for level, selection in zip(LEVELS, SELECTIONS, strict=True):
                installed = level.export(resource, live, names)
                if installed is not None:
                    out[level.field] = installed
                if resource.fields.get(selection) == "selected":  # `all`: the default
                    out[selection] = "selected"
            return out

        return self.export_entries(live, names, entry)


def _installed(pair: dict[str, Any]) -> dict[str, Any]:
    """An installation as listed with its integration's name (`name`), the key of its entry;
    one the API answered otherwise keeps what can be read of it, and why."""
    installation, integration = pair.get("installation"), pair.get("integration")
    item = dict(installation) if isinstance(installation, dict) else {}
    if isinstance(integration, dict) and isinstance(integration.get("name"), str):
        item["name"] = integration["name"]
    if ODD in pair:
        item[ODD] = pair[ODD]
    return item

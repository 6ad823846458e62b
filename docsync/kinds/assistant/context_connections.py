"""What a site's assistant reads (production's site context connections: a website, a YouTube
channel, GitHub discussions or issues, a support desk, an integration's source): read as one
list per site, matched by `label`, exact once written, written by one action per site (deletes,
then updates, then creates) as a `ListPart` a site holds; what changes of each is
`connection_changes`'s. Used by the site kind.

Production's create takes no label: docsync sets it by a PATCH once the connection is made, and
a live connection without one, of an entry's connector and setup, is taken as that entry's (made
by an apply that could not label it, or in the app). A connection deleted takes what the
assistant read from it: flagged. An integration's connection is created once that integration
is installed, and names one this manifest installs. Tokens and keys among the settings
(`connectors.SECRETS`) are secrets: never shown, logged or exported; the API answers them
masked, so a written one is taken as there while the API holds one (as a write-only field is)
and sent with every setup the plan writes. A connection's sync and test are never run.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from docsync.api.answers import ANY, TEXT, Opt
from docsync.api.contract import MIN_LENGTH, NATURAL_KEY, OWN_CHECK, SHAPE, Note, Seed
from docsync.core.checking import CheckView, Item, did_you_mean, is_absent
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.entries import Model
from docsync.core.model import Action, FieldChange, address
from docsync.core.nullability import NullChecked
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.assistant import connection_changes as change
from docsync.kinds.assistant.connection_changes import SECTION
from docsync.kinds.assistant.connectors import (
    CONNECTOR_PATTERN,
    SECRETS,
    check_setup,
    integration_of,
)
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.kind import ExportNames
from docsync.kinds.nested.parts import (
    PlannedItems,
    SiteItems,
    SitePart,
    at_site,
    send_under,
    under_site,
)
from docsync.kinds.parts import ListPart
from docsync.kinds.requests import ORGANIZATION, Lose, Lost, LostAnswers, Routes, Writes

if TYPE_CHECKING:
    from docsync.api import ApiClient

FOUND_BY = (
    "listed again: a connection without a label, of the connector and the setup it sent "
    "(the label is set once it is found)"
)
SettingValue = str | dict[str, str]


class ContextUsageSettings(NullChecked, Model):
    """How the site's assistant uses what a connection reads (production's
    ContextUsageSettings)."""

    changeRequests: bool
    """Propose change requests from what it reads."""
    search: bool
    """Show its records in search results."""
    sync: bool | None = None
    """Sync change requests' state back to the source (needs a token or role that writes)."""
    searchBoost: Literal["x0.8", "x1.0", "x1.2"]
    """How its records rank in search, relative to the others."""


class ContextConnectionEntry(NullChecked, Model):
    """One source of a site's assistant, keyed by `label`."""

    # set by a PATCH once made: the create takes none
    label: str = Api(create=False, answer=Opt(TEXT)).limits(min_length=1, max_length=128)
    """The connection's name, its key (docsync sets it once the connection is made)."""
    connector: str = Api(answer=TEXT).limits(pattern=CONNECTOR_PATTERN)
    """What it reads: `builtin:website`, `builtin:github-discussions`... or
    `integration:<name>`, an integration this manifest installs."""
    # no answer relied on: its settings, which some connectors have, are read where they are
    setupSettings: dict[str, SettingValue] | None = Api(secret_keys=SECRETS).limits(default=None)
    """The connector's settings, whole (production's ContextConnectorSetup); tokens and keys
    are secrets: write them with env()."""
    usageSettings: ContextUsageSettings | None = Api(answer=ANY).limits(default=None)
    """How the assistant uses it; absent: as it is."""
    filter: str | None = Api(answer=Opt(TEXT)).limits(default=None, max_length=1024)
    """Which items of the source it reads (a tag, a label, an expression); `""`: all."""


def _written(entry: Any) -> dict[str, Any]:
    """An entry as plain values: what it writes."""
    written: dict[str, Any] = entry.model_dump(exclude_none=True, exclude={"was"})
    return written


class ContextConnections(SiteItems):
    """A site's connections to write (`parts.SiteItems`)."""


CONNECTIONS = "/v1/orgs/{org}/sites/{site}/context-connections"
SETUP = (
    "production's ContextConnectorSetup, a choice of 15 setups: the connector is checked "
    "offline with its settings (docsync/kinds/assistant/connectors.py), which "
    "tests/contract/test_connectors.py holds to production's schema"
)
CONTRACT = (
    Note(MIN_LENGTH, f"PATCH {CONNECTIONS}/{{id}}", "label", NATURAL_KEY),
    Note(SHAPE, f"PATCH {CONNECTIONS}/{{id}}", "connector", SETUP),
    Note(SHAPE, f"PATCH {CONNECTIONS}/{{id}}", "setupSettings", SETUP),
    Note(
        OWN_CHECK,
        f"POST {CONNECTIONS}",
        "",
        "a context connection's create is production's allOf [ContextConnectorSetup, "
        "{usageSettings, filter}]: its setup is checked offline with its settings "
        "(connectors.py), and tests/contract/test_connectors.py holds the whole body to "
        "production's schema",
    ),
    Seed(
        "POST",
        CONNECTIONS,
        {"connector": "builtin:website", "setupSettings": {"url": "https://acme.example"}},
    ),
)
SOURCES = ORGANIZATION + "sites:\n  - title: Docs\n"
CONNECTED = """\
    contextConnections:
      - {label: Status, connector: builtin:website, setupSettings: {url: "https://status.example"}}
      - label: Issues
        connector: builtin:github-issues
        setupSettings: {repository: acme/docs, token: token-1}
    channels:
      - {type: "builtin:slack", setupSettings: {allowedChannels: [help]}}
      - {type: "builtin:discord", role: collaborator}
"""
#: what the site's assistant reads, and its channels (`channels`), their answers lost
LOST = LostAnswers(
    "site sources",
    SOURCES,
    (
        Lost(
            SOURCES + CONNECTED,
            (
                Lose("POST", "/context-connections$"),
                Lose("POST", "/context-connections$", carried_out=False),
                Lose("PATCH", "/context-connections/[^/]+$"),
                Lose("POST", "/channels$"),
                Lose("POST", "/channels$", carried_out=False),
            ),
        ),
        Lost(
            SOURCES
            + CONNECTED.replace("status.example", "status.example/v2").split(
                "      - label: Issues"
            )[0]
            + '    channels: [{type: "builtin:slack", role: collaborator}]\n',
            (
                Lose("PATCH", "/context-connections/[^/]+$"),
                Lose("DELETE", "/context-connections/[^/]+$"),
                Lose("PATCH", "/channels/[^/]+$"),
                Lose("DELETE", "/channels/[^/]+$"),
            ),
        ),
    ),
    covers=("channel",),
)

CONTEXT_CONNECTION = Declaration(
    "context_connection",
    SECTION,
    "context connection",
    key="label",
    renames=True,
    parents=("site",),
    part=True,
    exact=True,
    entry=ContextConnectionEntry,
    routes=Routes(CONNECTIONS, id_name="siteContextConnectionId"),
    describe=(
        "What the site's assistant reads, keyed by label; when written, the exact list. Tokens "
        "and keys of a connection's settings are secrets docsync never shows or exports."
    ),
    writes=(Writes(found_by=FOUND_BY),),
    lost_answers=(LOST,),
    contract=CONTRACT,
)


class ContextConnectionKind(ListPart, SitePart):
    declaration = CONTEXT_CONNECTION
    part_payload = ContextConnections

    async def fetch(self, api: ApiClient, site: dict[str, Any], site_path: str) -> None:
        """Every connection of a site into `site["_contextConnections"]`, a secret as HELD (a
        value the API answers in clear is never kept, nor repeated by the client's messages)."""
        found = await send_under(api, self.route("list"), site_path)
        api.redact(
            str(value)
            for item in found
            if isinstance(item.get("setupSettings"), dict)
            for name, value in item["setupSettings"].items()
            if name in SECRETS and value
        )
        site[f"_{SECTION}"] = [change.kept(item) for item in found]

    def plan(
        self, desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
    ) -> Action | None:
        """One update of the site's connections when the written list differs from the live
        one: connections not written are deleted (the list is exact, and each deleted one is a
        loss), changed ones patched, new labels created, then labelled. An integration's
        connection waits for that integration's installation."""

        def at(label: str) -> str:
            return address(self.name, label, desired.address)

        def compared(entry: Any) -> dict[str, Any]:
            return change.compared(_written(entry))

        wanted = self.entry_resources(desired, compared)
        if wanted is None:
            return None
        have = self.live_items(desired, live)
        _adopt(wanted, have, at)
        changes = self.changes(wanted, have, ctx, desired.address)
        writes = ContextConnections(deletes=[old.id for old in changes.deleted])
        lines: list[FieldChange] = []
        for new in changes.created:
            written = _written(new.entry)
            then = {"label": written["label"]}
            writes.creates.append({"body": change.create_body(written), "then": then})
            lines += change.created_lines(written["label"], new.fields)
            writes.after += _after(written["connector"])
        resent = False  # a setup sent only for its secrets (`--resend-secrets`)
        resending = changes.kept if ctx.resend_secrets else []
        for new, old in [*changes.changed, *resending]:
            written = _written(new.entry)
            body, changed = change.update(written, new.fields, old.fields, ctx.resend_secrets)
            if body:
                writes.updates.append({"id": old.id, "body": body})
                lines += changed
                writes.after += _after(written["connector"]) if "connector" in body else []
                secret = ctx.resend_secrets and change.holds_secret(written)
                resent |= secret and change.same_setup(new.fields, old.fields)
        for old in changes.deleted:
            lines += change.deleted_lines(old.fields)
        if not (writes.creates or writes.updates or writes.deletes):
            return None
        losses = [change.loss(old.fields) for old in changes.deleted]
        action = self.holder_action(desired, PlannedItems(lines, writes, losses), ctx)
        if resent:
            ctx.resent.add(action.address)
        return action

    async def execute(self, action: Action, run: RunContext) -> None:
        """Deletes, then updates, then creates and their labels; a create whose answer was
        lost is looked for (FOUND_BY) before it is sent again."""
        payload, site_path = action.payload, at_site(action, run)
        assert isinstance(payload, ContextConnections)
        await self.write_items(
            run.api, payload, change.made, partial(under_site, site_path=site_path)
        )

    def requests(self, action: Action) -> int:
        """A request per delete and update, two per create (its label is a PATCH)."""
        writes = action.payload
        assert isinstance(writes, ContextConnections)
        return len(writes.deletes) + len(writes.updates) + 2 * len(writes.creates)

    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        """A setup production would refuse, and an integration's connector naming an
        integration this manifest does not install (the connection would have nothing to
        read, and its create would be refused)."""
        installed = _installed(view.data)
        for path, entry in items:
            connector = entry.get("connector")
            for where, message in check_setup(connector, entry.get("setupSettings"), path):
                view.report(where, message)
            name = integration_of(connector) if isinstance(connector, str) else None
            if name is not None and name not in installed:
                view.report(
                    (*path, "connector"),
                    f"integration {name!r} is not installed by this manifest: a connection "
                    "reads what an installed integration gives; install it under "
                    f"`integrations:`{did_you_mean(name, sorted(installed))}",
                )

    def export(
        self, site: LiveResource, live: LiveState, names: ExportNames
    ) -> list[dict[str, Any]] | None:
        """The site's connections as a manifest writes them, each secret as the env() template
        that reads it. A site with connections a label cannot tell apart (none, or one twice)
        is left out whole: a part of an exact list would delete the rest."""
        found = site.raw.get(f"_{SECTION}")
        if found is None:
            return None
        labels = [item["label"] for item in found]
        shared = {label for label in labels if not label or labels.count(label) > 1}
        for label in sorted(shared):
            ids = [item["id"] for item in found if item["label"] == label]
            names.left_out(address(self.name, label, site.address), ids)
        if shared:
            return None
        return [_exported(site.address, item, names) for item in found]


def _adopt(
    wanted: list[DesiredResource], have: list[LiveResource], at: Callable[[str], str]
) -> None:
    """A live connection without a label, of an entry's connector and setup, is that entry's
    (an apply made it and could not label it; or it was made in the app without one): it is
    labelled, rather than deleted and made again (losing what it read)."""
    taken = {r.key for r in have}
    for item in wanted:
        if item.key in taken or (item.was is not None and item.was in taken):
            continue
        for resource in have:
            if resource.key == "" and change.same_setup(item.fields, resource.fields):
                resource.key = resource.name = item.key
                resource.address = at(item.key)
                taken.add(item.key)
                break


def _after(connector: str) -> list[Any]:
    """What a connection's create or setup waits for: its integration's installation."""
    name = integration_of(connector)
    return [ref(address("integration", name))] if name is not None else []


def _installed(data: dict[str, Any]) -> set[str]:
    """The integrations the manifest installs (not those it uninstalls)."""
    entries = data.get("integrations")
    if not isinstance(entries, list):
        return set()
    return {
        str(e["name"])
        for e in entries
        if isinstance(e, dict) and isinstance(e.get("name"), str) and not is_absent(e)
    }


def _exported(site: str, item: dict[str, Any], names: ExportNames) -> dict[str, Any]:
    label = item["label"]
    entry: dict[str, Any] = {"label": label, "connector": item["connector"]}
    if item["setupSettings"]:
        entry["setupSettings"] = {
            name: names.secret(site, f'{SECTION}["{label}"].setupSettings.{name}')
            if name in SECRETS
            else value
            for name, value in item["setupSettings"].items()
        }
    entry["usageSettings"] = item["usageSettings"]
    if item["filter"]:
        entry["filter"] = item["filter"]
    return entry

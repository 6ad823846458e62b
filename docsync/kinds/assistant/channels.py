"""Where a site's assistant works beside its site (production's site channels: Slack, Linear,
GitHub, Discord): read as one list per site, matched by `type`, exact once written, written by
one action per site (deletes, then updates, then creates) as a `ListPart` a site holds. Used by the
site kind.

A channel's setup (`type` and `setupSettings`: the channels, teams or repositories it may
answer in) is one value, sent whole when it changes, as production's PATCH requires; its
settings hold no secret. A channel deleted takes the assistant out of that tool: flagged.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field as Limits

from docsync.api.answers import ANY, TEXT, Opt
from docsync.api.contract import SHAPE, Note, Said, Seed
from docsync.core.checking import CheckView, Item
from docsync.core.context import PlanContext, RunContext
from docsync.core.entries import Model, explained
from docsync.core.model import Action, FieldChange, address
from docsync.core.nullability import NullChecked
from docsync.core.state import DesiredResource, LiveResource, LiveState
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
from docsync.kinds.requests import Routes, Writes

if TYPE_CHECKING:
    from docsync.api import ApiClient

SECTION = "channels"
FOUND_BY = "listed again, by its type and settings, among the channels the apply does not know"
#: the one list each type's settings hold, as production names it
ALLOWED = {
    "builtin:slack": "allowedChannels",
    "builtin:linear": "allowedTeams",
    "builtin:github": "allowedRepositories",
    "builtin:discord": "allowedChannels",
}
ChannelType = Literal["builtin:slack", "builtin:linear", "builtin:github", "builtin:discord"]
#: production's GenericChannelPattern and GitHubRepositoryPattern
Pattern = Annotated[
    str,
    Limits(
        pattern=explained(
            r"^[a-zA-Z0-9_\*-]+$", "must be a name or a pattern of letters, digits, _, - and *"
        )
    ),
]
RepositoryPattern = Annotated[
    str,
    Limits(
        pattern=explained(
            r"^[a-zA-Z0-9._*-]+\/[a-zA-Z0-9._*-]+$",
            "must be a repository or a pattern as 'owner/name' ('acme/*')",
        )
    ),
]


class ChannelSettings(NullChecked, Model):
    """Where the assistant may answer, by the one list of its channel's type; an empty list
    (or none): everywhere."""

    allowedChannels: list[Pattern] | None = None
    """Slack or Discord channels, by name or pattern (`support-*`)."""
    allowedTeams: list[Pattern] | None = None
    """Linear teams, by key or pattern."""
    allowedRepositories: list[RepositoryPattern] | None = None
    """GitHub repositories, as `owner/name` or a pattern (`acme/*`)."""


class ChannelEntry(NullChecked, Model):
    """One channel of a site's assistant, keyed by its `type`."""

    # its key; sent again beside the settings it selects
    type: ChannelType = Api(answer=TEXT).limits()
    """The tool: `builtin:slack`, `builtin:linear`, `builtin:github` or `builtin:discord`."""
    role: Literal["collaborator", "support"] | None = Api(answer=Opt(TEXT)).limits(default=None)
    """`support` answers from the site's docs (production's default); `collaborator` also
    opens and manages change requests."""
    setupSettings: ChannelSettings | None = Api(unordered=True, answer=Opt(ANY)).limits(
        default=None
    )
    """Where it may answer; absent: as it is (everywhere, for a new channel)."""


def _allowed(kind: str, settings: dict[str, Any] | None) -> dict[str, list[str]]:
    """A channel's settings as compared: its type's list, in any order (none is empty)."""
    name = ALLOWED.get(kind)
    if name is None:
        return dict(settings or {})
    return {name: sorted((settings or {}).get(name) or [])}


def _read(found: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(found["id"]),
        "type": str(found["type"]),
        "role": found.get("role"),
        "setupSettings": dict(found.get("setupSettings") or {}),
    }


def _shape(entry: ChannelEntry) -> dict[str, Any]:
    """An entry as compared: the fields written."""
    shape: dict[str, Any] = {}
    if entry.role is not None:
        shape["role"] = entry.role
    if entry.setupSettings is not None:
        shape["setupSettings"] = _allowed(entry.type, _settings(entry))
    return shape


def _settings(entry: ChannelEntry) -> dict[str, Any]:
    """The settings as written, as production takes them."""
    return entry.setupSettings.model_dump(exclude_none=True) if entry.setupSettings else {}


CHANNELS = "/v1/orgs/{org}/sites/{site}/channels"
CHANNEL_SETUP = (
    "production's SiteChannelSetup, a choice by `type` of one closed list each: one model of "
    "the four lists, the type's own checked offline (channels.py), which "
    "tests/contract/test_connectors.py holds to production's schema"
)
CONTRACT: tuple[Said, ...] = (
    *(
        Note(SHAPE, operation, name, CHANNEL_SETUP)
        for operation in (f"POST {CHANNELS}", f"PATCH {CHANNELS}/{{id}}")
        for name in ("setupSettings", "type")
    ),
    Seed(
        "POST",
        CHANNELS,
        {"type": "builtin:slack", "setupSettings": {"allowedChannels": ["support"]}},
    ),
)

CHANNEL = Declaration(
    "channel",
    SECTION,
    "channel",
    key="type",
    parents=("site",),
    part=True,
    exact=True,
    entry=ChannelEntry,
    routes=Routes(CHANNELS, id_name="siteChannelId"),
    describe=(
        "Where the site's assistant works (Slack, Linear, GitHub, Discord), keyed by type; "
        "when written, the exact list."
    ),
    writes=(Writes(found_by=FOUND_BY),),
    contract=CONTRACT,
)


class Channels(SiteItems):
    """A site's channels to write (`parts.SiteItems`)."""


class ChannelKind(ListPart, SitePart):
    declaration = CHANNEL
    part_payload = Channels

    async def fetch(self, api: ApiClient, site: dict[str, Any], site_path: str) -> None:
        """Every channel of a site into `site["_channels"]`."""
        found = await send_under(api, self.route("list"), site_path)
        site[f"_{SECTION}"] = [_read(item) for item in found]

    def plan(
        self, desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
    ) -> Action | None:
        """One update of the site's channels when the written list differs from the live one:
        channels not written are deleted (the list is exact, and each deleted one is a loss),
        changed ones patched, new types created."""

        wanted = self.entry_resources(desired, _shape)
        if wanted is None:
            return None
        have = self.live_items(desired, live)
        changes = self.changes(wanted, have, ctx, desired.address)
        writes = Channels(deletes=[old.id for old in changes.deleted])
        lines: list[FieldChange] = []
        for new in changes.created:
            entry = new.entry_as(ChannelEntry)
            body: dict[str, Any] = {"type": entry.type, "setupSettings": _settings(entry)}
            if entry.role is not None:
                body["role"] = entry.role
            writes.creates.append({"body": body})
            lines += [
                _line(entry.type, name, None, v) for name, v in body.items() if name != "type"
            ]
        for new, old in changes.changed:
            entry = new.entry_as(ChannelEntry)
            body, changed = _update(entry, new.fields, old.fields)
            if body:
                writes.updates.append({"id": old.id, "body": body})
                lines += changed
        for old in changes.deleted:
            lines += [_line(old.key, n, old.fields[n], None) for n in ("role", "setupSettings")]
        if not (writes.creates or writes.updates or writes.deletes):
            return None
        losses = [
            f"channel {old.key} is deleted: the site's assistant no longer works there"
            for old in changes.deleted
        ]
        return self.holder_action(desired, PlannedItems(lines, writes, losses), ctx)

    async def execute(self, action: Action, run: RunContext) -> None:
        """Deletes, then updates, then creates; a create whose answer was lost is looked for
        (FOUND_BY) before it is sent again."""
        payload, site_path = action.payload, at_site(action, run)
        assert isinstance(payload, Channels)
        await self.write_items(run.api, payload, _made, partial(under_site, site_path=site_path))

    def requests(self, action: Action) -> int:
        """A request per delete, update and create."""
        writes = action.payload
        assert isinstance(writes, Channels)
        return len(writes.deletes) + len(writes.updates) + len(writes.creates)

    def check_list(self, view: CheckView, items: list[Item], parent: dict[str, Any]) -> None:
        """Settings that are not the channel's type's (production closes each type's)."""
        for path, entry in items:
            settings, kind = entry.get("setupSettings"), entry.get("type")
            if not isinstance(settings, dict) or kind not in ALLOWED:
                continue
            for name in settings:
                if name != ALLOWED[kind]:
                    view.report(
                        (*path, "setupSettings", name),
                        f"a {kind} channel takes no '{name}' (it takes {ALLOWED[kind]})",
                    )

    def export(
        self, site: LiveResource, live: LiveState, names: ExportNames
    ) -> list[dict[str, Any]] | None:
        """The site's channels as a manifest writes them. A site with two channels of one type
        is left out whole: a part of an exact list would delete the rest."""
        found = site.raw.get(f"_{SECTION}")
        if found is None:
            return None
        kinds = [item["type"] for item in found]
        shared = sorted({kind for kind in kinds if kinds.count(kind) > 1})
        for kind in shared:
            ids = [item["id"] for item in found if item["type"] == kind]
            names.left_out(address(self.name, kind, site.address), ids)
        if shared:
            return None
        return [
            {"type": item["type"], "role": item["role"], "setupSettings": item["setupSettings"]}
            for item in found
        ]


def _update(
    entry: ChannelEntry, shape: dict[str, Any], item: dict[str, Any]
) -> tuple[dict[str, Any], list[FieldChange]]:
    """The PATCH of a live channel, and its lines: its setup whole when its settings differ
    (production takes `type` and `setupSettings` together), its role."""
    body: dict[str, Any] = {}
    lines: list[FieldChange] = []
    settings = shape.get("setupSettings")
    if settings is not None and settings != _allowed(entry.type, item["setupSettings"]):
        body |= {"type": entry.type, "setupSettings": _settings(entry)}
        lines.append(_line(entry.type, "setupSettings", item["setupSettings"], _settings(entry)))
    if "role" in shape and shape["role"] != item["role"]:
        body["role"] = shape["role"]
        lines.append(_line(entry.type, "role", item["role"], shape["role"]))
    return body, lines


def _line(kind: str, field: str, before: Any, after: Any) -> FieldChange:
    return FieldChange(f"{SECTION}.{kind}.{field}", before, after)


def _made(body: dict[str, Any], found: dict[str, Any]) -> bool:
    """Whether a listed channel is what a create of `body` made: its type and settings."""
    kind = str(body["type"])
    same = _allowed(kind, found.get("setupSettings")) == _allowed(kind, body["setupSettings"])
    return found.get("type") == kind and same

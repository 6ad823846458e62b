"""A site's MCP servers (the tools its assistant may call): read as one list per site, compared as
a list keyed by `name`, exact once written, and written by one action per site (deletes, then
updates, then creates). Used by the site kind.

A server's `headers` are credentials (an `Authorization` token): production answers them with
every read, and docsync keeps only a keyed digest of each value (`core.secrecy`), so a changed
header is still planned while no value reaches a plan, a log or an export; the header names are
kept. Any change to a site's servers changes what its assistant can reach: flagged for review.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field as Limits

from docsync.api.answers import TEXT, Opt
from docsync.api.contract import UNMANAGED, Note, Seed
from docsync.core.context import PlanContext, RunContext
from docsync.core.entries import Expression, Model, Uri
from docsync.core.model import Action, FieldChange
from docsync.core.nullability import NULL, NullChecked
from docsync.core.secrecy import text_digest
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

Path = tuple[str | int, ...]
FOUND_BY = "listed again, by its name (a server created here has a name no live server had)"
#: the fields compared and shown, besides the secret headers
SHOWN = ("url", "transport", "condition")
HeaderValue = Annotated[str, Limits(min_length=1, max_length=512)]
SECTION = "mcpServers"


class McpServerEntry(NullChecked, Model):
    """One MCP server of a site, keyed by `name`."""

    # a server of another name is another server
    name: str = Api(update=False, answer=TEXT).limits(min_length=1, max_length=100)
    url: Uri = Api(answer=TEXT).limits()
    transport: Literal["sse", "http"] = Api(answer=Opt(TEXT)).limits(default="sse")
    """How the assistant connects: `sse` (production's default) or `http`."""
    headers: dict[str, HeaderValue] = Api(sensitive=True).limits(default_factory=dict)
    """Sent with each request to the server; secret values: write them with env()."""
    condition: Annotated[Expression | None, NULL] = Api(answer=Opt(TEXT)).limits(default=None)
    """When the server is available to a visitor (an expression); absent or null: always."""


@dataclass
class McpServers(SiteItems):
    """A site's MCP servers to write (`SiteItems`: a create's `body` is the whole server)."""


def digested(headers: dict[str, Any]) -> dict[str, str]:
    """Each header by name, its value as a keyed digest: what is compared and kept."""
    return {str(name): f"digest:{text_digest(str(value))[:32]}" for name, value in headers.items()}


def _shape(server: dict[str, Any]) -> dict[str, Any]:
    """A server as it compares: the fields written, headers as digests."""
    return {
        "url": server.get("url"),
        "transport": server.get("transport") or "sse",
        "condition": server.get("condition") or None,
        "headers": dict(server.get("headers") or {}),
    }


def _live(site: LiveResource | None) -> list[dict[str, Any]] | None:
    found = site.raw.get(f"_{SECTION}") if site is not None else None
    return None if found is None else list(found)


MCP_SERVERS = "/v1/orgs/{org}/sites/{site}/mcp-servers"
CONTRACT = (
    Note(
        UNMANAGED,
        f"PATCH {MCP_SERVERS}/{{id}}",
        "name",
        "an MCP server's name is its key: a server of another name is another server",
    ),
    Seed("POST", MCP_SERVERS, {"name": "Billing", "url": "https://mcp.example", "headers": {}}),
)

MCP_SERVER = Declaration(
    "mcp_server",
    "mcpServers",
    "MCP server",
    key="name",
    parents=("site",),
    part=True,
    exact=True,
    entry=McpServerEntry,
    routes=Routes(MCP_SERVERS, id_name="siteMcpServerId"),
    describe=(
        "The MCP servers the site's assistant may call, keyed by name; when written, the exact "
        "list. Their header values are secrets docsync never shows or exports."
    ),
    writes=(Writes(found_by=FOUND_BY),),
    contract=CONTRACT,
)


class McpServerKind(ListPart, SitePart):
    declaration = MCP_SERVER
    part_payload = McpServers

    async def fetch(self, api: ApiClient, site: dict[str, Any], site_path: str) -> None:
        """Every MCP server of a site into `site["_mcpServers"]`, header values as digests (and
        never repeated by the client's messages)."""
        found = await send_under(api, self.route("list"), site_path)
        values = [str(v) for s in found for v in (s.get("headers") or {}).values()]
        api.redact(values)
        site[f"_{SECTION}"] = [
            {
                "id": str(s["id"]),
                "name": str(s["name"]),
                **_shape(s),
                "headers": digested(s.get("headers") or {}),
            }
            for s in found
        ]

    def plan(
        self, desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
    ) -> Action | None:
        """One update of the site's servers when the written list differs from the live one:
        servers not written are deleted (the list is exact), changed fields patched, new names
        created. Flagged: the site's assistant reaches other tools, or the same with new keys."""

        def compared(item: McpServerEntry) -> dict[str, Any]:
            return {**_shape(item.model_dump()), "headers": digested(item.headers)}

        wanted = self.entry_resources(desired, compared)
        if wanted is None:
            return None
        have = self.live_items(desired, live)
        changes = self.changes(wanted, have, ctx, desired.address)
        if not changes:
            return None
        lines: list[FieldChange] = []
        for new in changes.created:
            lines += _lines(new.key, None, new.fields, _secret(ctx, new.path))
        for new, old in changes.changed:
            lines += _lines(new.key, old.fields, new.fields, _secret(ctx, new.path))
        for old in changes.deleted:
            lines += _lines(old.key, old.fields, None, _secret(ctx, None))
        writes = McpServers(
            creates=[{"body": _body(d.entry_as(McpServerEntry), None)} for d in changes.created],
            updates=[
                {"id": o.id, "body": _body(d.entry_as(McpServerEntry), o.fields)}
                for d, o in changes.changed
            ],
            deletes=[old.id for old in changes.deleted],
        )
        action = self.holder_action(desired, PlannedItems(lines, writes, []), ctx)
        action.security_change = True
        action.notes.append(
            "MCP SERVERS CHANGE: the tools the site's assistant may call, or the credentials it "
            "calls them with, change"
        )
        return action

    async def execute(self, action: Action, run: RunContext) -> None:
        """Deletes, then updates, then creates, one request each; a create whose answer was lost
        is looked for by its name before it is sent again. Answers (which repeat the headers)
        are dropped unread."""
        payload, site_path = action.payload, at_site(action, run)
        assert isinstance(payload, McpServers)
        await self.write_items(run.api, payload, _named, partial(under_site, site_path=site_path))

    def requests(self, action: Action) -> int:
        """A request per server deleted, changed or made."""
        writes = action.payload
        assert isinstance(writes, McpServers)
        return len(writes.deletes) + len(writes.updates) + len(writes.creates)

    def export(
        self, site: LiveResource, live: LiveState, names: ExportNames
    ) -> list[dict[str, Any]] | None:
        """The site's servers as a manifest writes them, each header as the env() template
        that reads its value (the value itself is never written)."""
        found = _live(site)
        if found is None:
            return None
        out = []
        for server in found:
            entry: dict[str, Any] = {"name": server["name"], "url": server["url"]}
            entry["transport"] = server["transport"]
            if server["headers"]:
                entry["headers"] = {
                    header: names.secret(
                        site.address, f'mcpServers["{server["name"]}"].headers.{header}'
                    )
                    for header in server["headers"]
                }
            if server["condition"]:
                entry["condition"] = server["condition"]
            out.append(entry)
        return out


def _secret(ctx: PlanContext, path: Path | None) -> Callable[[str], bool]:
    """Whether a field of a server is secret: by declaration (its headers), or because the
    manifest's entry at `path` reads it with env() (None: a server no entry writes)."""
    return lambda name: (
        MCP_SERVER.field(name).sensitive or (path is not None and ctx.sensitive((*path, name)))
    )


def _lines(
    name: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    secret: Callable[[str], bool],
) -> list[FieldChange]:
    """What changes of one server, a line per field; headers as one secret line."""
    lines = []
    for field_name in (*SHOWN, "headers"):
        old = before.get(field_name) if before else None
        new = after.get(field_name) if after else None
        if old == new or (field_name == "headers" and not old and not new):
            continue
        at = f"mcpServers.{name}.{field_name}"
        lines.append(FieldChange(at, old, new, sensitive=secret(field_name)))
    return lines


def _body(entry: McpServerEntry, live: dict[str, Any] | None) -> dict[str, Any]:
    """A create's whole body, or an update's changed fields (a condition removed: null)."""
    body: dict[str, Any] = {
        "name": entry.name,
        "url": entry.url,
        "transport": entry.transport,
        "headers": dict(entry.headers),
        "condition": entry.condition,
    }
    if live is None:
        return {k: v for k, v in body.items() if v is not None}
    same = {**_shape(body), "headers": digested(entry.headers)}
    return {k: body[k] for k in (*SHOWN, "headers") if same[k] != live.get(k)}


def _named(body: dict[str, Any], found: dict[str, Any]) -> bool:
    """Whether a listed server is the one a lost create made: a server created here has a name
    no live server had."""
    return bool(found.get("name") == body["name"])

"""A site's MCP servers (production's `.../sites/{siteId}/mcp-servers`, not in the API
description, served in both contract modes): list, create, get, update, delete.

Rows (id / org / parent): site-mcp-server (id / org / site), so deleting the site deletes its
servers. `headers` (sent with each request to the server, credentials among them) are kept and
answered as production's SiteMcpServer does; `transport` defaults to `sse`; a `condition` of
null (or an update without it left as it was) follows production's request schema.
"""

from __future__ import annotations

from typing import Any

from starlette.routing import BaseRoute

from docsync.emulator.body import BOTH, CREATE, At, Body, Choice, Field, Text
from docsync.emulator.http import Ctx
from docsync.emulator.resource import Resource
from docsync.emulator.rules import SITE_PART
from docsync.emulator.scopes import IN_SITE
from docsync.emulator.shapes import Dict, Str
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import URL_PATTERN

BASE = "/v1/orgs/{organizationId}/sites/{siteId}/mcp-servers"
KIND = "site-mcp-server"
#: production's SiteMcpServerHeaders: each value 1 to 512 characters
HEADERS = Dict(Str(min_len=1, max_len=512))


def _headers(at: At, value: Any, name: str) -> Any:
    return HEADERS.check(value, name)


def _view(ctx: Ctx, row: Row) -> Doc:
    data = row.data
    body: Doc = {
        "object": "site-mcp-server",
        "id": row.id,
        "name": data["name"],
        "url": data["url"],
        "transport": data["transport"],
        "headers": dict(data["headers"]),
    }
    if data.get("condition") is not None:
        body["condition"] = data["condition"]
    body["urls"] = {"location": ctx.url(f"/orgs/{row.org}/sites/{row.parent}/mcp-servers/{row.id}")}
    return body


MCP_SERVERS = Resource(
    KIND,
    BASE,
    "siteMcpServerId",
    _view,
    missing="No MCP server {id!r} in site {site!r}",
    scope=IN_SITE,
    body=Body(
        (
            Text("name", required=CREATE, min_len=1, max_len=100),
            Text("url", required=CREATE, max_len=2048, pattern=URL_PATTERN),
            Choice("transport", values=("sse", "http"), default="sse"),
            Field("headers", required=CREATE, resolve=_headers),
            Text("condition", nullable=BOTH, max_len=1024),
        )
    ),
    access=SITE_PART,
    location="/orgs/{org}/sites/{site}/mcp-servers/{id}",
    id_in_data=True,
    snapshot=(),
)

routes: list[BaseRoute] = MCP_SERVERS.routes()

"""A site's context connections (production's `.../sites/{siteId}/context-connections`, not in
the API description, served in both contract modes): what the site's assistant reads (a website,
a YouTube channel, GitHub discussions or issues, a support desk, an integration's source...);
list, create, get, update, delete.

A connection's setup is production's ContextConnectorSetup: its `connector` and the
`setupSettings` of that connector. Tokens and keys in the settings are answered masked, never in
clear (production says so of Freshdesk's and Jira's, "redacted when read back"; the emulator
masks every one). The emulator syncs nothing: a connection stays `pending` with no records.
Rows (id / org / parent): site-context-connection (id / org / site). Choices are in
docs/emulator.md ("Site context connections").
"""

from __future__ import annotations

from starlette.routing import BaseRoute

from docsync.emulator.body import BOTH, UPDATE, Body, Place, Shaped, Text
from docsync.emulator.errors import not_found
from docsync.emulator.http import Ctx
from docsync.emulator.integrations import INSTALLATION
from docsync.emulator.resource import Resource
from docsync.emulator.rules import SITE_PART, Entry, Rules, reload
from docsync.emulator.scopes import IN_SITE
from docsync.emulator.shapes import Bool, Dict, Enum, Obj, OneOf, Shape, Str
from docsync.emulator.store import Doc, Row

KIND = "site-context-connection"
#: the settings that are secrets: answered as MASK
SECRETS = ("token", "apiToken", "apiKey", "clientSecret", "refreshToken")
MASK = "********"
TOKEN = Str(min_len=1)
#: production's `format: uri` (any scheme) and `format: email`
URI = Str(pattern=r"^[A-Za-z][A-Za-z0-9+.-]*:\S*$")
EMAIL = r"^\S+@\S+$"
REPOSITORY = Str(pattern=r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
#: production's YoutubeChannelPattern: a channel id or a handle
YOUTUBE = Str(pattern=r"^(UC[A-Za-z0-9_-]{22}|@[A-Za-z0-9._-]{3,100})$")
STATUSES = ("draft", "open", "archived", "merged")
#: each connector with settings, and the settings' shapes and required names
SETTINGS: dict[str, tuple[dict[str, Shape], tuple[str, ...]]] = {
    "builtin:website": ({"url": URI}, ("url",)),
    "builtin:youtube": ({"channelId": YOUTUBE}, ("channelId",)),
    "builtin:github-discussions": (
        {"repository": REPOSITORY, "token": TOKEN},
        ("repository", "token"),
    ),
    "builtin:github-issues": ({"repository": REPOSITORY, "token": TOKEN}, ("repository", "token")),
    "builtin:intercom": ({"token": TOKEN}, ("token",)),
    "builtin:front": ({"token": TOKEN}, ("token",)),
    "builtin:zendesk": (
        {"subdomain": TOKEN, "email": TOKEN, "apiToken": TOKEN},
        ("subdomain", "email", "apiToken"),
    ),
    "builtin:zoho-desk": (
        dict.fromkeys(("dataCenter", "orgId", "clientId", "clientSecret", "refreshToken"), TOKEN),
        ("dataCenter", "orgId", "clientId", "clientSecret", "refreshToken"),
    ),
    "builtin:freshdesk": ({"domain": TOKEN, "apiKey": TOKEN}, ("domain", "apiKey")),
    "builtin:pylon": ({"token": TOKEN}, ("token",)),
    "builtin:hubspot": ({"token": TOKEN}, ("token",)),
    "builtin:linear": ({"token": TOKEN}, ("token",)),
    "builtin:jira": (
        {
            "baseUrl": Str(min_len=1, max_len=2048, pattern=URI.pattern),
            "apiEmail": Str(min_len=1, max_len=254, pattern=EMAIL),
            "apiToken": Str(min_len=1, max_len=1024),
            "statusMapping": Dict(Str(min_len=1, max_len=255), keys=STATUSES),
        },
        ("baseUrl", "apiEmail", "apiToken"),
    ),
}
#: the connectors without settings (an integration's is `integration:<name>`)
BARE = ("builtin:email", "builtin:api")
SETUP = OneOf(
    (
        *(Obj({"connector": Enum((kind,))}, ("connector",)) for kind in BARE),
        Obj({"connector": Str(pattern=r"^integration:[^:]+$")}, ("connector",)),
        *(
            Obj(
                {"connector": Enum((kind,)), "setupSettings": Obj(fields, required)},
                ("connector", "setupSettings"),
            )
            for kind, (fields, required) in SETTINGS.items()
        ),
    ),
    "a connection's setup {connector, setupSettings?} (production's ContextConnectorSetup)",
    tag="connector",
)
USAGE = Obj(
    {
        "changeRequests": Bool(),
        "search": Bool(),
        "sync": Bool(),
        "searchBoost": Enum(("x0.8", "x1.0", "x1.2")),
    },
    ("changeRequests", "search", "searchBoost"),
)
#: what a connection created without `usageSettings` uses (production's answer requires them)
DEFAULT_USAGE: Doc = {"changeRequests": False, "search": True, "searchBoost": "x1.0"}


def masked(settings: Doc) -> Doc:
    """The settings as answered: every secret as MASK."""
    return {name: MASK if name in SECRETS else value for name, value in settings.items()}


def _view(ctx: Ctx, row: Row) -> Doc:
    """Production's ContextConnection."""
    data = row.data
    body: Doc = {"object": "context-connection", "id": row.id, "createdAt": data["createdAt"]}
    body.update({key: data[key] for key in ("label", "filter") if key in data})
    body.update(status="pending", records=0, usageSettings=dict(data["usageSettings"]))
    if data["connector"] == "builtin:email":
        body["email"] = {"ingestionAddress": f"context-{row.id.lower()}@inbound.emulator.invalid"}
    path = f"/orgs/{row.org}/sites/{row.parent}/context-connections/{row.id}"
    body.update(urls={"location": ctx.url(path)}, connector=data["connector"])
    if "setupSettings" in data:
        body["setupSettings"] = masked(data["setupSettings"])
    return body


class ConnectionRules(Rules):
    def fresh(self, ctx: Ctx, place: Place, values: Doc) -> Doc:
        _installed(ctx, place.org, str(values["connector"]))
        return {}

    def change(self, ctx: Ctx, res: Entry, place: Place, row: Row, values: Doc) -> Row:
        """A setup given replaces the one there (settings of another connector go with it)."""
        if "connector" in values:
            _installed(ctx, place.org, str(values["connector"]))
            data = {k: v for k, v in row.data.items() if k != "setupSettings"}
            ctx.tx.update(KIND, row.id, data)
            row = reload(ctx, row)
        return super().change(ctx, res, place, row, values)


def _installed(ctx: Ctx, org: str, connector: str) -> None:
    """An integration's connector needs that integration installed on the organization."""
    name = connector.removeprefix("integration:")
    if name != connector and not any(
        r.data["integration"] == name for r in ctx.tx.rows(INSTALLATION, org=org)
    ):
        raise not_found(f"connector: integration {name!r} is not installed on {org!r}")


CONNECTIONS = Resource(
    KIND,
    "/v1/orgs/{organizationId}/sites/{siteId}/context-connections",
    "siteContextConnectionId",
    _view,
    missing="No context connection {id!r} in site {site!r}",
    scope=IN_SITE,
    body=Body(
        (
            Shaped("usageSettings", shape=USAGE, default=DEFAULT_USAGE),
            Text("label", ops=UPDATE, max_len=128),
            Text("filter", ops=BOTH, max_len=1024),
        ),
        setup=SETUP,
    ),
    rules=ConnectionRules(),
    access=SITE_PART,
    snapshot=("connector", "setupSettings"),
)

routes: list[BaseRoute] = CONNECTIONS.routes()

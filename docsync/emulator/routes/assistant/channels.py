"""A site's channels (production's `.../sites/{siteId}/channels`, not in the API description,
served in both contract modes): where the site's agent works, in Slack, Linear, GitHub or
Discord; list, create, get, update, delete.

A channel's setup is production's SiteChannelSetup: its `type` and the `setupSettings` of that
type (the channels, teams or repositories it may answer in), closed as production closes them.
Rows (id / org / parent): site-channel (id / org / site), so deleting the site deletes its
channels. Choices are in docs/emulator.md ("Site channels").
"""

from __future__ import annotations

from starlette.routing import BaseRoute

from docsync.emulator.body import Body, Choice
from docsync.emulator.http import Ctx
from docsync.emulator.resource import Resource
from docsync.emulator.rules import SITE_PART
from docsync.emulator.scopes import IN_SITE
from docsync.emulator.shapes import Arr, Enum, Obj, OneOf, Shape, Str
from docsync.emulator.store import Doc, Row

KIND = "site-channel"
ROLES = ("collaborator", "support")
#: production's GenericChannelPattern and GitHubRepositoryPattern
CHANNEL = Str(pattern=r"^[a-zA-Z0-9_\*-]+$")
REPOSITORY = Str(pattern=r"^[a-zA-Z0-9._*-]+\/[a-zA-Z0-9._*-]+$")
#: each configurable type, and the one list its settings hold
ALLOWED: dict[str, tuple[str, Shape]] = {
    "builtin:slack": ("allowedChannels", CHANNEL),
    "builtin:linear": ("allowedTeams", CHANNEL),
    "builtin:github": ("allowedRepositories", REPOSITORY),
    "builtin:discord": ("allowedChannels", CHANNEL),
}
SETUP = OneOf(
    tuple(
        Obj(
            {
                "type": Enum((kind,)),
                "setupSettings": Obj({name: Arr(pattern)}, closed=True),
            },
            ("type", "setupSettings"),
        )
        for kind, (name, pattern) in ALLOWED.items()
    ),
    "a channel's setup {type, setupSettings} of one of " + ", ".join(ALLOWED),
    tag="type",
)


def _view(ctx: Ctx, row: Row) -> Doc:
    """Production's SiteChannel."""
    data = row.data
    return {
        "object": KIND,
        "id": row.id,
        "type": data["type"],
        "setupSettings": dict(data["setupSettings"]),
        "status": "active",
        "role": data["role"],
        "answers": 0,
        "createdAt": data["createdAt"],
        "urls": {"location": ctx.url(f"/orgs/{row.org}/sites/{row.parent}/channels/{row.id}")},
    }


CHANNELS = Resource(
    KIND,
    "/v1/orgs/{organizationId}/sites/{siteId}/channels",
    "siteChannelId",
    _view,
    missing="No channel {id!r} in site {site!r}",
    scope=IN_SITE,
    body=Body((Choice("role", values=ROLES, default="support"),), setup=SETUP),
    access=SITE_PART,
    snapshot=("type", "setupSettings"),
)

routes: list[BaseRoute] = CHANNELS.routes()

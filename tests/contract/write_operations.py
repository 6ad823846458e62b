"""How much of production's configuration docsync manages, counted one way (docs/manifest.md,
"What docsync cannot manage"): every write operation (POST, PUT, PATCH, DELETE) of production's
document is classified once, as

- **managed**: it writes what a kind of the catalogue manages. Derived from the declarations
  wherever they say it (`managed_by`): a kind's create on its list, its update and delete on its
  item, the requests of its own it names (`Routes.more`), a field's own request
  (`Field.route`), and the lists a kind reads (a site's part's list, read whole with the site,
  its routes' `more` reads, `Kind.answers`), with writes on them or on their items (a team's
  members, a resource's grants, a site's redirects one by one). Where a kind's code sends a
  request its declaration does not name, or writes the same configuration through another
  operation (an integration's install, the one sort of its structure), the kind says so in its
  module, and how (a `SENDS` note, `also_managed`);
- **not configuration** (`NOT_CONFIGURATION`): content and its review, what readers and agents
  do, one-off actions on what a manifest describes (an import, a key regenerated), a user's
  own account, the integration platform of integration developers: nothing a manifest of an
  organization's setup would say;
- **configuration docsync does not manage** (`not_managed`), each with why, said by the kind
  whose configuration it is, in its module (a `LEAVES` note): an operation no organization's
  token reaches, a state that cannot be read back or written back.

The managed share is the managed operations over the configuration ones (managed and not
managed). `tests/contract/test_managed_share.py` fails when an operation is unclassified,
classified twice, listed but gone from the document, or when the share falls under 90%;
`bash scripts/managed-share` prints the figure and what is left (`tests/contract/shares.py`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from docsync.api.contract import LEAVES, SENDS
from docsync.kinds.catalogue import KINDS
from docsync.kinds.declaration import Declaration
from tests.contract.checker import Contract
from tests.contract.declared import located
from tests.contract.sent import concrete

WRITES = ("post", "put", "patch", "delete")
_ORG = "/orgs/{organizationId}"
_SITE = f"{_ORG}/sites/{{siteId}}"
_CR = "/spaces/{spaceId}/change-requests/{changeRequestId}"
_INTEGRATION = "/integrations/{integrationName}"


def writes(contract: Contract) -> list[str]:
    """Every write operation of the document, as `METHOD /template`, in its order."""
    return [
        f"{method.upper()} {template}"
        for template, operations in contract.spec["paths"].items()
        for method in operations
        if method in WRITES
    ]


def _named(declared: Declaration, answers: dict[str, object]) -> Iterator[tuple[str, str]]:
    """(method, path) of the requests a kind's declaration names, and of the writes on what it
    reads: `*` for any write method."""
    routes = declared.routes
    if routes is not None:
        for name, route in routes.every().items():
            if name in routes.more and route.method == "GET":
                if route.paged or route.path.startswith((routes.list, routes.item_path)):
                    # a list it reads, or what its own resources hold, as `answers` below (not
                    # what it only reads: an integration's configurations' schemas)
                    yield from _read(route.path)
            elif route.method != "GET" and not (
                declared.singleton and name in ("create", "delete")
            ):
                yield route.method, route.path
        if declared.part and declared.parents == ("site",):
            # a site's part, read whole with the site: what it manages is its list as read
            yield from _read(routes.list)
    for f in declared.fields:
        if f.route is not None:
            yield f.route
    for path in answers:
        yield from _read(path)


def _read(path: str) -> Iterator[tuple[str, str]]:
    """Every write on a list a kind reads, and on its items."""
    yield "*", path
    yield "*", f"{path}/{{item}}"


def managed_by(contract: Contract) -> dict[str, str]:
    """Each production write operation a kind's declaration names, or that writes a list (or an
    item of one) the kind reads: the kind, by operation."""
    found: dict[str, str] = {}
    for kind in KINDS:
        answers = {kind.route(name).path: shape for name, shape in kind.answers.items()}
        for method, path in _named(kind.declaration, answers):
            methods = [m.upper() for m in WRITES] if method == "*" else [method]
            for verb in methods:
                template = contract.operation_of(verb, concrete(path))
                if template is not None:
                    found.setdefault(f"{verb} {template}", kind.name)
    return found


def also_managed(contract: Contract) -> dict[str, tuple[str, str]]:
    """Each operation a kind says its code sends beyond its declared routes: (the kind, how)."""
    return {op: (said.kind, said.note.why) for op, said in located(contract, SENDS)}


def not_managed(contract: Contract) -> dict[str, str]:
    """Each configuration operation a kind says it leaves alone, and why."""
    return {op: said.note.why for op, said in located(contract, LEAVES)}


# -- not configuration: no kind's business ------------------------------------------------------

CONTENT = "content and its review: what people write, not how the organization is set up"
READERS = "what readers, visitors and agents do on a site: use, not setup"
ACTION = "a one-off action on what a manifest describes, not a state a plan compares"
OWN = "a user's own account or session, not the organization's"
PLATFORM = "the platform of integration developers (publishing an integration), not its use"
INSIGHTS = "findings and topics GitBook's AI works out from a site's content: its output"

NOT_CONFIGURATION: dict[str, str] = {
    "POST /user/notifications/token": OWN,
    "PATCH /users/{userId}": OWN,
    f"POST {_ORG}/ping": OWN,
    f"POST {_ORG}/join": "a user joining an organization: their own act, not its setup",
    f"POST {_ORG}/invites/{{inviteId}}": "a user accepting an invite: their own act",
    "POST /spaces/{spaceId}/duplicate": CONTENT,
    f"POST {_SITE}/site-spaces/{{siteSpaceId}}/duplicate": CONTENT,
    "POST /spaces/{spaceId}/content/template": CONTENT,
    f"POST {_SITE}/template": CONTENT,
    "POST /spaces/{spaceId}/content/computed/document": "a read that takes a body (a POST)",
    "POST /spaces/{spaceId}/content/computed/revision": "a read that takes a body (a POST)",
    "POST /urls/published": "a read that takes a body (a POST)",
    f"POST {_ORG}/storage/upload": CONTENT,
    "POST /org/{organizationId}/imports": CONTENT,
    "POST /org/{organizationId}/imports/{importRunId}/cancel": CONTENT,
    f"POST {_SITE}/styleguide": (
        "makes a space of content (the style guide) from a template; which space is the style "
        "guide is the site's `styleguide`"
    ),
    f"POST {_SITE}/styleguide/runs": "a run of GitBook's agent over content: an action",
    "POST /spaces/{spaceId}/git/import": ACTION + " (Git Sync: an import now)",
    "POST /spaces/{spaceId}/git/export": ACTION + " (Git Sync: an export now)",
    f"POST {_ORG}/translations/{{translationId}}/run": ACTION + " (a translation run now)",
    f"POST {_SITE}/publishing/auth/regenerate": (
        ACTION + " (a new private key: every visitor's token stops working; docsync never asks "
        "for one)"
    ),
    f"POST {_SITE}/context-connections/{{siteContextConnectionId}}/sync": (
        ACTION + " (a context connection read again now)"
    ),
    f"POST {_SITE}/context-connections/{{siteContextConnectionId}}/test": (
        ACTION + " (a context connection's credentials tried)"
    ),
    **{
        op: CONTENT
        for op in (
            "POST /spaces/{spaceId}/change-requests",
            f"PATCH {_CR}",
            f"POST {_CR}/merge",
            f"POST {_CR}/update",
            f"POST {_CR}/reviews",
            f"POST {_CR}/requested-reviewers",
            f"DELETE {_CR}/requested-reviewers/{{userId}}",
            f"PATCH {_CR}/conversations/{{conversationId}}",
            f"DELETE {_CR}/conversations/{{conversationId}}",
            f"POST {_CR}/comments",
            f"DELETE {_CR}/comments/{{commentId}}",
            f"PUT {_CR}/comments/{{commentId}}",
            f"POST {_CR}/comments/{{commentId}}/replies",
            f"PUT {_CR}/comments/{{commentId}}/replies/{{commentReplyId}}",
            f"DELETE {_CR}/comments/{{commentId}}/replies/{{commentReplyId}}",
            f"POST {_CR}/content",
            "POST /spaces/{spaceId}/comments",
            "DELETE /spaces/{spaceId}/comments/{commentId}",
            "PUT /spaces/{spaceId}/comments/{commentId}",
            "POST /spaces/{spaceId}/comments/{commentId}/replies",
            "PUT /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}",
            "DELETE /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}",
        )
    },
    **{
        op: READERS
        for op in (
            f"POST {_ORG}/ask",
            f"PUT {_ORG}/agent/conversations/{{conversationId}}",
            f"PATCH {_ORG}/agent/conversations/{{conversationId}}",
            f"DELETE {_ORG}/agent/conversations/{{conversationId}}",
            f"POST {_SITE}/search",
            f"POST {_SITE}/search/prewarm",
            f"POST {_SITE}/agent-feedback",
            f"POST {_SITE}/agents/feedback",
            f"POST {_SITE}/ask",
            f"POST {_SITE}/ai/response",
            f"POST {_SITE}/insights/events",
            f"POST {_SITE}/insights/events/aggregate",
        )
    },
    **{
        op: INSIGHTS
        for op in (
            f"PUT {_SITE}/context-records",
            f"PATCH {_SITE}/findings/{{siteFindingId}}",
            f"POST {_SITE}/findings/{{siteFindingId}}/change-requests",
            f"PATCH {_SITE}/topics/{{siteTopicId}}",
            f"DELETE {_SITE}/topics/{{siteTopicId}}/findings",
        )
    },
    **{
        op: PLATFORM
        for op in (
            f"POST {_INTEGRATION}",
            f"DELETE {_INTEGRATION}",
            f"PUT {_INTEGRATION}/dev",
            f"DELETE {_INTEGRATION}/dev",
            f"POST {_INTEGRATION}/render",
            f"POST {_INTEGRATION}/tasks",
            f"POST {_INTEGRATION}/installations/{{installationId}}/tokens",
        )
    },
    "PATCH /ads/sites/{siteId}": (
        "GitBook's ads network's own record of a site (its zone and reporting ids)"
    ),
}


@dataclass(frozen=True)
class Share:
    """The count: managed operations by the kind that manages each, configuration ones."""

    managed: dict[str, str]
    configuration: list[str]

    @property
    def percent(self) -> float:
        return 100 * len(self.managed) / len(self.configuration)

    def line(self) -> str:
        return (
            f"{len(self.managed)} of {len(self.configuration)} configuration write operations "
            f"managed ({self.percent:.0f}%)"
        )


def share(contract: Contract) -> Share:
    """The managed operations and the configuration ones, as classified above."""
    derived = managed_by(contract)
    managed = {op: kind for op, (kind, _) in also_managed(contract).items()} | derived
    every = writes(contract)
    configuration = [op for op in every if op not in NOT_CONFIGURATION]
    return Share({op: managed[op] for op in every if op in managed}, configuration)

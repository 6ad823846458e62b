"""Git Sync installations on sites and spaces (production's `/git/installations` and a site's
`.../spaces/git/installations`, not in the API description, served in both contract modes):
install a provider on a target, read, configure, uninstall, and list a site's with its spaces'.

An installation is production's GitSyncInstallation: a provider (GitHub or GitLab), its target
(a site, or a space, managed by its site's installation when `siteId` names one: a child that
inherits the parent's repository), the common setup and the provider's configuration. A GitLab
access token is kept, never answered. What the installation waits for is its status: a GitHub
one is `pending` until the organization's GitHub account is connected in the app (the seed's
`githubAccountConnected`) and a repository and branch are set; a GitLab one `unauthenticated`
until it has an access token, then `pending` until a project and branch are set. Rows (id / org
/ parent): git-sync-installation (id / org / its site or space), so deleting the site deletes
its installation. Choices are in docs/emulator.md ("Git Sync").
"""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.body import Body, Place
from docsync.emulator.errors import conflict, not_found
from docsync.emulator.git_sync import KIND, drop, parent_of, status
from docsync.emulator.http import Ctx, created, new_id
from docsync.emulator.refs import live_space
from docsync.emulator.resource import Resource
from docsync.emulator.routes.sites.sites import SITES
from docsync.emulator.rules import Entry, Permissions, Rules
from docsync.emulator.scopes import OWN_ID, missing
from docsync.emulator.shapes import Arr, Bool, Dict, Enum, Nullable, Num, Obj, OneOf, Str
from docsync.emulator.site_tree import all_site_spaces
from docsync.emulator.snapshot import Loading, kept
from docsync.emulator.store import Doc, Row

BASE = "/v1/git/installations"
BRANCH = Str(pattern=r"^refs/heads/.+$")
#: GitSyncInstallationSetupCommon
COMMON = Obj(
    {
        "projectDirectory": Str(),
        "commitMessageTemplate": Str(),
        "previewExternalBranches": Bool(),
        "agentInstructions": Arr(Enum(("agents", "claude"))),
        "priority": Enum(("git", "gitbook")),
    }
)
#: what a child installation inherits from its site's and cannot set
INHERITED = ("previewExternalBranches", "agentInstructions")
PROVIDER = OneOf(
    (
        Obj(
            {
                "provider": Enum(("github",)),
                "providerConfiguration": Obj({"repositoryId": Num(), "branch": BRANCH}),
            },
            ("provider", "providerConfiguration"),
        ),
        Obj(
            {
                "provider": Enum(("gitlab",)),
                "providerConfiguration": Obj(
                    {
                        "projectId": Num(),
                        "accessToken": Str(),
                        "customInstanceURL": Nullable(Str()),
                        "branch": BRANCH,
                    }
                ),
            },
            ("provider", "providerConfiguration"),
        ),
    ),
    "a provider's setup {provider: github or gitlab, providerConfiguration}",
    tag="provider",
)
TARGET = OneOf(
    (
        Obj(
            {"type": Enum(("space",)), "spaceId": Str(), "siteId": Str()},
            ("type", "spaceId"),
        ),
        Obj({"type": Enum(("site",)), "siteId": Str()}, ("type", "siteId")),
    ),
    "a target {type: space, spaceId, siteId?} or {type: site, siteId}",
    tag="type",
)
INSTALL = Obj({"provider": Enum(("github", "gitlab")), "target": TARGET}, ("provider", "target"))
CHILDREN = Obj({"childInstallationProjectDirectories": Dict(Str())})


def view(ctx: Ctx, row: Row) -> Doc:
    """Production's GitSyncInstallation; a GitLab token is never answered."""
    parent = parent_of(ctx.tx, row)
    source = (parent or row).data
    config = {k: v for k, v in source["providerConfiguration"].items() if k != "accessToken"}
    body: Doc = {"provider": source["provider"], "providerConfiguration": config}
    body.update({k: v for k, v in row.data["common"].items() if k not in INHERITED})
    body.update({k: v for k, v in source["common"].items() if k in INHERITED})
    body.update(object=KIND, id=row.id)
    if parent is not None:
        body["parentInstallationId"] = parent.id
    body.update(target=dict(row.data["target"]), status=status(ctx.tx, row))
    body.update({k: row.data[k] for k in ("createdAt", "createdBy", "updatedAt")})
    body["urls"] = {"location": ctx.url(f"/git/installations/{row.id}")}
    return body


def _target(ctx: Ctx, target: Doc) -> tuple[Row, Row | None]:
    """The site or space a target names, with the site installation managing a space's; 404
    naming the field for what names nothing the caller can see."""
    if target["type"] == "site":
        site = ctx.tx.get_row("site", target["siteId"])
        if site is None or site.org is None:
            raise not_found(f"target.siteId: no site {target['siteId']!r}")
        ctx.org(Access.CONTENT, site.org, unseen=f"target.siteId: no site {target['siteId']!r}")
        return site, None
    space = ctx.tx.get_row("space", target["spaceId"])
    missing = f"target.spaceId: no space {target['spaceId']!r}"
    if space is None or space.org is None:
        raise not_found(missing)
    ctx.org(Access.CONTENT, space.org, unseen=missing)
    if live_space(ctx.tx, space.org, space.id) is None:
        raise not_found(missing)
    if "siteId" not in target:
        return space, None
    managing = [r for r in ctx.tx.rows(KIND, parent=target["siteId"]) if r.org == space.org]
    if not managing:
        raise not_found(f"target.siteId: no Git Sync installation on site {target['siteId']!r}")
    return space, managing[0]


def _install(ctx: Ctx) -> Response:
    """Production's installGitSyncProviderOnTarget: 409 when the target has one already."""
    body = INSTALL.check(ctx.body(), "")
    target, parent = _target(ctx, body["target"])
    if ctx.tx.rows(KIND, parent=target.id):
        raise conflict(
            "git-sync-installed",
            f"{target.kind.capitalize()} {target.id!r} has a Git Sync installation already",
        )
    if parent is not None and parent.data["provider"] != body["provider"]:
        raise conflict(
            "git-sync-installed",
            f"target.siteId: the site's installation is {parent.data['provider']}, not "
            f"{body['provider']}",
        )
    ident = new_id()
    data: Doc = {
        "provider": body["provider"],
        "providerConfiguration": {},
        "common": {},
        "target": body["target"],
        "createdAt": ctx.now,
        "createdBy": str(ctx.user["id"]),
        "updatedAt": ctx.now,
    }
    if parent is not None:
        data["parentInstallationId"] = parent.id
    ctx.tx.insert(KIND, ident, data, org=target.org, parent=target.id)
    return created(view(ctx, _row(ctx, ident)), ctx.url(f"/git/installations/{ident}"))


def _row(ctx: Ctx, ident: str) -> Row:
    row = ctx.tx.get_row(KIND, ident)
    assert row is not None
    return row


def _update(ctx: Ctx, row: Row) -> Row:
    """Production's updateGitSyncInstallationById: the setup is the provider's and the common
    fields (a child keeps its parent's repository; what it inherits it cannot set); the
    repository always holds a `gitbook-docs.yaml` here, so no import is refused."""
    raw = ctx.body()
    provider, common = PROVIDER.check(raw, ""), COMMON.check(raw, "")
    children = CHILDREN.check(raw, "").get("childInstallationProjectDirectories", {})
    data = dict(row.data)
    if row.data.get("parentInstallationId") is None:
        same = provider["provider"] == data["provider"]
        config = {**data["providerConfiguration"]} if same else {}
        data.update(provider=provider["provider"])
        data["providerConfiguration"] = {**config, **provider["providerConfiguration"]}
    else:
        common = {k: v for k, v in common.items() if k not in INHERITED}
    data.update(common={**data["common"], **common}, updatedAt=ctx.now)
    ctx.tx.update(KIND, row.id, data)
    _set_children(ctx, row, children)
    return _row(ctx, row.id)


def _set_children(ctx: Ctx, row: Row, directories: dict[str, Any]) -> None:
    for child_id, directory in directories.items():
        child = ctx.tx.get_row(KIND, child_id)
        if child is None or child.data.get("parentInstallationId") != row.id:
            raise not_found(
                f"childInstallationProjectDirectories.{child_id}: no child installation of "
                f"{row.id!r}"
            )
        common = {**child.data["common"], "projectDirectory": directory}
        ctx.tx.update(KIND, child.id, {**child.data, "common": common, "updatedAt": ctx.now})


def _on_site(ctx: Ctx, place: Place, site: Row) -> list[Row]:
    """Production's listSiteGitSyncInstallations: the site's installation and its spaces'
    (those it manages, and those of the spaces it publishes), not paged."""
    spaces = {str(r.data["space"]) for r in all_site_spaces(ctx.tx, site)}
    return [
        row
        for row in ctx.tx.rows(KIND, org=site.org)
        if row.parent == site.id
        or row.data["target"].get("siteId") == site.id
        or row.parent in spaces
    ]


class GitSyncRules(Rules):
    def serve_create(self, ctx: Ctx, res: Entry) -> Response:
        return _install(ctx)

    def change(self, ctx: Ctx, res: Entry, place: Place, row: Row, values: Doc) -> Row:
        return _update(ctx, row)

    def remove(self, ctx: Ctx, place: Place, row: Row) -> bool:
        """205; the installations a site's managed go with it."""
        drop(ctx.tx, row)
        return True

    def nothing(self, ctx: Ctx, res: Entry) -> None:
        """An id that names nothing is a 404, as production declares (no 204)."""
        raise not_found(missing(ctx, res, Place("")))

    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
        return _seeded(at, item)

    def seeded_parent(self, place: Place, item: Doc) -> str | None:
        target = item["target"]
        return str(target.get("siteId") if target.get("type") == "site" else target.get("spaceId"))


def _seeded(at: Loading, found: Doc) -> Doc:
    """An installation as a snapshot read it, on its site or space. Its GitLab token, which is
    never answered, is one no one knows when it was set (its status says so); a GitHub one
    active says that the organization's GitHub account is connected."""
    target = found["target"]
    config = dict(found.get("providerConfiguration") or {})
    if found.get("provider") == "gitlab" and found.get("status") != "unauthenticated":
        config["accessToken"] = "(a token: not read)"
    if found.get("provider") == "github" and found.get("status") == "active":
        at.patch("organization", at.org, {"githubAccountConnected": True})
    data: Doc = {
        "provider": found.get("provider"),
        "providerConfiguration": config,
        "common": kept(found, COMMON.fields),
        "target": target,
        "createdAt": at.now,
        "updatedAt": at.now,
        **kept(found, ("parentInstallationId", "createdAt", "createdBy", "updatedAt")),
    }
    return data


GIT_SYNC = Resource(
    KIND,
    BASE,
    "installationId",
    view,
    missing="No Git Sync installation {id!r}",
    scope=OWN_ID,
    body=Body(read_whole=True),
    rules=GitSyncRules(),
    operations=("create", "get", "update", "delete"),
    access=Permissions(Access.CONTENT, Access.CONTENT),
    snapshot=(),
)


routes: list[BaseRoute] = [
    *GIT_SYNC.routes(),
    SITES.listing(
        "spaces/git/installations",
        _on_site,
        lambda ctx, rows: [view(ctx, r) for r in rows],
        paged=False,
    ),
]

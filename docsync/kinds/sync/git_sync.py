"""A site's or a space's Git Sync installation (`gitSync:`, production's
GitSyncInstallationSetup): installed (`POST /v1/git/installations {provider, target}`), configured
(`PATCH /v1/git/installations/{id}`: the provider's repository and branch, and the common
fields), uninstalled (`gitSync: null`; not written, it is not managed). The kinds that hold one
plan it (`synced.py`, `planning.py`); its actions are carried out here.

A target holds one installation at most (production answers a second install 409): an install
whose answer was lost is found again on its site or space before it is sent again. A GitLab
access token is a secret production never answers (`write_only`): see `planning.py` for when it
is sent and how a plan shows it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import Field as Limits
from pydantic import model_validator

from docsync.api.answers import ID, TEXT, Obj, Opt
from docsync.api.contract import LEFT_OUT, SENDS, SHAPE, STRUCTURE, Note, Seed
from docsync.core.context import RunContext
from docsync.core.entries import Model, explained
from docsync.core.model import Action
from docsync.core.nullability import NULL, NullChecked
from docsync.core.payloads import Payload, Ref
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.parts import Part
from docsync.kinds.requests import (
    ORGANIZATION,
    Lose,
    Lost,
    LostAnswers,
    Route,
    Routes,
    Writes,
    create_once,
)

BRANCH = explained(r"^refs/heads/.+$", "must be a branch ref, like 'refs/heads/main'")
#: what each provider's configuration takes (production's GitSyncInstallationSetupGitHub, -GitLab)
KEYS: dict[str, tuple[str, ...]] = {
    "github": ("repositoryId", "branch"),
    "gitlab": ("projectId", "accessToken", "customInstanceURL", "branch"),
}
#: the secret of a provider's configuration, which production never answers
TOKEN = "accessToken"
#: the fields of production's GitSyncInstallationSetupCommon
COMMON = (
    "projectDirectory",
    "commitMessageTemplate",
    "previewExternalBranches",
    "agentInstructions",
    "priority",
)


class GitSyncRepository(NullChecked, Model):
    """Where the repository is and which branch syncs (production's providerConfiguration):
    GitHub's `repositoryId`, or GitLab's `projectId`, `accessToken` and `customInstanceURL`."""

    repositoryId: int | None = None
    """GitHub's id of the repository."""
    projectId: int | None = None
    """GitLab's id of the project."""
    accessToken: str | None = None
    """GitLab's access token: a secret (write it with env()), which production never answers."""
    customInstanceURL: Annotated[str | None, NULL] = None
    """A self-hosted GitLab's URL; null: GitLab's own."""
    branch: str | None = Limits(default=None, pattern=BRANCH)
    """The branch that syncs, as a ref (`refs/heads/main`)."""


class GitSync(NullChecked, Model):
    """A Git Sync installation (production's GitSyncInstallationSetup): only the fields written
    are managed; `null` uninstalls it."""

    # the install's, and every configuration's
    provider: Literal["github", "gitlab"] = Api().limits()
    """`github` (the organization's GitHub account is connected once in the app) or `gitlab`
    (an access token, through the API)."""
    # the GitLab token: a secret key, which production never answers (`planning.py`)
    providerConfiguration: GitSyncRepository = Api(create=False, secret_keys=(TOKEN,)).limits(
        default_factory=GitSyncRepository
    )
    """The repository (GitHub's `repositoryId`, or GitLab's `projectId` with its `accessToken`
    and `customInstanceURL`) and its `branch`; only the keys written are managed."""
    projectDirectory: str | None = Api(create=False).limits(default=None)
    """The repository's directory that syncs (a monorepo's subdirectory); for a site, where its
    `gitbook-docs.yaml` is."""
    commitMessageTemplate: str | None = Api(create=False).limits(default=None)
    """The template of the commits GitBook makes."""
    previewExternalBranches: bool | None = Api(create=False).limits(default=None)
    """Whether branches other than `branch` get previews."""
    agentInstructions: list[Literal["agents", "claude"]] | None = Api(
        create=False, unordered=True
    ).limits(default=None)
    """The agent instruction files GitBook keeps at the repository's root (any order)."""
    priority: Literal["git", "gitbook"] | None = Api(create=False).limits(default=None)
    """Which side is the source of truth: `git` (a configuration change imports the repository
    into GitBook) or `gitbook` (it exports GitBook's content to the repository)."""

    @model_validator(mode="after")
    def _one_provider(self) -> GitSync:
        written = self.providerConfiguration.model_fields_set
        foreign = sorted(written - set(KEYS[self.provider]))
        if foreign:
            raise ValueError(
                f"providerConfiguration.{foreign[0]} is not {self.provider}'s: a "
                f"{self.provider} installation takes {', '.join(KEYS[self.provider])}"
            )
        return self


#: production's GitSyncInstallation as docsync relies on it (a GitLab token is never in it)
INSTALLATION = Obj(
    {
        "id": ID,
        "provider": TEXT,
        "providerConfiguration": Opt(Obj({})),
        "status": TEXT,
        "target": Obj({"type": TEXT}),
        "parentInstallationId": Opt(ID),
    }
)
#: where production's installations are
BASE = "/v1/git/installations"
FOUND_BY = "read again on its site or space, which holds one at most (a second install is refused)"

CONTRACT = (
    Note(
        SENDS,
        f"POST {BASE}",
        "",
        "the install of a site's or space's one installation (a singleton's create, which its "
        "declaration does not name)",
    ),
    Note(STRUCTURE, f"POST {BASE}", "target", "the site or space whose entry writes `gitSync`"),
    Note(
        LEFT_OUT,
        f"PATCH {BASE}/{{id}}",
        "childInstallationProjectDirectories",
        "the directories of the spaces a site's installation manages are its repository's "
        "gitbook-docs.yaml's (each space's `content.directory`), which owns the site's "
        "structure once Git Sync does (docsync refuses to write it then)",
    ),
    Note(
        SHAPE,
        f"PATCH {BASE}/{{id}}",
        "providerConfiguration",
        "one object for either provider's keys (production's oneOf by `provider`: GitHub's "
        "repositoryId, GitLab's projectId, accessToken, customInstanceURL, and a branch), a key "
        "of the other provider refused by the model, naming it; each provider's own schema is "
        "the request checked on every end-to-end test",
    ),
    Seed(
        "POST", BASE, {"provider": "gitlab", "target": {"type": "site", "siteId": "{site}"}}, "git"
    ),
    Seed(
        "PATCH",
        f"{BASE}/{{git}}",
        {
            "provider": "gitlab",
            "providerConfiguration": {
                "projectId": 42,
                "accessToken": "glpat-fuzz",
                "branch": "refs/heads/main",
            },
        },
    ),
    Seed(
        "POST",
        BASE,
        {
            "provider": "gitlab",
            "target": {"type": "space", "spaceId": "{guides}", "siteId": "{site}"},
        },
    ),
)
SYNCED = ORGANIZATION + "spaces: [{title: Guides%s}]\nsites: [{title: Docs%s}]\n"
GITLAB = (
    ", gitSync: {provider: gitlab, providerConfiguration: {projectId: 42, "
    "branch: refs/heads/main, accessToken: glpat-lost-answers}, priority: %s}"
)
GITHUB = ", gitSync: {provider: github, providerConfiguration: {repositoryId: 7}}"
LOST = LostAnswers(
    "git sync",
    SYNCED % ("", ""),
    (
        Lost(
            SYNCED % (GITHUB, GITLAB % "git"),
            (
                Lose("POST", "/git/installations$", carried_out=False),  # made nothing: sent again
                Lose("POST", "/git/installations$"),  # made one: found on its target, not twice
                Lose("PATCH", "/git/installations/[^/]+$", 2),
            ),
        ),
        Lost(
            SYNCED % (", gitSync: null", GITLAB % "gitbook"),
            (
                Lose("PATCH", "/git/installations/[^/]+$"),
                Lose("DELETE", "/git/installations/[^/]+$"),
            ),
        ),
    ),
)

GIT_SYNC = Declaration(
    "git_sync",
    "gitSync",
    "Git Sync installation",
    key="provider",
    parents=("site", "space"),
    part=True,
    singleton=True,
    nullable=True,
    entry=GitSync,
    routes=Routes(
        BASE,
        item=f"{BASE}/{{id}}",
        id_name="installationId",
        more={
            # the installation a site or space names, read with it (`SyncedKind`)
            "installation": Route("GET", "{item}", answer=INSTALLATION),
            # the site or space it is installed on, read to find an install whose answer was lost
            "site": Route("GET", "/v1/orgs/{org}/sites/{id}", answer=Obj({})),
            "space": Route("GET", "/v1/spaces/{id}", answer=Obj({})),
        },
    ),
    describe=(
        "Its Git Sync installation (production's GitSyncInstallationSetup): only the fields "
        "written are managed; null uninstalls it. On a site, the repository's gitbook-docs.yaml "
        "then owns its sections, groups, site spaces and links."
    ),
    writes=(Writes(found_by=FOUND_BY),),
    lost_answers=(LOST,),
    contract=CONTRACT,
    roles=("read", "create or admin"),
    answer=INSTALLATION,
)


@dataclass
class Installation(Payload):
    """What an install, a configuration and an uninstall need: the site or space (`on`, and its
    id or the placeholder of the one this apply makes) and the PATCH body of the setup, the
    access token in it (never saved: a saved plan is made again before it is applied)."""

    on: str = ""
    target: Ref = None
    provider: str = ""
    setup: dict[str, Any] = field(default_factory=dict)


class GitSyncKind(Part):
    """A Git Sync installation of a site or a space: planned by the kind that holds it
    (`synced.SyncedKind`), carried out here."""

    declaration = GIT_SYNC

    async def execute(self, action: Action, run: RunContext) -> None:
        """An uninstall; or an install (when its answer is lost, found again on its target
        before it is sent again) and the setup's PATCH, which queues a sync."""
        payload = action.payload
        assert isinstance(payload, Installation)
        if action.verb == "delete":
            await self.send(run.api, "delete", id=action.live_id)
            return
        ident = action.live_id
        if action.verb == "create":
            target = str(run.resolve(payload.target))
            on = {"type": payload.on, f"{payload.on}Id": target}
            body = {"provider": payload.provider, "target": on}

            async def install() -> str:
                made = await self.send(run.api, "create", body)
                return str(made["id"])

            async def find() -> str | None:
                return installed_on(await self.send(run.api, payload.on, org=run.org_id, id=target))

            ident = await create_once(install, find)
            run.ids[action.address] = ident
        await self.send(run.api, "update", payload.setup, id=ident)

    def requests(self, action: Action) -> int:
        return 2 if action.verb == "create" else 1


def installed_on(found: Any) -> str | None:
    """The id of the installation on the site or space read (its `gitSync`), if any: a sync
    without one (production's answer for a sync through an integration) is none."""
    state = found.get("gitSync") if isinstance(found, dict) else None
    ident = state.get("installationId") if isinstance(state, dict) else None
    return ident if isinstance(ident, str) and ident else None

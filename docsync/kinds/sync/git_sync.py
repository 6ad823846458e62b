"""A site's or a space's Git Sync installation (`gitSync:`, production's
GitSyncInstallationSetup): installed (`POST /v1/git/installations {provider, target}`), configured
(`PATCH /v1/git/installations/{id}`: the provider's repository and branch, and the common
fields), uninstalled (`gitSync: null`; not written, it is not managed). The kind is a part of
the sites and spaces that hold it (`GitSyncKind`, a `HeldPart`): what they say of it is in
`synced.py`, its planning in `planning.py`; its actions are carried out here.

A target holds one installation at most (production answers a second install 409): an install
whose answer was lost is found again on its site or space before it is sent again. A GitLab
access token is a secret production never answers (`write_only`): see `planning.py` for when it
is sent and how a plan shows it."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field as Limits
from pydantic import model_validator

from docsync.api.answers import ID, TEXT, Obj, Opt
from docsync.api.contract import LEFT_OUT, SENDS, SHAPE, STRUCTURE, Note, Seed
from docsync.api.errors import NotFound
from docsync.core.concurrent import gather_all
from docsync.core.context import PlanContext, RunContext
from docsync.core.entries import Model, explained
from docsync.core.model import Action
from docsync.core.nullability import NULL, NullChecked
from docsync.core.reconcile import Reconciliation
from docsync.core.state import LiveResource, LiveState
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.kind import ExportNames, Kind
from docsync.kinds.parts import HeldPart
from docsync.kinds.requests import (
    ORGANIZATION,
    Lose,
    Lost,
    LostAnswers,
    Reading,
    Route,
    Routes,
    Writes,
    create_once,
    unless_hidden,
    unread,
)
from docsync.kinds.sync.planning import (
    COMMON,
    SLOT,
    TOKEN,
    Installation,
    installation,
    plan_installation,
    refuse_legacy,
)
from docsync.kinds.sync.synced import legacy, legacy_sync, state, written_on

BRANCH = explained(r"^refs/heads/.+$", "must be a branch ref, like 'refs/heads/main'")
#: what each provider's configuration takes (production's GitSyncInstallationSetupGitHub, -GitLab)
KEYS: dict[str, tuple[str, ...]] = {
    "github": ("repositoryId", "branch"),
    "gitlab": ("projectId", "accessToken", "customInstanceURL", "branch"),
}


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
            # the installation a site or space names, read with it (`GitSyncKind`)
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


class GitSyncKind(HeldPart):
    """A Git Sync installation of a site or a space: read, planned and exported with the site
    or space that holds it (a part its kind holds, `HeldPart`; what the site or space says of
    it in `synced.py`, its planning in `planning.py`), carried out here."""

    declaration = GIT_SYNC

    async def fetch(self, read: Reading, items: list[dict[str, Any]], holder: Kind) -> None:
        """Into each item whose entry writes `gitSync` (every item, for export) and that says it
        has an installation, that installation, read by its id (`item["_gitSync"]`)."""
        chosen = items if read.entries is None else written_on(read.entries, items)

        async def one(item: dict[str, Any], ident: str) -> None:
            try:
                item[SLOT] = await self.send(read.api, "installation", id=ident)
            except NotFound:  # uninstalled since the list was read
                item[SLOT] = None

        await gather_all(
            *(
                unless_hidden(item, GIT_SYNC.section, one(item, str(found["installationId"])))
                for item in chosen
                if (found := state(item)) is not None
            )
        )

    def plan(self, ctx: PlanContext, result: Reconciliation | None, holder: Kind) -> None:
        """The installation of each entry planned (`result`) that writes `gitSync`, with its
        resource (none for one replaced: the new one has none yet)."""
        for desired, live in result.entries if result else []:
            if live is not None and unread(live.raw, GIT_SYNC.section):
                continue  # hidden from the token's role: named by the plan, not planned
            replaced = any(a.verb == "replace" for a in ctx.actions_at[desired.address])
            older = legacy(live.raw) if live is not None and not replaced else None
            if older is not None:
                for action in ctx.actions_at[desired.address]:
                    if action.verb != "delete":  # a delete names it among what goes
                        action.notes.append(f"{legacy_sync(older)}: left as it is")
                refuse_legacy(desired, older, holder.declaration.noun, ctx)
                continue
            noun = holder.declaration.noun
            plan_installation(desired, None if replaced else live, noun, ctx, self.name)

    def export(self, resource: LiveResource, live: LiveState, names: ExportNames) -> Any:
        """The resource's own installation (not its site's, for a space its site's installation
        manages), as a manifest writes it: the access token, which production never answers,
        left out. A sync through an integration, which no manifest writes, is said beside the
        export (`ExportNames.left_as_is`)."""
        older = legacy(resource.raw)
        if older is not None:
            names.left_as_is(resource.address, f"{legacy_sync(older)}: left as it is")
        found = installation(resource)
        if found is None or found.get("parentInstallationId"):
            return None
        config = {k: v for k, v in (found.get("providerConfiguration") or {}).items() if k != TOKEN}
        written: dict[str, Any] = {"provider": found["provider"], "providerConfiguration": config}
        return written | {name: found[name] for name in COMMON if found.get(name) is not None}

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

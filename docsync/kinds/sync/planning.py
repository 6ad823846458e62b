"""A site's or a space's Git Sync installation compared and planned: one action per entry that
writes `gitSync`, addressed `site["Docs"].gitSync` (an install and its configuration, a
configuration, an uninstall). Called by the kinds that hold one (`synced.py`).

Only the fields written are managed, the keys of `providerConfiguration` among them. The GitLab
access token, which production never answers, is sent when the installation is made, when
production says it has none (`unauthenticated`: the plan shows it `(sensitive)`, as a keyed
digest) and with every configuration change; a token changed and nothing else is not seen,
and is sent by a plan made with `--resend-secrets` (a configuration, so a sync, too).

Every configuration queues a sync: an import from the repository when the installation's
priority is `git`, an export to it when `gitbook` (production's updateGitSyncInstallationById),
so the action is flagged a content change. A GitHub installation waits, `pending`, for the
organization's GitHub account to be connected once in the app: the plan that installs it says
so, and sets its repository and branch all the same, so that the next plan has nothing to do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from docsync.core.context import PlanContext, ref
from docsync.core.entries import Model
from docsync.core.model import Action, FieldChange, Verb, leaf_change
from docsync.core.payloads import Payload, Ref
from docsync.core.secrecy import keyed_digest
from docsync.core.state import DesiredResource, LiveResource
from docsync.kinds.sync.synced import STATE

Path = tuple[str | int, ...]
#: where a holder's item keeps its installation as read
SLOT = f"_{STATE}"
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


class Written(Protocol):
    """What planning reads of a written `gitSync` (the kind's entry model, `git_sync.GitSync`)."""

    @property
    def provider(self) -> str: ...
    @property
    def providerConfiguration(self) -> Model: ...
    @property
    def projectDirectory(self) -> str | None: ...
    @property
    def priority(self) -> str | None: ...
    @property
    def model_fields_set(self) -> set[str]: ...


@dataclass
class Installation(Payload):
    """What an install, a configuration and an uninstall need: the site or space (`on`, and its
    id or the placeholder of the one this apply makes) and the PATCH body of the setup, the
    access token in it (never saved: a saved plan is made again before it is applied)."""

    on: str = ""
    target: Ref = None
    provider: str = ""
    setup: dict[str, Any] = field(default_factory=dict)


SECRET = f"providerConfiguration.{TOKEN}"


def installation(live: LiveResource | None) -> dict[str, Any] | None:
    """The installation read on a live site or space (None: none, or not read)."""
    found = live.raw.get(SLOT) if live is not None else None
    return found if isinstance(found, dict) else None


def _config(written: Written) -> dict[str, Any]:
    """The keys of the provider's configuration written, in the model's order."""
    config = written.providerConfiguration
    names = [name for name in type(config).model_fields if name in config.model_fields_set]
    return {name: getattr(config, name) for name in names}


def _common(written: Written) -> dict[str, Any]:
    return {name: getattr(written, name) for name in COMMON if name in written.model_fields_set}


def _same(name: str, before: Any, after: Any) -> bool:
    if name == "agentInstructions":
        return sorted(before or []) == sorted(after or [])
    return bool(before == after)


def _changes(
    written: Written, found: dict[str, Any] | None, path: Path, ctx: PlanContext
) -> list[FieldChange]:
    """The written fields that differ from the installation's (all, for a new one): a key of
    the provider's configuration at its path, the token as a keyed digest when it is sent."""
    same_provider = found is not None and found.get("provider") == written.provider
    live_config = (found or {}).get("providerConfiguration") or {} if same_provider else {}
    out = []
    if not same_provider:
        before = found.get("provider") if found is not None else None
        out.append(FieldChange("provider", before, written.provider))
    new: dict[str, Any] = {}  # a new configuration's plain keys, shown as one value
    for name, after in _config(written).items():
        at = (*path, "providerConfiguration", name)
        if name == TOKEN:
            unauthenticated = found is None or found.get("status") == "unauthenticated"
            if not same_provider or unauthenticated or ctx.resend_secrets:
                digest = f"digest:{keyed_digest(str(after).encode())[:32]}"
                out.append(FieldChange(SECRET, None, digest, sensitive=True))
        elif not same_provider and not ctx.sensitive(at):
            new[name] = after
        elif not same_provider or live_config.get(name) != after:
            before, secret = live_config.get(name), ctx.sensitive(at)
            out.append(leaf_change("providerConfiguration", (name,), before, after, secret))
    if new:
        out.insert(1, FieldChange("providerConfiguration", None, new))
    for name, after in _common(written).items():
        before = found.get(name) if found is not None else None
        if found is None or not _same(name, before, after):
            out.append(FieldChange(name, before, after, ctx.sensitive((*path, name))))
    return out


def _resent(written: Written, found: dict[str, Any] | None, changes: list[FieldChange]) -> bool:
    """Whether the token is sent only because `--resend-secrets` asks: the installation has
    one (same provider, authenticated) that no plan can compare."""
    if found is None or found.get("provider") != written.provider:
        return False
    held = found.get("status") != "unauthenticated"
    return held and any(c.field == SECRET for c in changes)


def _setup(written: Written) -> dict[str, Any]:
    """The PATCH body: the provider, its configuration as written (the token with it), the
    common fields written."""
    return {
        "provider": written.provider,
        "providerConfiguration": _config(written),
        **_common(written),
    }


def _synced(written: Written, found: dict[str, Any] | None, on: str) -> str:
    """What the configuration starts, by the installation's priority (written, else live)."""
    priority = written.priority or (found or {}).get("priority")
    if priority == "git":
        return (
            f"CONTENT CHANGE: starts an import from the repository's branch: the {on}'s "
            "content in GitBook becomes the repository's"
        )
    if priority == "gitbook":
        return (
            f"CONTENT CHANGE: starts an export of the {on}'s content to the repository's "
            "branch (a commit)"
        )
    return (
        "CONTENT CHANGE: starts a sync with the repository: an import or an export, by the "
        "installation's priority"
    )


def plan_installation(
    desired: DesiredResource, live: LiveResource | None, on: str, ctx: PlanContext, kind: str
) -> Action | None:
    """The action of the Git Sync kind (`kind`) that makes the installation of one site or
    space (`on`) what its entry writes: none when the entry does not write `gitSync`, or
    nothing differs."""
    entry = desired.entry
    section = STATE
    if entry is None or desired.absent or section not in entry.model_fields_set:
        return None
    written: Written | None = getattr(entry, section)
    found = installation(live)
    path: Path = (*desired.path, section)
    address = f"{desired.address}.{section}"
    if found is not None and found.get("parentInstallationId"):
        ctx.problem(
            path,
            f"{desired.address}'s Git Sync installation is its site's (installation "
            f"{found['parentInstallationId']}), which gives it its directory: write gitSync on "
            "that site, or leave it out here",
        )
        return None
    ident = ctx.live_id_of(desired.address) if live is not None else None
    target = ident or ref(desired.address)
    if written is None:
        return None if found is None else _uninstall(desired, found, on, target, ctx, kind)
    changes = _changes(written, found, path, ctx)
    if not changes:
        return None
    if ctx.resend_secrets and _resent(written, found, changes):
        ctx.resent.add(address)
    payload = Installation(on, target, written.provider, _setup(written))
    verb: Verb = "create" if found is None else "update"
    live_id = None if found is None else str(found["id"])
    where = ctx.where(path)
    action = Action(verb, kind, address, changes, where, live_id, payload=payload)
    action.content_change = True
    action.notes.append(_synced(written, found, on))
    provider_new = found is None or found.get("provider") != written.provider
    if written.provider == "github" and provider_new:
        action.notes.append(
            "PENDING: production keeps a GitHub installation pending until the organization's "
            "GitHub account is connected once in the app; its repository and branch are set now"
        )
    if on == "site" and found is None:
        action.notes.append(
            "STRUCTURE OWNED BY GIT SYNC: the site's sections, groups, site spaces and links are "
            "then its repository's, in gitbook-docs.yaml"
            + (f" under {written.projectDirectory}/" if written.projectDirectory else "")
        )
    return ctx.add(action)


def _uninstall(
    desired: DesiredResource,
    found: dict[str, Any],
    on: str,
    target: Any,
    ctx: PlanContext,
    kind: str,
) -> Action:
    path: Path = (*desired.path, STATE)
    changes = [FieldChange("provider", found.get("provider"), None)]
    payload = Installation(on, target, str(found.get("provider")))
    action = Action(
        "delete",
        kind,
        f"{desired.address}.{STATE}",
        changes,
        ctx.where(path),
        str(found["id"]),
        payload=payload,
    )
    action.notes.append(f"the {on} stops syncing with its repository")
    if on == "site":
        action.notes.append(
            "the site's structure is GitBook's again (managed where its entry writes it); the "
            "installations of the spaces the site's manages go with it"
        )
    return ctx.add(action)


def refuse_legacy(
    desired: DesiredResource, older: dict[str, Any], on: str, ctx: PlanContext
) -> None:
    """An entry that writes `gitSync` on a site or space synced through an integration (legacy
    Git Sync): production's Git Sync operations do not reach that sync, so docsync can neither
    configure nor remove it, nor install beside it. Located, with what to do."""
    if STATE not in getattr(desired.entry, "model_fields_set", ()):
        return
    provider = older.get("installationProvider") or "its provider"
    ctx.problem(
        (*desired.path, STATE),
        f"this {on} is synced with {provider} through an integration (legacy Git Sync, "
        f"{older.get('integration') or 'not an installation'}), which production's Git Sync "
        "operations cannot configure, replace or remove: leave `gitSync` out here (the sync "
        f"goes on as it is), or move the {on} to Git Sync in the app first (disconnect the "
        "integration, then connect Git Sync), and write `gitSync` then",
    )

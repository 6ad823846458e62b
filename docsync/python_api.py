"""The Python API (`docsync.load`, `docsync.plan`, `docsync.apply`): the commands' pipeline for
code that drives many organizations (a CI matrix generator, a provisioning service) without
shelling out. docs/python-api.md documents it; nothing inside docsync imports this module, which
`docsync/__init__.py` loads on first use.

A plan is applied as `docsync apply --plan` applies a saved one: the organization is read again,
and the apply is refused (nothing changed) unless the plan made now is the one returned."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from docsync import policies
from docsync.api import ApiClient
from docsync.api.config import check_token, resolve_api_url, resolve_token
from docsync.core import concurrent
from docsync.core.model import Plan as CorePlan
from docsync.core.state import LiveState
from docsync.engine import run
from docsync.engine.executor import ActionResult, ApplyReport
from docsync.engine.safety import SafetyPolicy
from docsync.engine.safety import check as check_rails
from docsync.engine.saved import SavedPlan
from docsync.engine.target import narrow
from docsync.manifest import LoadedManifest, load_manifests
from docsync.render.json import ActionDoc, action_document, render_json
from docsync.render.markdown import render_markdown
from docsync.render.text import render_plan

__all__ = ["ActionOutcome", "ApplyResult", "Manifests", "Plan", "apply", "load", "plan"]

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class Manifests:
    """Manifests loaded and checked offline: what `docsync validate` accepts."""

    loaded: LoadedManifest = field(repr=False)

    @property
    def organization(self) -> str:
        """The organization they describe, as written (an id or a title)."""
        return self.loaded.manifest.organization

    @property
    def files(self) -> list[str]:
        """The manifest files read, in the order they were merged."""
        return list(self.loaded.files)


@dataclass(frozen=True, eq=False)
class Plan:
    """What `apply` would change: the actions of `docsync plan --format json`, in order."""

    _plan: CorePlan = field(repr=False)
    _live: LiveState = field(repr=False)
    _manifests: Manifests = field(repr=False)
    _reviewed: SavedPlan = field(repr=False)
    _rails: SafetyPolicy = field(repr=False)

    @property
    def organization(self) -> str:
        """The organization's id."""
        return self._plan.organization

    @property
    def actions(self) -> list[ActionDoc]:
        """Each action as the JSON plan documents it (schemas/plan.schema.json): `key`, `verb`,
        `kind`, `address`, `location`, `changes` (sensitive values as markers), the review
        flags and the policies' warnings."""
        return [action_document(action) for action in self._plan.actions]

    @property
    def has_changes(self) -> bool:
        return not self._plan.empty

    @property
    def summary(self) -> str:
        """`2 to create, 1 to update, 0 to delete`."""
        return self._plan.summary()

    @property
    def warnings(self) -> list[str]:
        return list(self._plan.warnings)

    def to_json(self) -> str:
        """`docsync plan --format json`."""
        return render_json(self._plan)

    def to_markdown(self, max_chars: int = 0) -> str:
        """`docsync plan --format markdown`: whole by default, else within `max_chars`."""
        return render_markdown(self._plan, title=self._title, budget=max_chars)

    def to_text(self) -> str:
        """`docsync plan`, without colour."""
        return render_plan(self._plan, title=self._title)

    @property
    def _title(self) -> str:
        return f"{self._live.organization.get('title')} ({self._live.org_id})"


@dataclass(frozen=True)
class ActionOutcome:
    """One action of an apply: what it did, to which resource, and why it failed or was
    skipped."""

    key: str
    verb: str
    kind: str
    address: str
    #: the resource's id: the one a create got, the one a delete removed
    id: str | None
    seconds: float
    error: str | None = None


@dataclass(frozen=True)
class ApplyResult:
    done: list[ActionOutcome]
    failed: list[ActionOutcome]
    #: not done because an action they depend on failed
    skipped: list[ActionOutcome]

    @property
    def ok(self) -> bool:
        return not self.failed and not self.skipped

    @property
    def summary(self) -> str:
        """`12 done, 0 failed, 0 skipped`."""
        return f"{len(self.done)} done, {len(self.failed)} failed, {len(self.skipped)} skipped"


def load(
    paths: PathLike | Sequence[PathLike],
    *,
    variables: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Manifests:
    """Load, template and check manifests offline (no network), as `docsync validate` does.

    `paths` are files or directories; `variables` are what `--var`/`--var-file` give the
    templates; `env()` reads `environ` (default: the process environment). Raises
    docsync.ManifestError listing every problem, each at its file, line and column."""
    given = [paths] if isinstance(paths, str | os.PathLike) else list(paths)
    return Manifests(load_manifests(given, variables=variables, environ=environ))


def plan(
    manifests: Manifests,
    *,
    api_url: str | None = None,
    token: str | None = None,
    targets: Sequence[str] = (),
    resend_secrets: bool = False,
    force: bool = False,
    max_delete_share: float | None = None,
    parallelism: int = 8,
    timeout: float = 30.0,
) -> Plan:
    """Read the organization and plan, as `docsync plan` does: the policies and safety rails
    are checked (docsync.PolicyDenied, docsync.ApplyRefused unless `force`), API failures are
    docsync.ApiError. `api_url` and `token` default to DOCSYNC_API_URL and DOCSYNC_TOKEN."""
    loaded = manifests.loaded
    rails = SafetyPolicy.from_manifest(
        loaded.manifest.safety, force=force, max_delete_share=max_delete_share
    )
    client = _client(api_url, token, parallelism, timeout)
    made, live = concurrent.run(_plan(client, loaded, list(targets), rails, resend_secrets))
    return Plan(made, live, manifests, SavedPlan.make(made, live, loaded), rails)


def apply(
    plan: Plan,
    *,
    api_url: str | None = None,
    token: str | None = None,
    parallelism: int = 8,
    timeout: float = 30.0,
) -> ApplyResult:
    """Carry out `plan`: the organization is read again and the apply refused
    (docsync.ApplyRefused, nothing changed) when it changed since, as for a saved plan. A
    failed action does not raise: it is in `failed`, what depends on it in `skipped`."""
    client = _client(api_url, token, parallelism, timeout)
    return concurrent.run(_apply(client, plan))


def _client(api_url: str | None, token: str | None, parallelism: int, timeout: float) -> ApiClient:
    return ApiClient(
        resolve_api_url(api_url, given_as="api_url"),
        check_token(token) if token is not None else resolve_token(),
        parallelism=parallelism,
        timeout=timeout,
    )


async def _plan(
    client: ApiClient,
    loaded: LoadedManifest,
    targets: list[str],
    rails: SafetyPolicy,
    resend_secrets: bool,
) -> tuple[CorePlan, LiveState]:
    async with client as api:
        made, live = await run.plan(api, loaded, resend_secrets=resend_secrets)
    made = narrow(made, targets)
    policies.enforce(made, loaded)
    check_rails(made, live, rails)
    return made, live


async def _apply(client: ApiClient, reviewed: Plan) -> ApplyResult:
    loaded = reviewed._manifests.loaded
    async with client as api:
        resend = reviewed._plan.resend_secrets
        made, live = await run.plan(api, loaded, resend_secrets=resend)
        made = narrow(made, reviewed._plan.targets)
        violations = policies.check(made, loaded)
        reviewed._reviewed.check_live(live, made)
        reviewed._reviewed.check_same(made)
        if violations:
            raise policies.PolicyDenied(violations)
        check_rails(made, live, reviewed._rails)
        if made.empty:
            return ApplyResult([], [], [])
        report = await run.apply(api, made, live, parallelism=client.parallelism)
    return _result(report)


def _result(report: ApplyReport) -> ApplyResult:
    def outcome(result: ActionResult) -> ActionOutcome:
        action = result.action
        return ActionOutcome(
            key=action.key,
            verb=action.verb,
            kind=action.kind,
            address=action.address,
            id=action.live_id if action.verb == "delete" else report.ids.get(action.address),
            seconds=round(result.seconds, 3),
            error=result.error,
        )

    return ApplyResult(
        done=[outcome(r) for r in report.of("done")],
        failed=[outcome(r) for r in report.of("failed")],
        skipped=[outcome(r) for r in report.of("skipped")],
    )

"""A rehearsal (`docsync rehearse`): a reviewed, saved plan applied to a copy of the organization
before production sees it, then planned again, so that its promise (it applies; the next plan
is empty) is found kept or broken on production's shapes.

The copy is the emulator, in this process, serving a snapshot of the organization in
production's mode (what planning the saved plan reads of it, read now with reads only, a stale
plan refused as `apply --plan` refuses it; or a snapshot file), with the secrets and emails the
manifests and the plan write put back (`snapshot.restore`). On it, the
plan is made again from the saved plan's manifests and must be the saved one, action for
action (as `apply --plan` requires); it is applied as `apply` applies it, along its
dependencies, rails and policies included; then a new plan is made, which must be empty. The
copy stops with the rehearsal, whatever ends it: it lives in this process's memory, so not even
a killed process leaves it running. Nothing but reads is ever sent to the organization.

What a rehearsal cannot say: whether the organization changes between the rehearsal and the
apply (apply checks that against it), and what production refuses that its document does not
describe."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docsync import policies, snapshot
from docsync.api import ApiClient
from docsync.core.errors import ApplyRefused
from docsync.core.model import Plan
from docsync.emulator.app import EmulatorConfig
from docsync.emulator.errors import SeedError
from docsync.emulator.seed import load_seed, one_admin
from docsync.emulator.server import EmulatorThread
from docsync.emulator.snapshot import TOKEN_PREFIX
from docsync.engine import run
from docsync.engine.executor import ApplyReport, Progress
from docsync.engine.safety import SafetyPolicy, check
from docsync.engine.saved import SavedPlan
from docsync.engine.target import narrow
from docsync.manifest import LoadedManifest


@dataclass
class Rehearsal:
    """What a rehearsal found: the plan made on the copy, what applying it did, the next plan."""

    #: the organization as plans name it, `Acme (org_acme)`
    title: str
    #: when the snapshot the copy serves was taken
    taken: str
    #: the member the copy was used as (an admin, as the apply token's user)
    member: str
    plan: Plan | None = None
    report: ApplyReport | None = None
    next_plan: Plan | None = None
    #: why the plan was refused on the copy before anything was applied (None: it was not)
    refused: str | None = None
    #: what was forced past a safety rail, as apply says it
    forced: list[str] = field(default_factory=list)
    #: stopped by an interrupt before it ended
    interrupted: bool = False

    @property
    def kept(self) -> bool:
        """The promise: applied without a failure, and the next plan empty."""
        applied = self.report is None or self.report.ok
        empty = self.next_plan is not None and self.next_plan.empty
        return self.refused is None and applied and empty and not self.interrupted


class RehearsalRefused(ApplyRefused):
    """No copy to rehearse on: the snapshot is not one, or of another organization."""


def read_seed(path: Path) -> dict[str, Any]:
    """A snapshot file (`docsync export --format emulator-seed`) as the copy's seed."""
    try:
        seed = load_seed(path)
    except SeedError as error:
        raise RehearsalRefused(str(error)) from None
    if "snapshot" not in seed:
        raise RehearsalRefused(
            f"{path} is an emulator seed, not a snapshot of an organization: take one with "
            "`docsync export --org ORG --format emulator-seed`"
        )
    return seed


async def take(api: ApiClient, saved: SavedPlan, loaded: LoadedManifest) -> dict[str, Any]:
    """A snapshot of what planning the saved plan reads of its organization, read now (as
    `apply --plan` reads it, reads only); refused as `apply` refuses a plan the organization
    moved away from since it was made."""
    with snapshot.recording(api) as reads:
        plan, live = await run.plan(api, loaded, resend_secrets=saved.resend_secrets)
    saved.check_live(live, narrow(plan, saved.targets))
    return snapshot.seed_of(reads, live, api.redacted)


def prepare(
    seed: dict[str, Any], saved: SavedPlan, loaded: LoadedManifest, member: str | None
) -> tuple[dict[str, Any], str]:
    """The copy's seed, with what the manifests and the plan write put back, and the member
    it is used as; refused when the snapshot is of another organization."""
    found = seed["snapshot"]
    wanted = saved.plan.get("organization")
    if found.get("organization") != wanted:
        raise RehearsalRefused(
            f"the snapshot is of organization {found.get('organization')!r}, the saved plan "
            f"of {wanted!r}: take a snapshot of {wanted!r}"
        )
    written = loaded.manifest.model_dump(mode="json")
    known = [*snapshot.texts(written), *snapshot.texts(saved.plan), *loaded.secrets]
    restored = snapshot.restore(seed, known)
    acting = snapshot.member(restored["snapshot"], member)
    return (restored, acting) if acting is not None else _stand_in(restored)


#: who a copy is used as when its snapshot holds no member (a plan that reads none)
STAND_IN = "docsync-rehearsal"


def _stand_in(seed: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The seed with an admin standing in for the apply token's user: a plan that reads no
    member reads no one's access, so no plan of the copy sees it."""
    org = str(seed["snapshot"]["organization"])
    email = f"{STAND_IN}@{snapshot.PSEUDONYM_DOMAIN}"
    return {**seed, **one_admin(org, STAND_IN, email)}, STAND_IN


@contextmanager
def in_this_process(config: EmulatorConfig) -> Iterator[str]:
    """The emulator of `config` in a thread of this process, on a free loopback port: its URL,
    for the `with` block only."""
    with EmulatorThread(config) as copy:
        yield copy.url


#: what serves a copy (the test suite serves it as every emulator it starts: each answer and
#: request checked against production's contract)
serve: Callable[[EmulatorConfig], AbstractContextManager[str]] = in_this_process


@contextmanager
def copy_of(seed: dict[str, Any]) -> Iterator[str]:
    """The emulator serving the snapshot in production's mode: its URL, for a `with` block;
    a snapshot it cannot load (of a newer docsync) is refused, naming what."""
    with ExitStack() as stack:
        try:
            url = stack.enter_context(serve(EmulatorConfig(seed=seed, contract="production")))
        except SeedError as error:
            raise RehearsalRefused(f"the snapshot cannot be served: {error}") from None
        yield url


async def rehearse(
    url: str,
    seed: dict[str, Any],
    member: str,
    saved: SavedPlan,
    loaded: LoadedManifest,
    *,
    parallelism: int,
    rails: tuple[bool, float | None] = (False, None),
    on_plan: Callable[[Plan], None] | None = None,
    on_result: Progress | None = None,
    stop: asyncio.Event | None = None,
) -> Rehearsal:
    """The saved plan made again on the copy at `url` (which must give the saved one), applied
    there as `member` past the safety rails as `apply` would (`rails`: its `--force` and
    `--max-delete-share`), and the plan made after it."""
    found = seed["snapshot"]
    async with ApiClient(url, TOKEN_PREFIX + member, parallelism=parallelism) as api:
        plan, live = await run.plan(api, loaded, resend_secrets=saved.resend_secrets)
        plan = narrow(plan, saved.targets)
        title = f"{live.organization.get('title')} ({live.org_id})"
        done = Rehearsal(title, str(found.get("takenAt", "")), member, plan)
        try:
            violations = policies.check(plan, loaded)
            saved.check_same(plan)
            if violations:
                raise policies.PolicyDenied(violations)
            force, share = rails
            policy = SafetyPolicy.from_manifest(
                loaded.manifest.safety, force=force, max_delete_share=share
            )
            done.forced = [] if plan.empty else check(plan, live, policy)
        except ApplyRefused as error:
            done.refused = str(error)
            return done
        if not plan.empty:
            if on_plan is not None:
                on_plan(plan)
            done.report = await run.apply(
                api, plan, live, parallelism=parallelism, on_result=on_result, stop=stop
            )
        done.interrupted = stop is not None and stop.is_set()
        if not done.interrupted:  # the next plan of what the saved one targets
            following, _ = await run.plan(api, loaded)
            done.next_plan = narrow(following, saved.targets)
        return done

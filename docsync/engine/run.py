"""The main job end to end, without a terminal: plan against the API, then apply."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from docsync.api import ApiClient
from docsync.core.context import RunContext
from docsync.core.errors import ApplyRefused
from docsync.core.model import Plan
from docsync.core.state import LiveState
from docsync.engine.executor import ApplyReport, Progress, apply_plan
from docsync.engine.planner import make_plan
from docsync.engine.reading import ReadWatch
from docsync.kinds import KINDS, Kind
from docsync.manifest import LoadedManifest


async def plan(
    api: ApiClient,
    loaded: LoadedManifest,
    kinds: Sequence[Kind] = KINDS,
    watch: ReadWatch | None = None,
    *,
    resend_secrets: bool = False,
) -> tuple[Plan, LiveState]:
    api.redact(loaded.secrets)
    return await make_plan(api, loaded, kinds, watch, resend_secrets=resend_secrets)


def check_read(live: LiveState) -> None:
    """An apply must know everything it changes: what the API hid from the token's role (which
    a plan names and leaves out) refuses it, before anything is sent."""
    if live.unread:
        hidden = "\n  ".join(f"{what}: {why}" for what, why in sorted(live.unread.items()))
        raise ApplyRefused(
            f"the token could not read what the manifest manages:\n  {hidden}\nApply with a "
            'token whose role reads and writes all of it (docs/usage.md, "Roles"); a plan '
            "names what it could not read and plans the rest"
        )


async def apply(
    api: ApiClient,
    plan: Plan,
    live: LiveState,
    *,
    parallelism: int,
    kinds: Sequence[Kind] = KINDS,
    on_result: Progress | None = None,
    stop: asyncio.Event | None = None,
) -> ApplyReport:
    check_read(live)
    run = RunContext(api, live.org_id, plan.ids)
    by_name = {kind.name: kind for kind in kinds}
    report = await apply_plan(
        plan, run, by_name, parallelism=parallelism, on_result=on_result, stop=stop
    )
    report.ids = dict(run.ids)
    return report

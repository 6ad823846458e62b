"""Carries out a plan along its dependency graph: parallel where independent, and a failure
skips only what depends on it."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from docsync.core.context import RunContext
from docsync.core.errors import ActionError, InternalError
from docsync.core.model import Action, Plan
from docsync.errors import DocsyncError

if TYPE_CHECKING:
    from docsync.kinds.kind import Kind

log = logging.getLogger(__name__)

Outcome = Literal["done", "failed", "skipped", "not started"]

#: after a stop, how long the actions in flight may take to finish before they are cancelled
GRACE_SECONDS = 5.0


@dataclass
class ActionResult:
    action: Action
    outcome: Outcome
    seconds: float = 0.0
    #: why it failed (the cause alone) or was skipped
    error: str | None = None
    failure: ActionError | None = None


@dataclass
class ApplyReport:
    results: list[ActionResult] = field(default_factory=list)
    #: address -> id after the apply: live ids and those of the resources it created
    ids: dict[str, str] = field(default_factory=dict)

    def of(self, outcome: Outcome) -> list[ActionResult]:
        return [r for r in self.results if r.outcome == outcome]

    @property
    def ok(self) -> bool:
        return all(r.outcome == "done" for r in self.results)

    @property
    def failures(self) -> list[ActionError]:
        return [r.failure for r in self.results if r.failure is not None]

    def summary(self) -> str:
        text = (
            f"{len(self.of('done'))} done, {len(self.of('failed'))} failed, "
            f"{len(self.of('skipped'))} skipped"
        )
        left = len(self.of("not started"))
        return f"{text}, {left} not started" if left else text


Progress = Callable[[ActionResult], None]


async def apply_plan(
    plan: Plan,
    run: RunContext,
    kinds: Mapping[str, Kind],
    *,
    parallelism: int = 8,
    on_result: Progress | None = None,
    stop: asyncio.Event | None = None,
    grace: float = GRACE_SECONDS,
) -> ApplyReport:
    """Runs every action whose dependencies are done, at most `parallelism` at a time.

    Once `stop` is set (an interrupt) nothing new starts; the actions in flight get `grace`
    seconds to finish, then are cancelled (their outcome unknown: the next apply re-reads);
    the rest are reported "not started"."""
    stopped = stop if stop is not None else asyncio.Event()
    by_key = {a.key: a for a in plan.actions}
    order = {a.key: i for i, a in enumerate(plan.actions)}
    waiting = {a.key: {d for d in a.depends_on if d in by_key} for a in plan.actions}
    dependents: dict[str, list[str]] = {key: [] for key in by_key}
    for key, deps in waiting.items():
        for dep in deps:
            dependents[dep].append(key)
    report = ApplyReport()
    finished: set[str] = set()
    gate = asyncio.Semaphore(max(1, parallelism))

    def record(result: ActionResult) -> None:
        report.results.append(result)
        finished.add(result.action.key)
        if on_result:
            on_result(result)

    def skip_dependents(key: str, reason: str) -> None:
        for child in dependents[key]:
            if child not in finished:
                record(ActionResult(by_key[child], "skipped", error=reason))
                skip_dependents(child, reason)

    async def run_one(action: Action) -> ActionResult:
        kind = kinds[action.kind]
        async with gate:
            if stopped.is_set():
                return ActionResult(action, "not started", error="the apply was interrupted")
            started = time.monotonic()
            cause: DocsyncError
            try:
                await kind.execute(action, run)
                return ActionResult(action, "done", time.monotonic() - started)
            except DocsyncError as error:
                cause = error
            except Exception as error:
                # A bug in one kind must not abandon the other actions mid-apply; its traceback
                # is for -vv, its one line for everyone.
                log.debug("%s %s raised", action.verb, action.address, exc_info=True)
                cause = InternalError(error)
            failure = ActionError(action.verb, action.kind, action.address, cause)
            seconds = time.monotonic() - started
            return ActionResult(action, "failed", seconds, str(cause), failure)

    running: dict[asyncio.Task[ActionResult], str] = {}
    started: set[str] = set()
    # Actions whose dependencies are done, in the order they became ready: at most
    # `parallelism` of them run as tasks, so waiting for the next completion costs the same
    # whatever the size of the plan (a task per ready action made each wait O(actions)).
    ready: deque[str] = deque()
    limit = max(1, parallelism)

    # Dependencies not yet done, per action: a completion looks only at its own dependents.
    pending = {key: len(deps) for key, deps in waiting.items()}

    def start(keys: list[str]) -> None:
        for key in keys:
            if key not in started and key not in finished and pending[key] == 0:
                started.add(key)
                ready.append(key)
        while ready and len(running) < limit and not stopped.is_set():
            key = ready.popleft()
            running[asyncio.ensure_future(run_one(by_key[key]))] = key

    def finish(task: asyncio.Task[ActionResult]) -> None:
        key = running.pop(task)
        result = task.result()
        record(result)
        if result.outcome == "failed":
            skip_dependents(key, f"{result.action.verb} {result.action.address} failed")
        elif result.outcome == "done":
            for child in dependents[key]:
                pending[child] -= 1
        # A slot is free: the next ready action takes it (its dependents first, when done).
        start(dependents[key] if result.outcome == "done" else [])

    start(list(by_key))
    watch = asyncio.ensure_future(stopped.wait())
    deadline: float | None = None
    try:
        while running:
            if stopped.is_set() and deadline is None:
                deadline = time.monotonic() + grace
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            waiters: set[asyncio.Future[Any]] = set(running)
            if not watch.done():
                waiters.add(watch)
            done, _ = await asyncio.wait(
                waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
            for task in sorted((t for t in running if t in done), key=lambda t: order[running[t]]):
                finish(task)
            if deadline is not None and time.monotonic() >= deadline and running:
                await _cancel(running, record, by_key)
    finally:
        watch.cancel()
    # Anything left waits on a skipped action (already recorded) or was never reachable, or
    # the apply stopped before its turn.
    for key in by_key:
        if key not in finished:
            if stopped.is_set():
                record(ActionResult(by_key[key], "not started", error="the apply was interrupted"))
            else:
                record(ActionResult(by_key[key], "skipped", error="a dependency did not run"))
    return report


async def _cancel(
    running: dict[asyncio.Task[ActionResult], str],
    record: Callable[[ActionResult], None],
    by_key: Mapping[str, Action],
) -> None:
    """Cancels the actions still in flight after the grace period: failed, outcome unknown."""
    for task in running:
        task.cancel()
    await asyncio.gather(*running, return_exceptions=True)
    for task, key in sorted(running.items(), key=lambda item: item[1]):
        if task.cancelled() or task.exception() is not None:
            why = "interrupted while in flight: its outcome is unknown (the next apply re-reads)"
            cause = DocsyncError(why)
            action = by_key[key]
            failure = ActionError(action.verb, action.kind, action.address, cause)
            record(ActionResult(action, "failed", error=why, failure=failure))
        else:
            record(task.result())
    running.clear()

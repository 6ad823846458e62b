"""docsync.engine.executor with fake kinds: parallelism bound, failures skip only dependents."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from docsync.api import ApiClient
from docsync.core.context import RunContext
from docsync.core.errors import MissingId
from docsync.core.model import Action, Plan
from docsync.engine.executor import ActionResult, apply_plan
from docsync.errors import DocsyncError
from docsync.kinds.kind import Kind


class FakeKind(Kind):
    """Records what ran, when; fails the addresses it is told to."""

    name = "fake"
    section = "fakes"

    def __init__(self, fail: dict[str, Exception] | None = None, delay: float = 0.01) -> None:
        self.fail = fail or {}
        self.delay = delay
        self.ran: list[str] = []
        self.active = 0
        self.most = 0

    async def execute(self, action: Action, run: RunContext) -> None:
        self.active += 1
        self.most = max(self.most, self.active)
        try:
            await asyncio.sleep(self.delay)
            if action.address in self.fail:
                raise self.fail[action.address]
            self.ran.append(action.address)
        finally:
            self.active -= 1


def act(name: str, *deps: str) -> Action:
    return Action("create", "fake", name, depends_on=[f"create {d}" for d in deps])


def run_plan(actions: list[Action], kind: FakeKind, parallelism: int = 8) -> Any:
    seen: list[ActionResult] = []
    run = RunContext(cast(ApiClient, None), "org_acme", {})
    report = asyncio.run(
        apply_plan(
            Plan("org_acme", actions),
            run,
            {"fake": kind},
            parallelism=parallelism,
            on_result=seen.append,
        )
    )
    assert [r.action.address for r in seen] == [r.action.address for r in report.results]
    return report


def outcomes(report: Any) -> dict[str, str]:
    return {r.action.address: r.outcome for r in report.results}


def test_parallelism_is_bounded_and_used() -> None:
    kind = FakeKind()
    report = run_plan([act(f"a{i}") for i in range(10)], kind, parallelism=3)
    assert kind.most == 3
    assert report.ok and report.summary() == "10 done, 0 failed, 0 skipped"


def test_parallelism_one_runs_serially_in_dependency_order() -> None:
    kind = FakeKind(delay=0)
    actions = [act("c", "b"), act("b", "a"), act("a")]
    run_plan(actions, kind, parallelism=1)
    assert kind.most == 1 and kind.ran == ["a", "b", "c"]


def test_failure_skips_dependents_transitively_and_the_rest_goes_on() -> None:
    kind = FakeKind(fail={"team": DocsyncError("POST /teams: 500 Injected failure")})
    actions = [
        act("team"),
        act("saml", "team"),
        act("after-saml", "saml"),
        act("both", "saml", "other"),
        act("other"),
        act("after-other", "other"),
    ]
    report = run_plan(actions, kind)
    assert outcomes(report) == {
        "team": "failed",
        "saml": "skipped",
        "after-saml": "skipped",
        "both": "skipped",
        "other": "done",
        "after-other": "done",
    }
    assert not report.ok
    assert report.summary() == "2 done, 1 failed, 3 skipped"
    failed = report.of("failed")[0]
    assert failed.error == "POST /teams: 500 Injected failure"
    assert all(r.error == "create team failed" for r in report.of("skipped"))
    assert sorted(kind.ran) == ["after-other", "other"]


def test_missing_id_fails_the_action_only() -> None:
    kind = FakeKind(fail={"a": MissingId('team["X"] has no id yet')})
    report = run_plan([act("a"), act("b")], kind)
    assert outcomes(report) == {"a": "failed", "b": "done"}
    failure = report.failures[0]
    assert (failure.op, failure.kind, failure.address) == ("create", "fake", "a")
    assert str(failure) == 'create a failed: team["X"] has no id yet'
    assert not failure.internal


def test_unexpected_exception_fails_the_action_and_the_rest_goes_on() -> None:
    kind = FakeKind(fail={"a": RuntimeError("boom")}, delay=0)
    report = run_plan([act("a"), act("b"), act("c", "a"), act("d", "b")], kind)
    assert outcomes(report) == {"a": "failed", "b": "done", "c": "skipped", "d": "done"}
    failure = report.failures[0]
    assert failure.internal
    assert str(failure) == (
        "create a failed: internal error: RuntimeError: boom "
        "(a bug in docsync; run with -vv for the traceback)"
    )


def test_a_key_error_in_a_kind_is_an_internal_error_not_a_lookup_failure() -> None:
    kind = FakeKind(fail={"a": KeyError("source")}, delay=0)
    report = run_plan([act("a")], kind)
    assert report.failures[0].internal
    assert "KeyError: 'source'" in str(report.failures[0])


def test_empty_plan_is_ok() -> None:
    report = run_plan([], FakeKind())
    assert report.ok and report.summary() == "0 done, 0 failed, 0 skipped"


def test_dependency_outside_the_plan_does_not_block() -> None:
    kind = FakeKind(delay=0)
    report = run_plan([act("a", "not-in-plan")], kind)
    assert outcomes(report) == {"a": "done"}


def test_timings_are_recorded() -> None:
    report = run_plan([act("a")], FakeKind(delay=0.02))
    assert report.results[0].seconds >= 0.02


class TaskCountingKind(FakeKind):
    """Records how many tasks the event loop holds while actions run."""

    def __init__(self) -> None:
        super().__init__(delay=0)
        self.most_tasks = 0

    async def execute(self, action: Action, run: RunContext) -> None:
        self.most_tasks = max(self.most_tasks, len(asyncio.all_tasks()))
        await super().execute(action, run)


def test_a_large_plan_holds_only_parallelism_tasks_at_once() -> None:
    # One task per ready action made every wait for the next completion cost the plan's size
    # (a 10k-resource apply spent most of its CPU there); the waiting actions stay in a queue.
    kind = TaskCountingKind()
    report = run_plan([act(f"a{i}") for i in range(500)], kind, parallelism=4)
    assert len(kind.ran) == 500 and all(r.outcome == "done" for r in report.results)
    assert kind.most <= 4
    assert kind.most_tasks <= 4 + 2  # the running actions, the main task, the stop watcher

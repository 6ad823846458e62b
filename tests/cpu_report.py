"""Where the suite's CPU goes, with `--cpu` (`bash scripts/test --cpu`).

Wall times (`--durations`) mislead on a machine the workers share: a test waiting for a core
looks slow. CPU seconds do not, so each test is charged the CPU its process used from its
setup to its teardown (the emulator's thread answering it included) and the CPU of the
processes it started and waited for; each process also counts what it spent before its first
test (imports and collection) and in Python's cycle collector. xdist workers send their
figures to the controller, which prints one table: the whole, by module, and the largest tests.
"""

from __future__ import annotations

import gc
import json
import resource
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

#: how many modules and tests the table lists
LARGEST = 15


@dataclass
class Account:
    """CPU seconds of test processes: before their first test, in the collector, and by test
    (its own and its children's); `workers`: the xdist workers whose figures it sums."""

    start: float = 0.0
    collector: float = 0.0
    tests: dict[str, tuple[float, float]] = field(default_factory=dict)
    workers: int = 0

    def merge(self, other: Account) -> None:
        self.start += other.start
        self.collector += other.collector
        self.tests.update(other.tests)
        self.workers += 1

    def dumps(self) -> str:
        return json.dumps([self.start, self.collector, self.tests])

    @classmethod
    def loads(cls, text: str) -> Account:
        start, collector, tests = json.loads(text)
        return cls(start, collector, {name: (own, sub) for name, (own, sub) in tests.items()})


def report(account: Account) -> list[str]:
    """The table: the whole, then the largest modules and tests, own + started processes."""
    processes = account.workers or 1
    own = sum(o for o, _ in account.tests.values())
    started = sum(s for _, s in account.tests.values())
    whole = account.start + own + started
    lines = [
        f"cpu: {whole:.1f} s in {processes} test process(es): {account.start:.1f} s before their "
        f"first test (imports, collection), {own:.1f} s in the tests themselves (the cycle "
        f"collector {account.collector:.1f} s of the whole), {started:.1f} s in processes "
        "the tests started"
    ]
    modules: Counter[str] = Counter()
    parts: dict[str, list[float]] = {}
    for name, (o, s) in account.tests.items():
        module = name.split("::")[0]
        modules[module] += o + s
        sums = parts.setdefault(module, [0.0, 0.0])
        sums[0] += o
        sums[1] += s
    lines.append(f"cpu by module, the {LARGEST} largest (own + started):")
    for module, total in modules.most_common(LARGEST):
        o, s = parts[module]
        lines.append(f"  {total:6.2f} s  {module}  ({o:.2f} + {s:.2f})")
    lines.append(f"cpu by test, the {LARGEST} largest (own + started):")
    ranked = sorted(account.tests.items(), key=lambda item: -sum(item[1]))
    for name, (o, s) in ranked[:LARGEST]:
        lines.append(f"  {o + s:6.2f} s  {name}  ({o:.2f} + {s:.2f})")
    return lines


def _children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class _Collector:
    """The CPU of every cycle collection, from gc's own start and stop callbacks."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started = 0.0

    def __call__(self, phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.process_time()
        else:
            self.seconds += time.process_time() - self._started


_ACCOUNT = Account()
_COLLECTOR = _Collector()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--cpu",
        action="store_true",
        help="print where the CPU went: the whole, by module and the largest tests",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("cpu"):
        gc.callbacks.append(_COLLECTOR)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    if not item.config.getoption("cpu"):
        yield
        return
    if not _ACCOUNT.tests:
        _ACCOUNT.start = time.process_time()
    own, started = time.process_time(), _children()
    yield
    _ACCOUNT.tests[item.nodeid] = (time.process_time() - own, _children() - started)


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None and session.config.getoption("cpu"):
        _ACCOUNT.collector = _COLLECTOR.seconds
        workeroutput["cpu"] = _ACCOUNT.dumps()


@pytest.hookimpl(optionalhook=True)  # an xdist hook: `pytest -p no:xdist` must still run
def pytest_testnodedown(node: Any, error: Any) -> None:
    text = getattr(node, "workeroutput", {}).get("cpu")
    if text is not None:
        _ACCOUNT.merge(Account.loads(text))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    config = terminalreporter.config
    if hasattr(config, "workeroutput") or not config.getoption("cpu"):
        return
    if not _ACCOUNT.workers:  # the tests ran in this process
        _ACCOUNT.collector = _COLLECTOR.seconds
    for line in report(_ACCOUNT):
        terminalreporter.write_line(line)

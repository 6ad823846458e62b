"""Shared fixtures: one emulator per test session, reset to the example seed before each test;
docsync against it and manifest files (the kit: tests/kit.py)."""

from __future__ import annotations

import gc
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import Result
from hypothesis import HealthCheck, settings

from docsync import rehearsal
from docsync.api import client
from docsync.api.retry import RetryPolicy
from docsync.emulator.app import EmulatorConfig
from tests.depth import examples
from tests.emulator_harness import EmulatorHandle, start_emulator
from tests.kit import Docsync, Write, cli_env, invoke, write_file

# Every end-to-end test is a conformance test: answers and requests checked against production.
pytest_plugins = ["tests.contract.plugin", "tests.contract.fuzz_plugin", "tests.cpu_report"]

# Property tests assert behaviour, never time: Hypothesis' per-example deadline (200 ms) would fail
# a correct example on a loaded machine. In CI they draw the same examples every run, so a run's
# verdict can be reproduced; on a developer's machine they explore new ones each time.
# A test without a count of its own draws `examples()` (10x under `scripts/test --deep`).
# Nor does their verdict depend on how fast the machine draws an example (Hypothesis' too_slow
# health check times the generation).
SLOW = [HealthCheck.too_slow]
settings.register_profile(
    "local", deadline=None, max_examples=examples(), suppress_health_check=SLOW
)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    print_blob=True,
    max_examples=examples(),
    suppress_health_check=SLOW,
)
settings.load_profile("ci" if os.environ.get("CI") else "local")


def pytest_configure(config: pytest.Config) -> None:
    """The cycle collector walks the whole heap a tenth as often, and Ctrl-C reaches the
    processes the tests start.

    A worker ends holding one to two million objects (the emulator's state, production's
    documents, Hypothesis's strategies) and the property tests leave as many in reference
    cycles (Hypothesis's recursive strategies); each full collection walks all of them. At
    Python's default (a full collection after ten of the middle generation) the workers spent
    about 13.6 s of a run's CPU collecting, at a hundred about 8 s, for a peak of 460 to 570 MB
    a worker instead of 360 to 510 (docs/testing.md). docsync's own processes keep the default.

    A suite started in the background by a shell without job control inherits SIGINT ignored,
    and would pass that on to every docsync it starts: the tests that interrupt one would wait
    on a process that cannot hear them. A handled signal is reset to its default in a child, an
    ignored one is not."""
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 100)
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked slow run first. With xdist's work stealing (scripts/test), the workers then
    end together, instead of one of them starting a long test when the other has finished."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session", autouse=True)
def _one_tls_context() -> Iterator[None]:
    """Every httpx client of the session verifies with one TLS context, built once.

    httpx builds a fresh default context (the CA bundle read and parsed: ~20 ms of CPU) for
    each client made with `verify=True`, the default: a third of the suite's CPU went there, for
    loopback HTTP that never uses it. The shared context is the one httpx would build, so each
    client, docsync's included, is configured exactly as without this.
    """
    context = httpx.create_ssl_context()
    with pytest.MonkeyPatch.context() as patch:
        for cls in (httpx.Client, httpx.AsyncClient):
            patch.setattr(cls, "__init__", _verifying_with(context, cls.__init__))
        yield


def _verifying_with(context: Any, init: Any) -> Any:
    def init_with_context(self: Any, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("verify", True) is True:
            kwargs["verify"] = context
        init(self, *args, **kwargs)

    return init_with_context


@pytest.fixture(scope="session", autouse=True)
def _copies_checked() -> Iterator[None]:
    """A rehearsal's copy of an organization (docsync.rehearsal) is served as every emulator
    of the suite: each of its answers, and each request docsync sends it, checked against
    production's contract with no documented conflict forgiven."""

    @contextmanager
    def checked(config: EmulatorConfig) -> Iterator[str]:
        with start_emulator(seed=config.seed, contract=config.contract) as handle:
            yield handle.url

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rehearsal, "serve", checked)
        yield


@pytest.fixture(scope="session")
def emulator_server() -> Iterator[EmulatorHandle]:
    """The session's emulator (real HTTP on loopback)."""
    with start_emulator() as handle:
        yield handle


@pytest.fixture
def emulator(emulator_server: EmulatorHandle) -> EmulatorHandle:
    """The session emulator, freshly reset to examples/emulator-seed.yaml with faults off."""
    emulator_server.reset()
    return emulator_server


@pytest.fixture(scope="session")
def production_server() -> Iterator[EmulatorHandle]:
    """The session's emulator of production's contract only (`--contract production`): every
    answer and request checked with no documented conflict forgiven."""
    with start_emulator(contract="production") as handle:
        yield handle


@pytest.fixture
def production(production_server: EmulatorHandle) -> EmulatorHandle:
    """The production-contract emulator, freshly reset to the seed."""
    production_server.reset()
    return production_server


@pytest.fixture(params=["description", "production"])
def either_contract(request: pytest.FixtureRequest) -> EmulatorHandle:
    """The test runs once against each emulator: the API description's, then production's."""
    handle: EmulatorHandle = request.getfixturevalue(
        request.param.replace("description", "emulator")
    )
    return handle


@pytest.fixture
def docsync(emulator: EmulatorHandle) -> Docsync:
    """docsync(*args, env=None) -> click Result: the CLI in-process, real HTTP to the emulator,
    with tests.kit.cli_env's environment (plus `env`)."""

    def run(*args: str | Path, env: dict[str, str] | None = None) -> Result:
        return invoke(cli_env(emulator, **(env or {})), *args)

    return run


@pytest.fixture
def write(tmp_path: Path) -> Write:
    """write(name, text) -> path of a file (a manifest) in the test's temporary directory."""

    def _write(name: str, text: str) -> Path:
        return write_file(tmp_path, name, text)

    return _write


@pytest.fixture
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process runs retry after a thousandth of their backoff: a fault test checks what is
    retried and that it converges, not how long it waits (tests/api/test_api_retries.py does)."""
    monkeypatch.setattr(client, "RetryPolicy", partial(RetryPolicy, base=0.0005))

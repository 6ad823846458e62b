"""Run the emulator over real HTTP on a free loopback port for tests (uvicorn in a thread)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from starlette.types import ASGIApp, Receive, Scope, Send

from docsync.emulator.app import Contract, EmulatorConfig
from docsync.emulator.faults import FaultConfig
from docsync.emulator.server import EmulatorThread
from docsync.emulator.state import EmulatorState

REPO = Path(__file__).resolve().parent.parent
SEED = REPO / "examples" / "emulator-seed.yaml"
#: how long reset() waits for the requests still being answered (the slowest test latency: 1.5 s)
IDLE_TIMEOUT = 10.0


class InFlight:
    """ASGI middleware counting the /v1 requests being answered, and holding them while a test
    asks (`EmulatorHandle.holding`).

    A client that is killed or stops at once leaves its request to the emulator, which carries
    it out after its injected latency; counted, a reset can wait for it instead of letting it
    land in the next test's fresh state. A held request is counted and not answered: a test
    knows a client is waiting on the API, for as long as the test needs, and no longer.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.count = 0  # changed on the server's event loop only; read from the test's thread
        self.held = threading.Event()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/v1/"):
            await self.app(scope, receive, send)
            return
        self.count += 1
        try:
            while self.held.is_set():
                await asyncio.sleep(0.005)
            await self.app(scope, receive, send)
        finally:
            self.count -= 1


@dataclass
class EmulatorHandle:
    """A running emulator: its URL, API clients per token and the control API."""

    url: str  # "http://127.0.0.1:<port>"
    in_flight: InFlight | None = field(default=None, repr=False)
    #: the emulator's state, for what no answer shows (a secret it keeps masked)
    state: EmulatorState | None = field(default=None, repr=False)

    def stored(self, kind: str, id_: str) -> dict[str, Any]:
        """What the emulator holds of one resource (its store's `kind`), secrets included."""
        assert self.state is not None, "an emulator started by start_emulator"
        self.wait_idle()
        with self.state.store.transaction() as tx:
            found = tx.get(kind, id_)
        assert found is not None, f"no {kind} {id_}"
        return found

    def client(self, token: str = "tok_ada") -> httpx.Client:
        """An httpx client on the emulator's base URL, authenticated as the token's user."""
        return httpx.Client(
            base_url=self.url, headers={"Authorization": f"Bearer {token}"}, timeout=10
        )

    def _control(self, method: str, path: str, body: Any = None) -> httpx.Response:
        response = httpx.request(method, f"{self.url}/_emulator/{path}", json=body, timeout=10)
        response.raise_for_status()
        return response

    def set_faults(self, **faults: Any) -> None:
        """Replace the fault configuration (names of FaultConfig: fail_429=0.5, seed=7...)."""
        self._control("PUT", "faults", faults)

    def wait_idle(self, timeout: float = IDLE_TIMEOUT, *, settle: float = 0.0) -> None:
        """Return once no /v1 request is being answered (what a killed client sent is done),
        and none has started for `settle` seconds: a request a killed client had written may
        still sit in the socket's buffer, not yet counted, on a loaded machine."""
        if self.in_flight is None:
            return
        deadline = time.monotonic() + timeout
        quiet_since = time.monotonic()
        while self.in_flight.count or time.monotonic() - quiet_since < settle:
            if self.in_flight.count:
                quiet_since = time.monotonic()
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"the emulator still answers {self.in_flight.count} request(s) after "
                    f"{timeout:g} s: a test left a request hanging"
                )
            time.sleep(0.01)

    @contextmanager
    def holding(self) -> Iterator[None]:
        """The emulator answers no /v1 request inside the block: each waits, counted in
        `in_flight`, until the block ends."""
        assert self.in_flight is not None, "an emulator started by start_emulator"
        self.in_flight.held.set()
        try:
            yield
        finally:
            self.in_flight.held.clear()

    def reset(self, seed: dict[str, Any] | None = None) -> None:
        """Wipe and re-seed with `seed`, or the starting seed; faults off, clock and stats reset.

        Waits first for the requests still being answered, so none lands in the fresh state."""
        self.wait_idle()
        self._control("POST", "reset", seed)

    def advance_clock(self, seconds: float) -> None:
        """Move the emulator clock forward."""
        self._control("POST", "clock", {"advance": seconds})

    def stats(self) -> dict[str, Any]:
        """Request counts: `{"total", "requests": {"GET /v1/orgs": n, ...}, "faults"}`."""
        result: dict[str, Any] = self._control("GET", "stats").json()
        return result


@contextmanager
def start_emulator(
    seed: str | Path | dict[str, Any] | None = None,
    db: str | None = None,
    contract: Contract = "description",
    **faults: Any,
) -> Iterator[EmulatorHandle]:
    """Serve an emulator (seed defaults to examples/emulator-seed.yaml) for the `with` block.

    Every `/v1` answer is checked against the production contract (tests/contract/plugin.py);
    with `contract="production"` no documented conflict is forgiven, for requests either.
    """
    from tests.contract.plugin import STRICT_SERVERS, ContractMiddleware

    config = EmulatorConfig(
        seed=SEED if seed is None else seed,
        db=db,
        faults=FaultConfig.from_dict(faults),
        contract=contract,
    )
    strict = contract == "production"
    counter: list[InFlight] = []

    def wrap(app: ASGIApp) -> ASGIApp:
        counter.append(InFlight(ContractMiddleware(app, strict)))
        return counter[0]

    with EmulatorThread(config, wrap=wrap) as server:
        netloc = server.url.removeprefix("http://")
        if strict:
            STRICT_SERVERS.add(netloc)
        try:
            yield EmulatorHandle(server.url, counter[0], server.state)
        finally:
            STRICT_SERVERS.discard(netloc)


@contextmanager
def in_process(
    config: EmulatorConfig, token: str = "tok_ada"
) -> Iterator[tuple[httpx.Client, EmulatorState]]:
    """The emulator of `config` over real HTTP without the contract check, with its state (its
    store), for tests that look inside it or patch its modules: a client authenticated as the
    token's user. (Starlette's TestClient is deprecated with httpx.)"""
    with EmulatorThread(config) as server:
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(base_url=server.url, headers=headers, timeout=10) as client:
            yield client, server.state

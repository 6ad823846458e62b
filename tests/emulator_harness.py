"""Run the emulator over real HTTP on a free loopback port for tests (uvicorn in a thread)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from docsync.emulator.app import EmulatorConfig
from docsync.emulator.faults import FaultConfig
from docsync.emulator.server import EmulatorThread

REPO = Path(__file__).resolve().parent.parent
SEED = REPO / "examples" / "emulator-seed.yaml"


@dataclass
class EmulatorHandle:
    """A running emulator: its URL, API clients per token and the control API."""

    url: str  # "http://127.0.0.1:<port>"

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

    def reset(self, seed: dict[str, Any] | None = None) -> None:
        """Wipe and re-seed with `seed`, or the starting seed; faults off, clock and stats reset."""
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
    seed: str | Path | dict[str, Any] | None = None, db: str | None = None, **faults: Any
) -> Iterator[EmulatorHandle]:
    """Serve an emulator (seed defaults to examples/emulator-seed.yaml) for the `with` block.

    Every `/v1` answer is checked against the production contract (tests/contract/plugin.py).
    """
    from tests.contract.plugin import ContractMiddleware  # after pytest registered the plugin

    config = EmulatorConfig(
        seed=SEED if seed is None else seed, db=db, faults=FaultConfig.from_dict(faults)
    )
    with EmulatorThread(config, wrap=ContractMiddleware) as server:
        yield EmulatorHandle(server.url)

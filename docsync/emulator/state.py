"""The emulator's running state: store, seed, fault engine, clock and request statistics."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from starlette.routing import BaseRoute

from docsync.emulator.faults import FaultConfig, FaultEngine
from docsync.emulator.seed import apply_seed
from docsync.emulator.store import Store


def iso(moment: datetime) -> str:
    """ISO 8601 UTC with milliseconds and a `Z`, the production timestamp format."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Stats:
    """Request counts per `METHOD /route/{template}`; tests assert request budgets with it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests: Counter[str] = Counter()
        self._faults: Counter[str] = Counter()

    def record(self, key: str) -> None:
        """Count one request to a route."""
        with self._lock:
            self._requests[key] += 1

    def record_fault(self, kind: str) -> None:
        """Count one injected fault (`429`, `500`, `503`, `drop`...)."""
        with self._lock:
            self._faults[kind] += 1

    def snapshot(self) -> dict[str, Any]:
        """`{"total": n, "requests": {"GET /v1/orgs": 2, ...}, "faults": {...}}`."""
        with self._lock:
            return {
                "total": sum(self._requests.values()),
                "requests": dict(sorted(self._requests.items())),
                "faults": dict(sorted(self._faults.items())),
            }

    def clear(self) -> None:
        """Forget every count."""
        with self._lock:
            self._requests.clear()
            self._faults.clear()


class EmulatorState:
    """Everything a request handler reaches through `request.app.state.emulator`."""

    def __init__(
        self,
        store: Store,
        seed: dict[str, Any],
        faults: FaultConfig,
        contract: str = "description",
        routes: Sequence[BaseRoute] = (),
    ) -> None:
        self.store = store
        #: the routes that load a seed's snapshot (docsync.emulator.snapshot)
        self.routes = routes
        #: "production" serves production's shapes only (docsync.emulator.app.Contract)
        self.production = contract == "production"
        self.initial_seed = seed
        self.seed = seed
        self.faults = FaultEngine(faults)
        self.stats = Stats()
        self.clock_offset = 0.0
        with store.transaction() as tx:
            if tx.meta_get("seeded") is None:
                apply_seed(tx, seed, iso(self.now()), self.routes)
                tx.meta_set("seeded", "1")

    def now(self) -> datetime:
        """The emulator clock: real UTC time plus what tests advanced it by."""
        return datetime.fromtimestamp(time.time() + self.clock_offset, UTC)

    def reset(self, seed: dict[str, Any] | None = None) -> None:
        """Wipe the state and apply `seed`, or the seed the server started with when None.

        Faults are switched off, the clock offset and the statistics go back to zero.
        """
        self.seed = self.initial_seed if seed is None else seed
        self.clock_offset = 0.0
        self.faults.configure(FaultConfig())
        self.stats.clear()
        with self.store.transaction() as tx:
            tx.clear()
            apply_seed(tx, self.seed, iso(self.now()), self.routes)
            tx.meta_set("seeded", "1")

"""The Starlette application: the routes of every module of `routes`, JSON error bodies."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute

from docsync.emulator import control
from docsync.emulator.defaults import Contract
from docsync.emulator.faults import FaultConfig
from docsync.emulator.routing import IndexedRouter
from docsync.emulator.seed import load_seed
from docsync.emulator.state import EmulatorState
from docsync.emulator.store import Store


def route_modules() -> list[str]:
    """The route modules, by name relative to docsync.emulator.routes (`sites.sections`), in
    their families' packages: each exposes `routes: list[BaseRoute]` and is served, so a
    resource's table entry is served once its module is there (nothing to register)."""
    package = importlib.import_module("docsync.emulator.routes")
    return sorted(
        info.name.removeprefix(f"{package.__name__}.")
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
        if not info.ispkg
    )


@dataclass
class EmulatorConfig:
    """How to build an emulator: seed (path, mapping or None = default), db file, faults, and
    which contract it serves."""

    seed: str | Path | dict[str, Any] | None = None
    db: str | None = None
    faults: FaultConfig = field(default_factory=FaultConfig)
    contract: Contract = "description"


def collect_routes(contract: Contract = "description") -> list[BaseRoute]:
    """The routes of every route module, then the control API. Production has no
    description-only operation: those routes are left out, so they answer 404 as unknown paths."""
    collected: list[BaseRoute] = []
    for name in route_modules():
        module = importlib.import_module(f"docsync.emulator.routes.{name}")
        collected.extend(
            route
            for route in getattr(module, "routes", ())
            if contract == "description" or not getattr(route, "description_only", False)
        )
    collected.extend(control.routes)
    return collected


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = "Not Found: no such API path" if exc.status_code == 404 else str(exc.detail)
    return JSONResponse(
        {"error": {"code": exc.status_code, "message": message}},
        status_code=exc.status_code,
        headers=exc.headers,
    )


def create_app(config: EmulatorConfig | None = None) -> Starlette:
    """Build the app; the state is at `app.state.emulator` (an EmulatorState).

    With `config.db` the database file persists and the seed is applied only when it is new.
    """
    config = config or EmulatorConfig()
    routes = collect_routes(config.contract)
    state = EmulatorState(
        Store(config.db), load_seed(config.seed), config.faults, config.contract, routes
    )
    app = Starlette(exception_handlers={HTTPException: _http_error})
    # before the first request builds the middleware stack around it
    app.router = IndexedRouter(routes)
    app.state.emulator = state
    return app

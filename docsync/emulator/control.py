"""The control API under /_emulator (no auth, loopback only): faults, reset, clock, stats."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from docsync.emulator.errors import SeedError
from docsync.emulator.faults import FaultConfig
from docsync.emulator.seed import check_seed
from docsync.emulator.state import EmulatorState

_LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})


def _error(status: int, message: str) -> Response:
    return JSONResponse({"error": {"code": status, "message": message}}, status_code=status)


async def _guard(request: Request) -> tuple[EmulatorState, Any] | Response:
    """The state and the parsed JSON body (None when empty), or an error answer."""
    client = request.client
    if client is None or client.host not in _LOOPBACK:
        return _error(403, "Forbidden: the control API answers loopback clients only")
    raw = await request.body()
    try:
        body = json.loads(raw) if raw.strip() else None
    except ValueError as error:
        return _error(400, f"body: malformed JSON ({error})")
    return request.app.state.emulator, body


async def faults(request: Request) -> Response:
    """GET: the fault configuration; PUT: replace it (fields of FaultConfig, all optional)."""
    guarded = await _guard(request)
    if isinstance(guarded, Response):
        return guarded
    state, body = guarded
    if request.method == "PUT":
        if not isinstance(body, dict):
            return _error(400, "body: a JSON object of fault options is required")
        try:
            state.faults.configure(FaultConfig.from_dict(body))
        except ValueError as error:
            return _error(400, str(error))
    return JSONResponse(state.faults.config.to_dict())


async def reset(request: Request) -> Response:
    """Wipe the state and re-seed: with the body's seed when given, else the starting seed."""
    guarded = await _guard(request)
    if isinstance(guarded, Response):
        return guarded
    state, body = guarded
    if body is not None:
        if not isinstance(body, dict):
            return _error(400, "body: a seed mapping (users, organizations, spaces) or nothing")
        try:
            check_seed(body, "seed")
        except SeedError as error:
            return _error(400, str(error))
    state.reset(body)
    return Response(status_code=204)


async def clock(request: Request) -> Response:
    """Advance the emulator clock by `{"advance": seconds}`; answers the new time."""
    guarded = await _guard(request)
    if isinstance(guarded, Response):
        return guarded
    state, body = guarded
    advance = body.get("advance") if isinstance(body, dict) else None
    if isinstance(advance, bool) or not isinstance(advance, int | float) or advance < 0:
        return _error(400, "advance: a number of seconds >= 0 is required")
    state.clock_offset += float(advance)
    return JSONResponse({"now": state.now().isoformat(), "offset": state.clock_offset})


async def stats(request: Request) -> Response:
    """Request counts per method and route template since the last reset."""
    guarded = await _guard(request)
    if isinstance(guarded, Response):
        return guarded
    state, _ = guarded
    return JSONResponse(state.stats.snapshot())


routes: list[BaseRoute] = [
    Route("/_emulator/faults", faults, methods=["GET", "PUT"]),
    Route("/_emulator/reset", reset, methods=["POST"]),
    Route("/_emulator/clock", clock, methods=["POST"]),
    Route("/_emulator/stats", stats, methods=["GET"]),
]

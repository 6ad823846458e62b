"""Shared helpers of the API client tests: a fake clock, a MockTransport client, error bodies."""

from __future__ import annotations

import asyncio
import random
import socket
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import httpx
import uvicorn
from starlette.types import ASGIApp

from docsync.api import ApiClient, RetryPolicy

T = TypeVar("T")
TOKEN = "tok_s3cret_value_42"
BASE = "http://127.0.0.1:8719"
Handler = (
    Callable[[httpx.Request], httpx.Response]
    | Callable[[httpx.Request], Coroutine[None, None, httpx.Response]]
)


class FakeClock:
    """Epoch time that only moves when the client sleeps; records every sleep."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def mock_client(clock: FakeClock, handler: Handler, **options: Any) -> ApiClient:
    """A client over a MockTransport handler, with tiny retries and the fake clock."""
    options.setdefault("retry", RetryPolicy(max_attempts=4, base=0.01, cap=0.05))
    options.setdefault("sleep", clock.sleep)
    options.setdefault("clock", clock)
    options.setdefault("rng", random.Random(7))
    return ApiClient(
        options.pop("base_url", BASE), TOKEN, transport=httpx.MockTransport(handler), **options
    )


def error_body(status: int, message: str) -> dict[str, Any]:
    return {"error": {"code": status, "message": message}}


@contextmanager
def loopback(app: ASGIApp, **options: Any) -> Iterator[str]:
    """Serves `app` with uvicorn on a free loopback port in a thread; yields its URL.
    `options` go to uvicorn's Config (`timeout_keep_alive=...`)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, log_level="critical", lifespan="off", access_log=False, **options)
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not instance.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the loopback test server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        instance.should_exit = True
        thread.join(10)
        sock.close()

"""Serve the emulator with uvicorn: in the foreground (the CLI) or in a thread (tests)."""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from types import TracebackType

import uvicorn
from starlette.types import ASGIApp

from docsync.emulator.app import EmulatorConfig, create_app
from docsync.emulator.defaults import DEFAULT_HOST, DEFAULT_PORT
from docsync.emulator.state import EmulatorState


class _DropFilter(logging.Filter):
    """Hides uvicorn's complaint about the connections the emulator drops on purpose."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "returned without completing response" not in record.getMessage()


def _quiet_drops() -> None:
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _DropFilter) for f in logger.filters):
        logger.addFilter(_DropFilter())


def _uvicorn_config(app: ASGIApp, host: str, port: int, log_level: str) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=log_level in ("debug", "info"),
        lifespan="off",
        timeout_graceful_shutdown=2,
    )


class _Server(uvicorn.Server):
    """uvicorn's server, except that SIGINT/SIGTERM end it with exit status 0.

    uvicorn re-raises the captured signal after its graceful shutdown (a traceback for SIGINT,
    status -15 for SIGTERM); a stopped emulator is a normal end, not a failure.
    """

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        handled = (signal.SIGINT, signal.SIGTERM)
        original = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
        try:
            yield
        finally:
            for sig, handler in original.items():
                signal.signal(sig, handler)


def listen_socket(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> socket.socket:
    """Bind before announcing a URL: a busy port fails here (OSError), and port 0 takes a free one.

    IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY only on sockets whose proto says TCP, and
    without it every answer waits ~40 ms for a delayed ACK (Nagle).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def serve(config: EmulatorConfig, sock: socket.socket, log_level: str = "warning") -> None:
    """Run the emulator on a bound socket until SIGINT/SIGTERM (uvicorn handles both signals)."""
    _quiet_drops()
    host, port = sock.getsockname()[:2]
    _Server(_uvicorn_config(create_app(config), host, port, log_level)).run(sockets=[sock])


class EmulatorThread:
    """The emulator on a free loopback port in a daemon thread; a context manager.

    `url` is "http://127.0.0.1:<port>" once started. `wrap` puts ASGI middleware around the app
    (the test harness checks every answer against the production contract this way).
    """

    def __init__(
        self,
        config: EmulatorConfig,
        log_level: str = "warning",
        wrap: Callable[[ASGIApp], ASGIApp] | None = None,
    ) -> None:
        _quiet_drops()
        self._sock = listen_socket(DEFAULT_HOST, 0)
        self.port: int = self._sock.getsockname()[1]
        self.url = f"http://{DEFAULT_HOST}:{self.port}"
        app = create_app(config)
        self.state: EmulatorState = app.state.emulator
        served: ASGIApp = app if wrap is None else wrap(app)
        self._server = uvicorn.Server(_uvicorn_config(served, DEFAULT_HOST, self.port, log_level))
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True
        )

    def start(self) -> EmulatorThread:
        """Start serving; returns once the server accepts connections (or raises after 10 s)."""
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the emulator did not start within 10 seconds")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Stop serving and wait for the thread."""
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._sock.close()
        self.state.store.close()

    def __enter__(self) -> EmulatorThread:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

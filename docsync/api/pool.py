"""The client's connection pool: httpx's own, whose check of its idle connections costs one
system call instead of four.

Before it gives a request a connection, and again when an answer is read, httpcore's pool asks
every connection it keeps whether the server has closed it (an idle socket with something to
read is one the server has hung up). With `parallelism` connections kept, that is twice
`parallelism` checks per request, and httpcore's check asks anyio for the socket (a dictionary
of its attributes built anew, `getpeername()` among them), then makes, registers and runs a
`poll` each time: about a fifth of a request's CPU on loopback at the default parallelism. The
streams here answer the same question from a `poll` registered once per connection. Nothing
else changes: the pool, its limits, HTTP/1.1, TLS and timeouts are httpcore's.
"""

from __future__ import annotations

import select
import ssl
from collections.abc import Iterable
from typing import Any

import httpcore
import httpx


class _Stream(httpcore.AsyncNetworkStream):
    """anyio's stream, with `is_readable` from a `poll` made once for its socket."""

    def __init__(self, stream: httpcore.AsyncNetworkStream) -> None:
        self._stream = stream
        self._socket = stream.get_extra_info("socket")
        self._poll = select.poll()
        self._poll.register(self._socket.fileno(), select.POLLIN)

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._stream.read(max_bytes, timeout)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self._stream.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._stream.aclose()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.AsyncNetworkStream:
        return _wrap(await self._stream.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> Any:
        if info == "is_readable":
            # A closed socket reads as readable, as in httpcore: its next read is the end.
            return self._socket.fileno() < 0 or bool(self._poll.poll(0))
        return self._stream.get_extra_info(info)


def _wrap(stream: httpcore.AsyncNetworkStream) -> httpcore.AsyncNetworkStream:
    """The stream with the cheap check, where the platform has `poll` and the stream a socket
    (else httpcore's own check, as without this module)."""
    if not hasattr(select, "poll") or stream.get_extra_info("socket") is None:
        return stream
    return _Stream(stream)


class _Backend(httpcore.AsyncNetworkBackend):
    """httpcore's asyncio backend (anyio), its streams wrapped."""

    def __init__(self) -> None:
        self._backend = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        stream = await self._backend.connect_tcp(host, port, timeout, local_address, socket_options)
        return _wrap(stream)

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        return _wrap(await self._backend.connect_unix_socket(path, timeout, socket_options))

    async def sleep(self, seconds: float) -> None:
        await self._backend.sleep(seconds)


class PooledTransport(httpx.AsyncHTTPTransport):
    """httpx's transport to the API (HTTP/1.1, certificates verified as httpx does), on a pool
    of `limits` whose idle connections are checked cheaply. The TLS context (the CA bundle read
    and parsed, about 20 ms of CPU) is made for an `https` API only."""

    def __init__(self, limits: httpx.Limits, *, tls: bool) -> None:
        context = httpx.create_ssl_context() if tls else None
        # httpx's own pool, made here and replaced below, takes the context of an https API, and
        # none for a plain one (the replacement, without a context, makes a verifying one).
        super().__init__(verify=context if context is not None else False, limits=limits)
        if not isinstance(getattr(self, "_pool", None), httpcore.AsyncConnectionPool):
            # An httpx that keeps its pool under another name: its own pool, verifying as httpx
            # does, with httpcore's check; never one made with `verify=False`.
            super().__init__(verify=context if context is not None else True, limits=limits)
            return
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=context,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            network_backend=_Backend(),
        )

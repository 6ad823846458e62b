"""The client's connection pool (docsync.api.pool): its idle connections are checked without a
`poll` made per check, a connection the server closed while idle is still never used, and an
https API is verified and served through it."""

from __future__ import annotations

import asyncio
import select
import shutil
import subprocess
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from docsync.api import ApiClient, ApiError
from docsync.api.pool import PooledTransport
from tests.api.apikit import TOKEN, loopback, run

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class Answering:
    """A tiny ASGI app answering every request `{"id": "t1"}`, counting the connections."""

    def __init__(self) -> None:
        self.peers: set[tuple[str, int]] = set()

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        self.peers.add(scope["client"])
        while (await receive()).get("more_body"):
            pass
        await asyncio.sleep(0.001)  # answers overlap, so that the pool keeps several connections
        headers = [(b"content-type", b"application/json")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b'{"id": "t1"}'})


def test_idle_connections_are_checked_without_a_poll_made_per_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """httpcore checks every connection it keeps, twice per request, with a `poll` it makes,
    registers and runs each time (after a `getpeername()`): at 8 connections about a fifth of a
    request's CPU. The pool's streams make one `poll` per connection, once."""
    made = 0
    real = select.poll

    def counted() -> Any:
        nonlocal made
        made += 1
        return real()

    app = Answering()
    with loopback(app) as url:

        async def main() -> None:
            async with ApiClient(url, TOKEN, parallelism=8) as api:
                monkeypatch.setattr(select, "poll", counted)
                await asyncio.gather(*(api.get("/v1/orgs/o") for _ in range(200)))

        run(main())
    assert len(app.peers) > 1, "the requests overlapped: the pool kept several connections"
    assert made <= len(app.peers), f"{made} polls made for {len(app.peers)} connections"


def test_a_connection_the_server_closed_while_idle_is_never_used() -> None:
    """The check still tells: a server that closes an idle kept-alive connection (uvicorn after
    its keep-alive timeout) gets the next request, a create that is never sent twice, on a new
    connection, instead of the client writing it into a closed one and losing its answer."""
    app = Answering()
    with loopback(app, timeout_keep_alive=0.05) as url:

        async def main() -> list[Any]:
            async with ApiClient(url, TOKEN, parallelism=8) as api:
                first = await api.write("POST", "/v1/orgs/o/ping")
                await asyncio.sleep(0.5)  # ten times the keep-alive: the server has closed it
                return [first, await api.write("POST", "/v1/orgs/o/ping")]

        assert run(main()) == [{"id": "t1"}, {"id": "t1"}]
    assert len(app.peers) == 2, "the second create went on a new connection"


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key (openssl's command)."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    command = "req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1"
    names = ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
    files = ["-keyout", str(key), "-out", str(cert)]
    subprocess.run(["openssl", *command.split(), *names, *files], check=True, capture_output=True)
    return cert, key


def test_an_https_api_is_verified_and_served_through_the_pool(
    certificate: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over TLS the pool's streams are the TLS ones (the idle check on their socket), and the
    certificate is verified as httpx verifies it: refused until the CA bundle trusts it."""
    cert, key = certificate
    app = Answering()
    with loopback(app, ssl_certfile=str(cert), ssl_keyfile=str(key)) as url:
        api_url = url.replace("http://", "https://")

        async def main() -> list[Any]:
            async with ApiClient(api_url, TOKEN, parallelism=8) as api:
                return list(await asyncio.gather(*(api.get("/v1/orgs/o") for _ in range(20))))

        with pytest.raises(ApiError, match="CERTIFICATE_VERIFY_FAILED"):
            run(main())
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))
        assert run(main()) == [{"id": "t1"}] * 20


def test_an_httpx_that_keeps_its_pool_elsewhere_gets_its_own_verifying_pool(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pool is swapped in through httpx's `_pool`: where an httpx has none, its own pool is
    kept, made verifying certificates, never the one made with `verify=False` for a plain API."""
    import ssl

    import httpx

    made = httpx.AsyncHTTPTransport.__init__

    def elsewhere(self: httpx.AsyncHTTPTransport, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        self._connections = self.__dict__.pop("_pool")  # type: ignore[attr-defined]

    monkeypatch.setattr(httpx.AsyncHTTPTransport, "__init__", elsewhere)
    limits = httpx.Limits(max_connections=2, max_keepalive_connections=2)
    for tls in (False, True):
        pool = PooledTransport(limits, tls=tls)._connections  # type: ignore[attr-defined]
        context: ssl.SSLContext = pool._ssl_context
        assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname, tls

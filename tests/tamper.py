"""A server in front of the emulator that passes every request on and hands back what the
emulator answered, rewritten: the answers of a server that does not keep its API's promises
(items without `id`, fields of the wrong type, `NaN`; an error that echoes what the server holds),
for tests of what docsync does with them.
Served by uvicorn on loopback in a thread; the emulator's own answers stay checked against the
production contract, the rewritten ones are not (they are wrong on purpose)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tests.api.apikit import loopback
from tests.contract.plugin import STRICT_SERVERS
from tests.emulator_harness import EmulatorHandle

METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]
#: the bytes to send instead, or a status and the bytes (an error in place of an answer)
Answer = bytes | tuple[int, bytes]
#: (method, path) -> the answer's bytes -> what to send instead
Rewrite = Callable[[str, str, bytes], Answer]


def on(method: str, pattern: str, change: Callable[[bytes], Answer]) -> Rewrite:
    """A rewrite of the answers to `method` requests whose path matches `pattern` (a regex)."""

    def rewrite(seen_method: str, path: str, body: bytes) -> Answer:
        if seen_method == method and re.search(pattern, path):
            return change(body)
        return body

    return rewrite


@contextmanager
def tampering(emulator: EmulatorHandle, rewrite: Rewrite) -> Iterator[str]:
    """The URL of a server answering as `emulator` does, each answer through `rewrite`."""

    async def forward(request: Request) -> Response:
        answer = await passed_on(emulator, request)
        sent = rewrite(request.method, request.url.path, answer.content)
        status, body = sent if isinstance(sent, tuple) else (answer.status_code, sent)
        return handed_back(answer, body, status)

    with loopback(Starlette(routes=[Route("/{path:path}", forward, methods=METHODS)])) as url:
        # requests through it to an emulator of production's contract are checked as
        # production's (tests/contract/plugin.py)
        strict = emulator.url.removeprefix("http://") in STRICT_SERVERS
        netloc = url.removeprefix("http://")
        if strict:
            STRICT_SERVERS.add(netloc)
        try:
            yield url
        finally:
            STRICT_SERVERS.discard(netloc)


async def passed_on(emulator: EmulatorHandle, request: Request) -> httpx.Response:
    """What `emulator` answers to `request`, sent on as it came (its own Host aside)."""
    async with httpx.AsyncClient(base_url=emulator.url, timeout=30) as upstream:
        return await upstream.request(
            request.method,
            request.url.path,
            params=request.query_params,
            content=await request.body(),
            headers={k: v for k, v in request.headers.items() if k.lower() != "host"},
        )


def handed_back(answer: httpx.Response, body: bytes, status: int) -> Response:
    """`body` with `status` and the upstream answer's headers, less those that describe the
    upstream's own bytes (their length and encoding)."""
    headers = {
        k: v
        for k, v in answer.headers.items()
        if k.lower() not in ("content-length", "content-encoding", "transfer-encoding")
    }
    return Response(body, status_code=status, headers=headers)

"""A replay of an organization's answers: what a server answered to every read of a run,
recorded through a proxy, then served by a server of its own that answers those reads and
nothing else (a write is refused and counted). The recorded answers are made production's with
what a real organization's answers hold beyond production's document (`as_production`): fields
docsync does not know, in every object it reads. docsync cannot tell a replay from a server."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tests.api.apikit import loopback
from tests.emulator_harness import EmulatorHandle
from tests.tamper import METHODS, handed_back, passed_on

Key = tuple[str, str]  # path, query


@dataclass
class Replay:
    """The recorded answers by request (`GET` path and query), and the writes it refused."""

    answers: dict[Key, tuple[int, Any]] = field(default_factory=dict)
    writes: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)


@contextmanager
def recording(emulator: EmulatorHandle, replay: Replay) -> Iterator[str]:
    """The URL of a proxy of `emulator` that records what it answers to every read."""

    async def forward(request: Request) -> Response:
        answer = await passed_on(emulator, request)
        if request.method == "GET" and answer.headers.get("content-type", "").startswith(
            "application/json"
        ):
            key = (request.url.path, str(request.query_params))
            replay.answers[key] = (answer.status_code, answer.json())
        return handed_back(answer, answer.content, answer.status_code)

    with loopback(Starlette(routes=[Route("/{path:path}", forward, methods=METHODS)])) as url:
        yield url


@contextmanager
def serving(replay: Replay) -> Iterator[str]:
    """The URL of a server that answers the recorded reads, and refuses anything else."""

    async def answer(request: Request) -> Response:
        key = (request.url.path, str(request.query_params))
        if request.method != "GET":
            replay.writes.append(f"{request.method} {request.url.path}")
            return _error(405, "a replay answers reads only")
        if key not in replay.answers:
            replay.unknown.append(f"GET {request.url.path}?{key[1]}")
            return _error(404, f"no recorded answer for {request.url.path}")
        status, body = replay.answers[key]
        return Response(json.dumps(body), status, media_type="application/json")

    with loopback(Starlette(routes=[Route("/{path:path}", answer, methods=METHODS)])) as url:
        yield url


def _error(status: int, message: str) -> Response:
    body = json.dumps({"error": {"code": status, "message": message}})
    return Response(body, status, media_type="application/json")


#: what production's objects hold beyond its document, by the `object` they say they are: a
#: real organization's answers carry fields its document does not have, which docsync must
#: neither refuse nor write back where it does not write what it read
MORE: dict[str, dict[str, Any]] = {
    "space": {"visitorAuth": {"backend": "custom"}, "hasTranslations": True},
    "site": {"ads": {"status": "pending"}, "features": [{"id": "site-ai"}]},
    "site-section": {"urls": {"published": "https://docs.acme.example/getting-started"}},
    "site-section-group": {"createdAt": "2025-03-01T10:00:00.000Z"},
    "site-space": {"hasAdvancedCustomizationFeature": False},
    "collection": {"visibility": "private"},
    "member": {"disabled": False, "lastSeenAt": "2026-11-01T00:00:00.000Z"},
}
#: and a site's customization, which is no `object`: a setting docsync does not know
CUSTOMIZATION_MORE = {"aiSearch": {"enabled": True}, "pdf": {"enabled": True, "toc": True}}


def as_production(replay: Replay, more: Callable[[Any], Any] | None = None) -> None:
    """Every recorded answer with what production's hold beyond its document (`MORE`)."""
    for key, (status, body) in list(replay.answers.items()):
        found = _with_more(body)
        if key[0].endswith("/customization") and isinstance(found, dict):
            found = {**found, **CUSTOMIZATION_MORE}
        replay.answers[key] = (status, more(found) if more else found)


def _with_more(value: Any) -> Any:
    if isinstance(value, list):
        return [_with_more(item) for item in value]
    if not isinstance(value, dict):
        return value
    found = {name: _with_more(item) for name, item in value.items()}
    extra = MORE.get(str(found.get("object")), {})
    return {**extra, **found}

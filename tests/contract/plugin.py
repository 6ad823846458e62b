"""Every end-to-end test is a conformance test (a pytest plugin loaded by tests/conftest.py).

- `ContractMiddleware` wraps every emulator the harness starts: each `/v1` answer is validated
  against production's response schema of its operation before its last byte is sent.
- A request hook on every `httpx.AsyncClient` that talks to a real server (no transport of its
  own, or httpx's network transport, as docsync's API client has: `docsync.api.pool`) validates
  each request against production's parameters and request schema.
- A violation fails the test that caused it (at teardown), naming operation, field and schema
  path. Documented conflicts are in `tests.contract.conflicts`.
- The terminal summary reports "N answers checked, 0 refused; M requests checked, 0 refused",
  summed over xdist workers.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tests.contract import conflicts
from tests.contract.checker import Contract, Violation
from tests.contract.document import MISSING, load_spec
from tests.contract.observed import load_observed_spec


@dataclass
class Tally:
    """What was checked, and what was refused since the current test began."""

    answers: int = 0
    answers_refused: int = 0
    requests: int = 0
    requests_refused: int = 0
    pending: list[Violation] = field(default_factory=list)
    #: refused answers and requests among the pending violations
    pending_answers: int = 0
    pending_requests: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, found: list[Violation]) -> None:
        with self.lock:
            self.answers += 1
            self.answers_refused += bool(found)
            self.pending_answers += bool(found)
            self.pending += found

    def request(self, found: list[Violation]) -> None:
        with self.lock:
            self.requests += 1
            self.requests_refused += bool(found)
            self.pending_requests += bool(found)
            self.pending += found

    def take(self) -> list[Violation]:
        with self.lock:
            found, self.pending = self.pending, []
            self.pending_answers = self.pending_requests = 0
        return found

    def expected(self) -> list[Violation]:
        """Takes the refusals a test caused on purpose (to prove production refuses a request):
        they fail nothing and are not counted as refused."""
        with self.lock:
            self.answers_refused -= self.pending_answers
            self.requests_refused -= self.pending_requests
        return self.take()

    def counts(self) -> dict[str, int]:
        return {
            "answers": self.answers,
            "answers_refused": self.answers_refused,
            "requests": self.requests,
            "requests_refused": self.requests_refused,
        }


TALLY = Tally()


@functools.cache
def contract(strict: bool = False) -> Contract | None:
    """The production contract's checker, or None when the document is absent. `strict`: no
    documented conflict is forgiven, and the document describes production as it answers
    (`observed.OBSERVED`), for emulators serving `--contract production`."""
    spec = load_observed_spec() if strict else load_spec()
    return None if spec is None else Contract(spec, strict=strict)


#: `host:port` of the emulators serving `--contract production`: requests to them are checked
#: strictly too
STRICT_SERVERS: set[str] = set()


def _not_an_operation(
    method: str, path: str, status: int | None = None, strict: bool = False
) -> list[Violation]:
    """A call outside production's operations: an emulator answer is fine when the operation is
    listed (not for a strict check), or a 404/405 for a bad path; a request docsync sends (no
    status) never is."""
    listed = conflicts.description_only(method, path) and not strict
    if status is not None and (listed or status in (404, 405)):
        return []
    return [
        Violation(
            f"{method} {path}",
            "operation",
            "<path>",
            "not an operation of the production contract"
            + ("" if status is None else " (nor listed in conflicts)"),
            "paths",
        )
    ]


class ContractMiddleware:
    """ASGI middleware validating each `/v1` answer before its last body chunk is sent."""

    def __init__(self, app: ASGIApp, strict: bool = False) -> None:
        self.app = app
        self.strict = strict

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        checker = contract(self.strict)
        if checker is None or scope["type"] != "http" or not scope["path"].startswith("/v1/"):
            await self.app(scope, receive, send)
            return
        method: str = scope["method"]
        path: str = scope["path"]
        status = 0
        chunks: list[bytes] = []

        async def checking_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    found = checker.check_answer(method, path, status, b"".join(chunks))
                    TALLY.answer(
                        _not_an_operation(method, path, status, self.strict)
                        if found is None
                        else found
                    )
            await send(message)

        await self.app(scope, receive, checking_send)


async def _check_request(request: httpx.Request) -> None:
    strict = request.url.netloc.decode() in STRICT_SERVERS
    checker = contract(strict)
    if checker is None or not request.url.path.startswith("/v1/"):
        return  # a URL that is not the API's (a misconfigured --api-url) gets the server's 404
    body = request.read()
    query = list(request.url.params.multi_items())
    found = checker.check_request(request.method, request.url.path, query, body)
    TALLY.request(
        _not_an_operation(request.method, request.url.path, strict=strict)
        if found is None
        else found
    )


@pytest.fixture(scope="session", autouse=True)
def _contract_request_hook() -> Iterator[None]:
    """docsync's requests to real servers are checked for the whole session."""
    wrapped = httpx.AsyncClient.__init__  # as other session fixtures may have wrapped it

    def init_with_hook(self: httpx.AsyncClient, *args: Any, **kwargs: Any) -> None:
        transport = kwargs.get("transport")
        if transport is None or isinstance(transport, httpx.AsyncHTTPTransport):
            hooks = dict(kwargs.get("event_hooks") or {})
            hooks["request"] = [*hooks.get("request", []), _check_request]
            kwargs["event_hooks"] = hooks
        wrapped(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(httpx.AsyncClient, "__init__", init_with_hook)
        yield


@pytest.fixture(autouse=True)
def _contract_conformance() -> Iterator[None]:
    """Fails the test when a request it made docsync send, or an answer it got, is refused."""
    TALLY.take()
    yield
    found = TALLY.take()
    if found:
        listed = "\n  ".join(str(v) for v in dict.fromkeys(found))
        pytest.fail(
            f"{len(found)} refusal(s) by the production contract "
            f"(documented conflicts: tests/contract/conflicts.py):\n  {listed}",
            pytrace=False,
        )


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["contract"] = json.dumps(TALLY.counts())


@pytest.hookimpl(optionalhook=True)  # an xdist hook: `pytest -p no:xdist` must still run
def pytest_testnodedown(node: Any, error: Any) -> None:
    output = getattr(node, "workeroutput", {}).get("contract")
    if output:
        for key, value in json.loads(output).items():
            setattr(TALLY, key, getattr(TALLY, key) + value)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if hasattr(terminalreporter.config, "workeroutput"):
        return
    if contract() is None:
        terminalreporter.write_line(f"!!! contract: NOT CHECKED: {MISSING} !!!", red=True)
        return
    c = TALLY.counts()
    terminalreporter.write_line(
        f"contract: {c['answers']} answers checked, {c['answers_refused']} refused; "
        f"{c['requests']} requests checked, {c['requests_refused']} refused"
    )

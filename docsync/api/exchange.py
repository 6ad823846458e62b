"""One HTTP exchange under the client's bounds: how many are in flight, the rate-limit pacer,
deadlines (to connect, between two bytes, for the whole answer) and the answer's size. A server
that accepts the connection and then drips its answer, or never finishes it, ends the try when
the request's budget does, with a sentence that says what was slow."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from docsync.api.ratelimit import RatePacer
from docsync.api.routes import RouteNames
from docsync.api.shape import AnswerTooLarge
from docsync.api.stats import RequestStats

logger = logging.getLogger("docsync.api")

MAX_ANSWER_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Deadlines:
    """How long docsync waits on a server.

    `answer` is the budget for one answer (`--timeout`): from a request's first try to its
    answer, every retry and the backoff between them included (a 429's wait, which the server
    asks for, is not: rate limits have an allowance of their own). Within it, a try has
    `connect` seconds to connect and `between_bytes` seconds between two bytes of the answer.
    """

    answer: float = 30.0
    connect: float = 10.0
    between_bytes: float = 15.0

    def __post_init__(self) -> None:
        if min(self.answer, self.connect, self.between_bytes) <= 0:
            raise ValueError("deadlines must be more than 0 seconds")


class Budget:
    """What is left of one request's budget; time the client was told to wait is excused."""

    def __init__(self, seconds: float, clock: Callable[[], float]) -> None:
        self.seconds = seconds
        self._clock = clock
        self._started: float | None = None
        self._excused = 0.0

    def begin(self) -> None:
        """The first try starts now (after any wait for a slot or the rate limit)."""
        if self._started is None:
            self._started = self._clock()

    def excuse(self, seconds: float) -> None:
        """Time spent waiting because the server asked for it (429, X-RateLimit-Reset)."""
        self._excused += seconds

    @property
    def spent(self) -> float:
        if self._started is None:
            return 0.0
        return max(0.0, self._clock() - self._started - self._excused)

    @property
    def remaining(self) -> float:
        return max(0.0, self.seconds - self.spent)


class TooSlow(Exception):
    """A try the server was too slow to answer; `sent`: the request may have reached it."""

    def __init__(self, what: str, *, sent: bool) -> None:
        super().__init__(what)
        self.what = what
        self.sent = sent


class Exchanger:
    """Sends one request and reads its whole answer, within a budget."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        host: str,
        parallelism: int,
        pacer: RatePacer,
        stats: RequestStats,
        deadlines: Deadlines,
        routes: RouteNames,
    ) -> None:
        self._http = http
        self._routes = routes
        self.host = host
        self._semaphore = asyncio.Semaphore(parallelism)
        self._pacer = pacer
        self._stats = stats
        self.deadlines = deadlines
        self._busy_since = 0.0

    async def send(
        self,
        method: str,
        path: str,
        params: Mapping[str, Any] | None,
        body: Any,
        budget: Budget,
    ) -> httpx.Response:
        """One HTTP exchange; TooSlow when a deadline passes, httpx's errors otherwise."""
        async with self._semaphore:
            before = self._pacer.waited
            await self._pacer.wait()
            paced = self._pacer.waited - before
            self._stats.waited += paced
            budget.excuse(paced)
            budget.begin()
            left = budget.remaining
            if left <= 0:
                raise TooSlow(f"{self.host} took its whole time already", sent=False)
            within = self.deadlines
            timeout = httpx.Timeout(
                connect=min(within.connect, left),
                read=min(within.between_bytes, left),
                write=min(within.between_bytes, left),
                pool=left,
            )
            request = self._http.build_request(
                method, path, params=params, json=body, timeout=timeout
            )
            target = request.url.raw_path.decode("ascii", "replace")
            self._enter()
            self._stats.calls[self._routes.call_kind(method, path)] += 1
            started = time.perf_counter()
            progress = _Progress()
            try:
                async with asyncio.timeout(left):
                    response = await self._exchange(request, progress)
            except TimeoutError:
                logger.debug("%s %s -> no whole answer within %.1f s", method, target, left)
                raise TooSlow(progress.describe(self.host, left), sent=True) from None
            except httpx.TimeoutException as error:
                logger.debug("%s %s -> %s (%s)", method, target, type(error).__name__, _ms(started))
                raise self._slow(error, timeout, progress) from None
            except httpx.TransportError as error:
                name = type(error).__name__
                logger.debug("%s %s -> %s (%s)", method, target, name, _ms(started))
                raise
            finally:
                self._leave()
        self._pacer.observe(response.headers)
        logger.debug("%s %s -> %d (%s)", method, target, response.status_code, _ms(started))
        return response

    def _slow(
        self, error: httpx.TimeoutException, timeout: httpx.Timeout, progress: _Progress
    ) -> TooSlow:
        host = self.host
        if isinstance(error, httpx.ConnectTimeout):
            return TooSlow(
                f"{host} did not accept the connection within {timeout.connect:g} s", sent=False
            )
        if isinstance(error, httpx.PoolTimeout):
            what = f"no connection to {host} came free within {timeout.pool:g} s"
            return TooSlow(what, sent=False)
        if isinstance(error, httpx.WriteTimeout):
            return TooSlow(f"{host} did not take the request within {timeout.write:g} s", sent=True)
        if progress.size or progress.headers:
            return TooSlow(
                f"{host} stopped sending its answer for {timeout.read:g} s "
                f"({progress.size:,} bytes had come)",
                sent=True,
            )
        return TooSlow(f"{host} sent no answer for {timeout.read:g} s", sent=True)

    async def _exchange(self, request: httpx.Request, progress: _Progress) -> httpx.Response:
        """Sends and reads the answer, refusing one larger than MAX_ANSWER_BYTES as it comes."""
        response = await self._http.send(request, stream=True)
        progress.headers = True
        try:
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > MAX_ANSWER_BYTES:
                raise AnswerTooLarge(int(declared))
            chunks: list[bytes] = []
            async for chunk in response.aiter_bytes():
                progress.size += len(chunk)
                if progress.size > MAX_ANSWER_BYTES:
                    raise AnswerTooLarge(progress.size)
                chunks.append(chunk)
        finally:
            await response.aclose()
        response._content = b"".join(chunks)  # read: .content, .text and .json() work
        return response

    def _enter(self) -> None:
        self._stats.requests += 1
        if self._pacer.in_flight == 0:
            self._busy_since = time.perf_counter()
        self._pacer.in_flight += 1

    def _leave(self) -> None:
        self._pacer.in_flight -= 1
        if self._pacer.in_flight == 0:
            self._stats.seconds += time.perf_counter() - self._busy_since


@dataclass
class _Progress:
    """How far an answer had come when its time ran out."""

    headers: bool = False
    size: int = 0

    def describe(self, host: str, seconds: float) -> str:
        if not self.headers:
            return f"{host} had not answered after {seconds:.3g} s"
        return (
            f"{host}'s answer was still coming after {seconds:.3g} s ({self.size:,} bytes had come)"
        )


def _ms(started: float) -> str:
    return f"{(time.perf_counter() - started) * 1000:.0f} ms"

"""The async Management API client: auth, pagination, retries, pacing and typed errors."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

import httpx

from docsync import __version__
from docsync.api.config import check_token, normalize_base_url, resolve_api_url, resolve_token
from docsync.api.errors import (
    UNKNOWN_HINT,
    ApiError,
    ConfigError,
    OutcomeUnknown,
    RateLimited,
    describe_transport,
    error_class,
    server_message,
    truncate,
)
from docsync.api.ratelimit import RatePacer
from docsync.api.retry import HOPELESS, NOT_SENT, RETRYABLE_STATUSES, RetryPolicy, asked_wait
from docsync.api.routes import RouteNames
from docsync.api.shape import TLS_HINT, AnswerTooLarge, check_write_answer, is_tls_failure

logger = logging.getLogger("docsync.api")

PAGE_LIMIT = 1000
#: bounds on what a misbehaving server can make the client do or hold
MAX_PAGES = 1000
MAX_ANSWER_BYTES = 64 * 1024 * 1024
DEADLINE = 300.0  # seconds for one request and its answer, however slowly the bytes come
_MIN_SECRET = 4
_WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass
class RequestStats:
    """What the client cost: `requests` counts every HTTP request sent, retries included.

    `seconds` is wall-clock time with at least one request in flight; `waited` is time spent
    sleeping for backoff and rate limits; `wall` is the time since the client opened (or since
    the snapshot `since` was given), retries and waits included: what a user waited for.
    """

    requests: int = 0
    retries: int = 0
    seconds: float = 0.0
    waited: float = 0.0
    #: requests by kind of call, `METHOD /route/{template}` (retries included)
    calls: Counter[str] = field(default_factory=Counter)
    #: `time.perf_counter()` when counting began
    started: float = field(default_factory=time.perf_counter)

    @property
    def wall(self) -> float:
        """Seconds since counting began, whatever the client was doing."""
        return time.perf_counter() - self.started

    def since(self, earlier: RequestStats) -> RequestStats:
        """What was spent after `earlier` (a `copy()` taken then)."""
        return RequestStats(
            self.requests - earlier.requests,
            self.retries - earlier.retries,
            self.seconds - earlier.seconds,
            self.waited - earlier.waited,
            self.calls - earlier.calls,
            earlier.started,
        )

    def copy(self) -> RequestStats:
        """A snapshot, for `since`: what was spent until now, counted from now on."""
        return RequestStats(
            self.requests, self.retries, self.seconds, self.waited, Counter(self.calls)
        )


class ApiClient:
    """One connection pool to the Management API, shared by every read and write of a run.

    `path` arguments are the API description's paths, starting with `/v1/`.
    """

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        parallelism: int = 8,
        retry: RetryPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = 30.0,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        clock: Callable[[], float] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if parallelism < 1:
            raise ConfigError(f"parallelism must be at least 1, not {parallelism}")
        self.base_url = normalize_base_url(base_url)
        self._token = check_token(token)
        self.parallelism = parallelism
        self.retry = retry or RetryPolicy()
        self.stats = RequestStats()
        #: how requests are counted by route (the kinds add their lists' names)
        self.routes = RouteNames()
        self._sleep = sleep or asyncio.sleep
        self._clock = clock or time.time
        self._rng = rng or random.Random()
        self._semaphore = asyncio.Semaphore(parallelism)
        self._pacer = RatePacer(self._clock, self._sleep, self.retry.max_wait)
        self._busy_since = 0.0
        self.deadline = DEADLINE
        self._secrets: set[str] = set()
        self._secret_order: list[str] = []
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            transport=transport,
            timeout=timeout,
            limits=httpx.Limits(max_connections=parallelism, max_keepalive_connections=parallelism),
            headers={
                "Authorization": f"Bearer {self._token}",
                "Accept": "application/json",
                "User-Agent": f"docsync/{__version__}",
            },
        )

    @classmethod
    def from_options(
        cls, api_url: str | None, parallelism: int, environ: Mapping[str, str] = os.environ
    ) -> ApiClient:
        """A client from --api-url / DOCSYNC_API_URL and DOCSYNC_TOKEN; ConfigError if unusable."""
        return cls(
            resolve_api_url(api_url, environ), resolve_token(environ), parallelism=parallelism
        )

    @property
    def rate_limit(self) -> int | None:
        """Requests per rate-limit window, once the server has sent `X-RateLimit-Limit`."""
        return self._pacer.limit

    def __repr__(self) -> str:
        return f"ApiClient(base_url={self.base_url!r}, parallelism={self.parallelism})"

    async def __aenter__(self) -> ApiClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    async def get(self, path: str, params: Mapping[str, Any] | None = None) -> Any:
        """GET one resource (or one page) and return its decoded JSON."""
        return await self._request("GET", path, params=params, body=None, idempotent=True)

    async def list_all(
        self, path: str, params: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """Every item of a paginated list: pages of `limit=1000`, following `next.page`."""
        query: dict[str, Any] = {**(params or {}), "limit": PAGE_LIMIT}
        items: list[dict[str, Any]] = []
        seen: set[str] = set()
        while True:
            page = await self._request("GET", path, params=query, body=None, idempotent=True)
            if not isinstance(page, dict) or not isinstance(page.get("items"), list):
                raise ApiError("GET", path, 200, 'expected a list like {"items": [...]}')
            if not all(isinstance(item, dict) for item in page["items"]):
                raise ApiError("GET", path, 200, "expected every list item to be an object")
            items.extend(page["items"])
            following = page.get("next")
            token = following.get("page") if isinstance(following, dict) else None
            if token is None or token == "":
                return items
            token = str(token)
            if token in seen:
                raise ApiError("GET", path, 200, f"pagination loops: page {token!r} came twice")
            if len(seen) + 1 >= MAX_PAGES:
                message = f"more than {MAX_PAGES} pages of {PAGE_LIMIT}: giving up on this list"
                raise ApiError("GET", path, 200, message)
            seen.add(token)
            query = {**query, "page": token}

    async def write(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        idempotent: bool | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> Any:
        """Send a write; return its JSON, or None for an empty answer (204/205).

        `idempotent` defaults to False for POST and True for PUT/PATCH/DELETE. Pass False for a
        PUT that creates (the team create): such a write is never retried once it may have
        reached the server, and raises OutcomeUnknown instead.
        """
        verb = method.upper()
        if verb not in _WRITE_METHODS:
            raise ValueError(f"write() takes POST, PUT, PATCH or DELETE, not {method!r}")
        safe = verb != "POST" if idempotent is None else idempotent
        return await self._request(verb, path, params=params, body=body, idempotent=safe)

    async def _request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None,
        body: Any,
        idempotent: bool,
    ) -> Any:
        if not path.startswith("/v1/"):
            raise ValueError(f"API paths start with /v1/, got {path!r}")
        policy = self.retry
        failed = limited = 0  # answers against each allowance: 5xx and lost ones, 429s
        started = self._clock()
        # An earlier attempt may have been carried out though its answer was lost.
        uncertain = False
        while True:
            try:
                response = await self._send(method, path, params, body)
            except AnswerTooLarge as error:
                raise ApiError(method, path, None, str(error)) from None
            except HOPELESS as error:
                raise ApiError(
                    method, path, None, self._redact(describe_transport(error))
                ) from None
            except httpx.TransportError as error:
                message = self._redact(describe_transport(error))
                if is_tls_failure(error):  # a certificate problem does not pass with time
                    raise ApiError(method, path, None, message, hint=TLS_HINT) from None
                if not idempotent and not isinstance(error, NOT_SENT):
                    raise OutcomeUnknown(method, path, None, message, hint=UNKNOWN_HINT) from None
                failed += 1
                if failed >= policy.max_attempts:
                    hint = f"gave up after {failed + limited} attempts"
                    raise ApiError(method, path, None, message, hint=hint) from None
                delay = policy.backoff(failed, self._rng.random())
                reason = type(error).__name__
                uncertain |= not isinstance(error, NOT_SENT)
            else:
                status = response.status_code
                if 200 <= status < 300:
                    answer = self._decode(method, path, response)
                    if method != "GET":
                        check_write_answer(method, path, status, answer, creates=not idempotent)
                    return answer
                if status == 404 and method == "DELETE" and uncertain:
                    return None  # the lost attempt deleted it: done
                if status not in RETRYABLE_STATUSES:
                    raise self._error(method, path, response)
                if status == 429:
                    limited += 1
                    delay = self._rate_limited_wait(method, path, response, limited, started)
                    self._pacer.hold(delay)  # the whole client backs off, not just this request
                else:
                    if not idempotent:
                        raise self._error(method, path, response, cls=OutcomeUnknown)
                    failed += 1
                    if failed >= policy.max_attempts:
                        hint = f"gave up after {failed + limited} attempts"
                        raise self._error(method, path, response, hint=hint)
                    backoff = policy.backoff(failed, self._rng.random())
                    asked = asked_wait(status, response.headers, self._clock())
                    if asked is not None and asked > policy.max_wait:
                        hint = f"the server asks to wait {asked:.0f} s; try again later"
                        raise self._error(method, path, response, hint=hint)
                    delay = asked or backoff
                    uncertain = True
                reason = str(status)
            self.stats.retries += 1
            self.stats.waited += delay
            logger.debug(
                "retrying %s %s in %.2f s (%s; %d failed, %d rate-limited)",
                method,
                path,
                delay,
                reason,
                failed,
                limited,
            )
            await self._sleep(delay)

    def _rate_limited_wait(
        self, method: str, path: str, response: httpx.Response, limited: int, started: float
    ) -> float:
        """How long to sit out the `limited`th 429 of a request, or RateLimited when the
        rate-limit allowance (attempts, time since the first try) would be spent."""
        policy = self.retry
        now = self._clock()
        backoff = policy.backoff(limited, self._rng.random())
        asked = asked_wait(429, response.headers, now)
        if asked is not None and asked > policy.max_wait:
            hint = f"the server asks to wait {asked:.0f} s; try again later"
            raise self._error(method, path, response, cls=RateLimited, hint=hint)
        delay = asked or backoff
        spent = now - started
        if limited >= policy.rate_limited_attempts or spent + delay > policy.rate_limited_for:
            hint = f"still rate limited after {limited} attempts in {spent:.0f} s; try again later"
            raise self._error(method, path, response, cls=RateLimited, hint=hint)
        return delay

    async def _send(
        self, method: str, path: str, params: Mapping[str, Any] | None, body: Any
    ) -> httpx.Response:
        """One HTTP exchange under the concurrency bound and the rate-limit pacer."""
        request = self._http.build_request(method, path, params=params, json=body)
        target = request.url.raw_path.decode("ascii", "replace")
        async with self._semaphore:
            before = self._pacer.waited
            await self._pacer.wait()
            self.stats.waited += self._pacer.waited - before
            self._enter()
            self.stats.calls[self.routes.call_kind(method, path)] += 1
            started = time.perf_counter()
            try:
                response = await asyncio.wait_for(self._exchange(request), self.deadline)
            except TimeoutError:
                logger.debug("%s %s -> no answer within %.0f s", method, target, self.deadline)
                raise httpx.ReadTimeout(
                    f"no complete answer within {self.deadline:.0f} s"
                ) from None
            except httpx.TransportError as error:
                name = type(error).__name__
                logger.debug("%s %s -> %s (%s)", method, target, name, _ms(started))
                raise
            finally:
                self._leave()
        self._pacer.observe(response.headers)
        logger.debug("%s %s -> %d (%s)", method, target, response.status_code, _ms(started))
        return response

    async def _exchange(self, request: httpx.Request) -> httpx.Response:
        """Sends and reads the answer, refusing one larger than MAX_ANSWER_BYTES as it comes."""
        response = await self._http.send(request, stream=True)
        try:
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > MAX_ANSWER_BYTES:
                raise AnswerTooLarge(int(declared))
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > MAX_ANSWER_BYTES:
                    raise AnswerTooLarge(size)
                chunks.append(chunk)
        finally:
            await response.aclose()
        response._content = b"".join(chunks)  # read: .content, .text and .json() work
        return response

    def _enter(self) -> None:
        self.stats.requests += 1
        if self._pacer.in_flight == 0:
            self._busy_since = time.perf_counter()
        self._pacer.in_flight += 1

    def _leave(self) -> None:
        self._pacer.in_flight -= 1
        if self._pacer.in_flight == 0:
            self.stats.seconds += time.perf_counter() - self._busy_since

    def _decode(self, method: str, path: str, response: httpx.Response) -> Any:
        if response.status_code in (204, 205) or not response.content.strip():
            return None
        try:
            return response.json()
        except RecursionError:
            message = "the answer is JSON nested too deeply to read"
            raise ApiError(method, path, response.status_code, message) from None
        except ValueError:
            snippet = truncate(self._redact(response.text.strip()[:2000]), 200)
            message = f"expected a JSON answer, got: {snippet!r}"
            raise ApiError(method, path, response.status_code, message) from None

    def _error(
        self,
        method: str,
        path: str,
        response: httpx.Response,
        *,
        cls: type[ApiError] | None = None,
        hint: str = "",
    ) -> ApiError:
        status = response.status_code
        chosen = cls or error_class(status)
        if chosen is OutcomeUnknown:
            hint = UNKNOWN_HINT
        elif status in (401, 403) and not hint:
            hint = "check that DOCSYNC_TOKEN is valid and has the rights this call needs"
        message = server_message(self._redact(response.text), clean=self._redact)
        return chosen(method, path, status, message, hint=hint)

    def redact(self, secrets: Iterable[str]) -> None:
        """Adds values this run may send (certificates, env() values) that no message the
        client raises may repeat, even when a server echoes the request body back."""
        self._secrets |= {s for s in secrets if len(s) >= _MIN_SECRET}
        self._secret_order = sorted(self._secrets, key=len, reverse=True)

    def _redact(self, text: str) -> str:
        """Never let the token or a secret of the request through, even if echoed back."""
        if len(self._token) >= _MIN_SECRET:  # shorter: cannot be searched without mangling
            text = text.replace(self._token, "(token)")
        for secret in self._secret_order:
            text = text.replace(secret, "(sensitive)")
        return text


def _ms(started: float) -> str:
    return f"{(time.perf_counter() - started) * 1000:.0f} ms"

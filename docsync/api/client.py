"""The async Management API client: auth, pagination and answer checks over one connection
pool; what a request goes through is in `retrying` (tries, backoff, typed errors) and `exchange`
(deadlines, pacing, size bound)."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

import httpx

from docsync import __version__
from docsync.api.answers import Shape, check_answer, check_items, set_aside
from docsync.api.config import check_token, normalize_base_url, resolve_api_url, resolve_token
from docsync.api.errors import ApiError, ConfigError, Conflict, OddAnswer, OutcomeUnknown
from docsync.api.exchange import Deadlines, Exchanger
from docsync.api.pool import PooledTransport
from docsync.api.ratelimit import RatePacer
from docsync.api.retry import RetryPolicy
from docsync.api.retrying import Retrying
from docsync.api.routes import RouteNames
from docsync.api.stats import RequestStats

__all__ = ["ApiClient", "Deadlines", "RequestStats"]

PAGE_LIMIT = 1000
#: bounds on what a misbehaving server can make the client do or hold
MAX_PAGES = 1000
_MIN_SECRET = 4
_WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class ApiClient:
    """One connection pool to the Management API, shared by every read and write of a run.

    `path` arguments are the API description's paths, starting with `/v1/`. `timeout` is the
    budget for one answer, retries included (`--timeout`; see `Deadlines`).
    """

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        parallelism: int = 8,
        retry: RetryPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float | None = None,
        deadlines: Deadlines | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        clock: Callable[[], float] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if parallelism < 1:
            raise ConfigError(f"parallelism must be at least 1, not {parallelism}")
        self.base_url = normalize_base_url(base_url)
        self._token = check_token(token)
        self.parallelism = parallelism
        self.stats = RequestStats()
        #: how requests are counted by route (the kinds add their lists' names)
        self.routes = RouteNames()
        self._secrets: set[str] = set()
        self._secret_order: list[str] = []
        #: told every answer a read returns (a list's items, all its pages), with the path and
        #: the query it was read with: how a snapshot of an organization records its reads
        self.on_read: Callable[[str, Mapping[str, Any], Any], None] | None = None
        deadlines = deadlines or Deadlines()
        if timeout is not None:
            deadlines = Deadlines(timeout, deadlines.connect, deadlines.between_bytes)
        policy = retry or RetryPolicy()
        limits = httpx.Limits(max_connections=parallelism, max_keepalive_connections=parallelism)
        tls = urlsplit(self.base_url).scheme == "https"
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            transport=transport or PooledTransport(limits, tls=tls),
            timeout=deadlines.answer,
            limits=limits,
            headers={
                "Authorization": f"Bearer {self._token}",
                "Accept": "application/json",
                "User-Agent": f"docsync/{__version__}",
            },
        )
        sleep = sleep or asyncio.sleep
        clock = clock or time.time
        self._pacer = RatePacer(clock, sleep, policy.max_wait)
        host = urlsplit(self.base_url).netloc
        exchanger = Exchanger(
            self._http, host, parallelism, self._pacer, self.stats, deadlines, self.routes
        )
        self._tries = Retrying(
            exchanger,
            policy,
            self._pacer,
            self.stats,
            sleep=sleep,
            clock=clock,
            rng=rng or random.Random(),
            redact=self._redact,
        )

    @classmethod
    def from_options(
        cls,
        api_url: str | None,
        parallelism: int,
        environ: Mapping[str, str] = os.environ,
        *,
        timeout: float | None = None,
    ) -> ApiClient:
        """A client from --api-url / DOCSYNC_API_URL and DOCSYNC_TOKEN; ConfigError if unusable."""
        return cls(
            resolve_api_url(api_url, environ),
            resolve_token(environ),
            parallelism=parallelism,
            timeout=timeout,
        )

    @property
    def retry(self) -> RetryPolicy:
        return self._tries.policy

    @property
    def deadlines(self) -> Deadlines:
        return self._tries.exchanger.deadlines

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

    async def get(
        self, path: str, params: Mapping[str, Any] | None = None, *, shape: Shape | None = None
    ) -> Any:
        """GET one resource (or one page) and return its decoded JSON, checked against `shape`
        (the fields the caller relies on) when one is given."""
        answer = await self._tries.request("GET", path, params=params, body=None, idempotent=True)
        if shape is not None:
            check_answer("GET", path, answer, shape)
        if self.on_read is not None:
            self.on_read(path, params or {}, answer)
        return answer

    async def list_all(
        self,
        path: str,
        params: Mapping[str, Any] | None = None,
        *,
        items: Shape | None = None,
        keep_odd: bool = False,
    ) -> list[dict[str, Any]]:
        """Every item of a paginated list: pages of `limit=1000`, following `next.page`; each
        item an object, checked against `items` (the fields the caller relies on) when given.
        With `keep_odd`, an item not as `items` says is set aside, marked (`answers.Listed`),
        for the caller to leave that one resource out instead of failing the list."""
        query: dict[str, Any] = {**(params or {}), "limit": PAGE_LIMIT}
        found: list[dict[str, Any]] = []
        seen: set[str] = set()
        while True:
            page = await self._tries.request("GET", path, params=query, body=None, idempotent=True)
            if not isinstance(page, dict) or not isinstance(page.get("items"), list):
                raise OddAnswer("GET", path, 200, 'expected a list like {"items": [...]}')
            check_items("GET", path, page["items"], items, first=len(found), keep_odd=keep_odd)
            found.extend(page["items"])
            following = page.get("next")
            token = following.get("page") if isinstance(following, dict) else None
            if token is None or token == "":
                if self.on_read is not None:
                    self.on_read(path, params or {}, found)
                return set_aside(found) if keep_odd else found
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
        try:
            return await self._tries.request(verb, path, params=params, body=body, idempotent=safe)
        except OutcomeUnknown as error:
            if error.status != 409 or verb not in ("PUT", "PATCH") or not isinstance(body, dict):
                raise
            return await self._read_back(path, body, error)

    async def _read_back(self, path: str, body: dict[str, Any], error: OutcomeUnknown) -> Any:
        """A PUT or PATCH sent again after its answer was lost and refused as a conflict (what
        production answers to a write that would change nothing): done when the resource,
        read back, holds what was sent; else the conflict stands."""
        found = await self.get(path)
        if holds(found, body):
            return found
        raise Conflict(
            error.method,
            path,
            409,
            error.message,
            hint="sent again after its answer was lost; read back, it does not hold what was "
            "sent: the next plan shows what is there",
        ) from None

    def redact(self, secrets: Iterable[str]) -> None:
        """Adds values this run may send (certificates, env() values) that no message the
        client raises may repeat, even when a server echoes the request body back."""
        self._secrets |= {s for s in secrets if len(s) >= _MIN_SECRET}
        self._secret_order = sorted(self._secrets, key=len, reverse=True)

    @property
    def redacted(self) -> frozenset[str]:
        """The secrets no message of this client repeats: what a snapshot replaces too."""
        return frozenset(self._secrets)

    def _redact(self, text: str) -> str:
        """Never let the token or a secret of the request through, even if echoed back."""
        if len(self._token) >= _MIN_SECRET:  # shorter: cannot be searched without mangling
            text = text.replace(self._token, "(token)")
        for secret in self._secret_order:
            text = text.replace(secret, "(sensitive)")
        return text


def holds(found: Any, sent: Any) -> bool:
    """Whether an answer holds every value sent (objects field by field, the rest equal)."""
    if isinstance(sent, dict):
        return isinstance(found, dict) and all(
            found.get(key) is None if value is None else key in found and holds(found[key], value)
            for key, value in sent.items()
        )
    return bool(found == sent)

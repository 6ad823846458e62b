"""HTTP glue for route modules: the request context, responses, pagination and the route wrapper.

A route module defines sync handlers `def handler(ctx: Ctx) -> Response` and lists them with
`api_route("GET", "/v1/orgs/{organizationId}/teams", handler)`. The wrapper counts the request,
applies faults, authenticates, runs the handler inside one store transaction (an `ApiError`
rolls it back and becomes the error body) and adds rate-limit headers. Body validation lives in
`docsync.emulator.validate`.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import logging
import secrets
import string
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from starlette.datastructures import QueryParams
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from docsync.emulator.auth import Access, authenticate, require
from docsync.emulator.errors import ApiError, bad_request
from docsync.emulator.faults import RATE_LIMIT_MESSAGE
from docsync.emulator.jsonio import FastJSONResponse
from docsync.emulator.state import EmulatorState, iso
from docsync.emulator.store import Tx

log = logging.getLogger(__name__)

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 1000
_ID_ALPHABET = string.ascii_letters + string.digits
_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def new_id() -> str:
    """A fresh resource id: 20 characters of [A-Za-z0-9], like production's."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(20))


@dataclass
class Ctx:
    """One request as a handler sees it: caller, path params, query, body, clock, transaction."""

    request: Request
    tx: Tx
    state: EmulatorState
    user: dict[str, Any]
    raw_body: bytes
    now: str  # ISO 8601 UTC timestamp of this request on the emulator clock
    member: dict[str, Any] = field(default_factory=dict)  # set by org()

    @property
    def params(self) -> dict[str, str]:
        """Path parameters by name (`ctx.params["organizationId"]`)."""
        return dict(self.request.path_params)

    @property
    def query(self) -> QueryParams:
        """Query parameters."""
        return self.request.query_params

    def org(self, access: Access = Access.READ, org_id: str | None = None) -> dict[str, Any]:
        """The organization of the path (or `org_id`) after checking the caller's access.

        404 when the caller is not a member, 403 when the role is too low. Remembers the
        caller's member row in `ctx.member` (for `permissions` objects).
        """
        org = org_id if org_id is not None else self.params["organizationId"]
        self.member = require(self.tx, self.user, org, access)
        found = self.tx.get("organization", org)
        assert found is not None  # require() checked it
        return found

    @property
    def production(self) -> bool:
        """Whether this emulator serves production's contract only (`--contract production`)."""
        return self.state.production

    def deleted(self) -> Response:
        """The answer to a delete that deleted something: 205 in production; the description
        has 204 for members, teams and SAML providers, which it keeps in its own mode."""
        return empty(205 if self.production else 204)

    @property
    def role(self) -> str | None:
        """The caller's role in the organization resolved by `org()` (None for guests)."""
        role = self.member.get("role")
        return role if isinstance(role, str) else None

    def body(self, *, required: bool = True) -> dict[str, Any]:
        """The JSON object body; 400 when malformed or not an object.

        With `required=False` an empty body reads as `{}`.
        """
        if not self.raw_body.strip():
            if required:
                raise bad_request("body: a JSON object is required")
            return {}
        try:
            data = json.loads(self.raw_body)
        except (ValueError, UnicodeDecodeError) as error:
            raise bad_request(f"body: malformed JSON ({error})") from error
        if not isinstance(data, dict):
            raise bad_request("body: must be a JSON object")
        return data

    @cached_property
    def _base(self) -> str:
        return str(self.request.base_url).rstrip("/")

    def url(self, path: str) -> str:
        """Absolute API URL of `path` (which starts with `/`, without `/v1`)."""
        return f"{self._base}/v1{path}"

    def app_url(self, path: str) -> str:
        """Absolute URL of the (imaginary) web app page of a resource."""
        return f"{self._base}/app{path}"


# -- responses -----------------------------------------------------------------------------


def ok(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A JSON answer."""
    return FastJSONResponse(body, status_code=status, headers=headers)


def created(body: Any, location: str | None = None) -> Response:
    """201 with the created resource, and a `Location` header when production sends one."""
    return ok(body, 201, {"Location": location} if location else None)


def empty(status: int = 204) -> Response:
    """An answer without a body: 204 (done / did not exist) or 205 (deleted)."""
    return Response(status_code=status)


def error_response(error: ApiError, headers: dict[str, str] | None = None) -> Response:
    """The production error body `{"error": {"code", "message"}}`."""
    return FastJSONResponse(error.body(), status_code=error.status, headers=headers)


class DroppedResponse(Response):
    """Starts an answer and never finishes it: uvicorn closes the connection mid-response."""

    def __init__(self) -> None:
        super().__init__(status_code=200)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", b"64")],
            }
        )


class Unanswered(Response):
    """No answer at all, for a client that is gone (uvicorn then closes quietly)."""

    def __init__(self) -> None:
        super().__init__(status_code=499)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        return None


# -- query parameters ----------------------------------------------------------------------


def query_bool(ctx: Ctx, name: str) -> bool | None:
    """A boolean query parameter (`true`/`false`), None when absent; 400 otherwise."""
    value = ctx.query.get(name)
    if value is None:
        return None
    if value.lower() in ("true", "1"):
        return True
    if value.lower() in ("false", "0"):
        return False
    raise bad_request(f"{name}: must be true or false, got {value!r}")


def query_enum(
    ctx: Ctx, name: str, values: Sequence[str], default: str | None = None
) -> str | None:
    """A query parameter restricted to `values`; 400 naming the allowed ones."""
    value = ctx.query.get(name)
    if value is None:
        return default
    if value not in values:
        raise bad_request(f"{name}: must be one of {', '.join(values)}, got {value!r}")
    return value


def _page_token(offset: int) -> str:
    raw = f"{offset}.{zlib.crc32(f'docsync-emulator/{offset}'.encode()):08x}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _page_offset(token: str) -> int:
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
        offset = int(raw.split(".", 1)[0])
    except (binascii.Error, UnicodeDecodeError, ValueError):
        offset = -1
    if offset < 0 or _page_token(offset) != token:
        raise bad_request("page: not a page token returned in next.page by this list")
    return offset


def page_window(ctx: Ctx) -> tuple[int, int]:
    """The `(offset, limit)` a list request asks for: `limit` 0..1000 (0 and absent mean 50),
    `page` a token from an earlier answer's `next.page`; 400 otherwise."""
    raw_limit = ctx.query.get("limit")
    limit = DEFAULT_PAGE_SIZE
    if raw_limit is not None:
        try:
            limit = int(raw_limit)
        except ValueError:
            raise bad_request(f"limit: must be an integer, got {raw_limit!r}") from None
        if not 0 <= limit <= MAX_PAGE_SIZE:
            raise bad_request(f"limit: must be between 0 and {MAX_PAGE_SIZE}, got {limit}")
        # production's schema allows 0; an empty page would leave a client nothing to page
        # through, so 0 means the default page size
        limit = limit or DEFAULT_PAGE_SIZE
    page = ctx.query.get("page")
    return (0 if page is None else _page_offset(page)), limit


def page_answer(items: list[Any], total: int, offset: int, limit: int) -> Response:
    """The answer of one page: `{items, count, next?: {page}}`; `next` is absent on the last."""
    body: dict[str, Any] = {"items": items, "count": total}
    if offset + limit < total:
        body["next"] = {"page": _page_token(offset + limit)}
    return ok(body)


def paginate(
    ctx: Ctx, items: Sequence[Any], render: Callable[[Sequence[Any]], list[Any]] | None = None
) -> Response:
    """Answer a list held whole: the page `page_window` asks for, `count` the total.

    With `render`, `items` are sort keys or rows and only the page's slice is rendered (in one
    batch).
    """
    offset, limit = page_window(ctx)
    page_items = items[offset : offset + limit]
    rendered = list(page_items) if render is None else render(page_items)
    return page_answer(rendered, len(items), offset, limit)


# -- the route wrapper ---------------------------------------------------------------------

Handler = Callable[[Ctx], Response]


def api_route(method: str, path: str, handler: Handler, *, description_only: bool = False) -> Route:
    """A `/v1` route: stats, faults, auth, one transaction around `handler`, error bodies.

    `path` is the full template, e.g. "/v1/orgs/{organizationId}/teams/{teamId}".
    `description_only`: an operation of the API description that production does not have;
    `docsync emulator --contract production` does not serve it.
    """
    key = f"{method} {path}"

    async def endpoint(request: Request) -> Response:
        state: EmulatorState = request.app.state.emulator
        state.stats.record(key)
        decision = state.faults.decide(method, request.url.path, state.now().timestamp())
        # Read before the injected latency: a client that goes away meanwhile (killed, timed
        # out) has sent its request, which the server then carries out as production would.
        try:
            raw_body = await request.body()
        except ClientDisconnect:
            return Unanswered()  # gone before its request was read: nothing to carry out
        if decision.latency:
            await asyncio.sleep(decision.latency / 1000)
        now = state.now().timestamp()
        if decision.status is not None:
            state.stats.record_fault(str(decision.status))
            error = ApiError(decision.status, decision.message)
            return error_response(error, decision.headers | state.faults.budget(now, False)[0])
        charged = False
        try:
            with state.store.transaction() as tx:
                user = authenticate(tx, request.headers.get("authorization"))
                charged = True
                limits, exceeded = state.faults.budget(now, True)
                decision.headers.update(limits)
                if exceeded:
                    state.stats.record_fault("429")
                    raise ApiError(429, RATE_LIMIT_MESSAGE)
                ctx = Ctx(request, tx, state, user, raw_body, iso(state.now()))
                response = handler(ctx)
        except ApiError as error:
            response = error_response(error)
        except Exception:
            log.exception("emulator bug while answering %s", key)
            response = error_response(ApiError(500, f"Internal emulator error in {key}"))
        if not charged:
            decision.headers.update(state.faults.budget(now, False)[0])
        response.headers.update(decision.headers)
        if decision.drop and method in _WRITES and response.status_code < 400:
            state.stats.record_fault("drop")
            return DroppedResponse()
        return response

    endpoint.__name__ = f"{method.lower()}_{handler.__name__}"
    route = Route(path, endpoint, methods=[method])
    route.description_only = description_only  # type: ignore[attr-defined]
    return route

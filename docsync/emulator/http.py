"""HTTP glue for route modules: the request context, responses, pagination and the route wrapper.

A route module defines sync handlers `def handler(ctx: Ctx) -> Response` and lists them with
`api_route("GET", "/v1/orgs/{organizationId}/teams", handler)`. The wrapper counts the request,
applies faults, authenticates, runs the handler inside one store transaction (an `ApiError`
rolls it back and becomes the error body) and adds rate-limit headers. Body validation lives in
`docsync.emulator.validate`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import string
from collections.abc import Callable
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
from docsync.emulator.snapshot import Loader
from docsync.emulator.state import EmulatorState, iso
from docsync.emulator.store import Tx

log = logging.getLogger(__name__)

_ID_ALPHABET = string.ascii_letters + string.digits
_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: the path parameters production types as `EntityId` (`^[a-zA-Z0-9_-]+$`); others are strings
ENTITY_IDS = ("organizationId", "teamId", "spaceId", "collectionId", "inviteId")
_ENTITY_ID = re.compile(r"[a-zA-Z0-9_-]+")


def check_entity_ids(params: dict[str, str]) -> None:
    """400 naming the first `EntityId` path parameter outside production's pattern: such an id
    names nothing (a DELETE of it is not a 204 "there was nothing")."""
    for name in ENTITY_IDS:
        value = params.get(name)
        if value is not None and not _ENTITY_ID.fullmatch(value):
            raise bad_request(f"{name}: must match ^[a-zA-Z0-9_-]+$; got {value[:80]!r}")


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

    def org(
        self, access: Access = Access.READ, org_id: str | None = None, unseen: str | None = None
    ) -> dict[str, Any]:
        """The organization of the path (or `org_id`) after checking the caller's access.

        404 when the caller is not a member (`unseen`: the message of a resource of that
        organization reached by its own id, as for an unknown id), 403 when the role is too
        low. Remembers the caller's member row in `ctx.member` (for `permissions` objects).
        """
        org = org_id if org_id is not None else self.params["organizationId"]
        self.member = require(self.tx, self.user, org, access, unseen)
        found = self.tx.get("organization", org)
        assert found is not None  # require() checked it
        return found

    @property
    def production(self) -> bool:
        """Whether this emulator serves production's contract only (`--contract production`)."""
        return self.state.production

    @property
    def role(self) -> str | None:
        """The caller's role in the organization resolved by `org()` (None for guests)."""
        role = self.member.get("role")
        return role if isinstance(role, str) else None

    def body(self, *, required: bool = True) -> dict[str, Any]:
        """The JSON object body; 400 when malformed or not an object.

        With `required=False` an empty body reads as `{}`: no byte at all, as whitespace alone
        is no JSON value (a body of `\\r` is malformed, not `{}`).
        """
        if not self.raw_body:
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


def created(body: Any, location: str | None = None, status: int = 201) -> Response:
    """201 with the created resource, and a `Location` header when production sends one."""
    return ok(body, status, {"Location": location} if location else None)


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


# -- the route wrapper ---------------------------------------------------------------------

Handler = Callable[[Ctx], Response]


def api_route(
    method: str,
    path: str,
    handler: Handler,
    *,
    description_only: bool = False,
    loads: Loader | None = None,
) -> Route:
    """A `/v1` route: stats, faults, auth, one transaction around `handler`, error bodies.

    `path` is the full template, e.g. "/v1/orgs/{organizationId}/teams/{teamId}".
    `description_only`: an operation of the API description that production does not have;
    `docsync emulator --contract production` does not serve it. `loads`: how a snapshot's
    answer of this `GET` is stored back (docsync.emulator.snapshot).
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
                check_entity_ids(request.path_params)
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
    route.loads = loads  # type: ignore[attr-defined]
    return route

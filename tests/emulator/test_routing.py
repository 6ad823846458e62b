"""The indexed router finds the route Starlette's scan of every route would find."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.routing import Match, Route

from docsync.emulator.app import EmulatorConfig, collect_routes
from docsync.emulator.http import ENTITY_IDS
from docsync.emulator.routing import IndexedRouter
from tests.contract.document import require_spec
from tests.emulator_harness import in_process


def _scope(method: str, path: str) -> dict[str, Any]:
    return {"type": "http", "method": method, "path": path, "root_path": "", "headers": []}


def _first(routes: list[Any], scope: dict[str, Any]) -> tuple[Any, Any]:
    """(first full match, first partial match) of Starlette's scan."""
    full = partial = None
    for route in routes:
        match, _ = route.matches(scope)
        if match is Match.FULL and full is None:
            full = route
        if match is Match.PARTIAL and partial is None:
            partial = route
    return full, partial


def _paths() -> list[str]:
    """A path for every route template, and the same with a trailing slash or one more part."""
    paths = []
    for route in collect_routes():
        assert isinstance(route, Route)
        concrete = re.sub(r"\{[^}]+\}", "x1", route.path)
        paths += [concrete, concrete + "/", concrete + "/more", concrete.rsplit("/", 1)[0]]
    return paths


@pytest.mark.parametrize("method", ["GET", "PUT", "POST", "PATCH", "DELETE", "HEAD"])
def test_candidates_hold_the_route_the_full_scan_finds(method: str) -> None:
    router = IndexedRouter(collect_routes())
    for path in _paths():
        scope = _scope(method, path)
        assert _first(router.candidates(path), scope) == _first(router.routes, scope), path


def test_a_path_convertor_route_is_a_candidate_for_every_path() -> None:
    async def endpoint(request: Any) -> Any:
        raise AssertionError

    catch_all = Route("/files/{rest:path}", endpoint)
    router = IndexedRouter([Route("/a/{x}", endpoint), catch_all])
    assert catch_all in router.candidates("/files/a/b/c")
    assert catch_all in router.candidates("/a/b")


def test_misses_are_answered_as_starlette_answers_them() -> None:
    with in_process(EmulatorConfig()) as (client, _):
        assert client.get("/v1/orgs/org_acme/teams").status_code == 200
        missing = client.get("/v1/orgs/org_acme/nothing-here")
        assert missing.status_code == 404
        assert missing.json()["error"]["message"] == "Not Found: no such API path"
        wrong = client.request("PATCH", "/v1/orgs/org_acme/teams")
        assert wrong.status_code == 405
        assert "GET" in wrong.headers["allow"]
        slash = client.get("/v1/orgs/org_acme/teams/", follow_redirects=False)
        assert slash.status_code == 307
        assert slash.headers["location"].endswith("/v1/orgs/org_acme/teams")


def test_every_entity_id_the_emulator_routes_is_checked_for_its_pattern() -> None:
    """A path id production types `EntityId` and the emulator leaves unchecked is a DELETE of an
    id production refuses answered 204 (found by `scripts/fuzz` for `inviteId`)."""
    spec = require_spec()
    typed = {
        parameter["name"]
        for parameter in spec["components"]["parameters"].values()
        if parameter.get("schema", {}).get("$ref", "").endswith("/EntityId")
    }
    routed = {name for route in collect_routes() for name in re.findall(r"\{(\w+)", route.path)}
    assert typed & routed == set(ENTITY_IDS)

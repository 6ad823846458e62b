"""The explicit answer checks refuse what the old per-test checker refused."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.contract.answers import check_body, check_response

TEAM = "/orgs/{organizationId}/teams/{teamId}"


def _answer(status: int, body: object, path: str = "/v1/orgs/o/teams/t") -> httpx.Response:
    request = httpx.Request("GET", f"http://127.0.0.1{path}")
    return httpx.Response(status, json=body, request=request)


def test_a_body_the_schema_refuses_fails_naming_the_field() -> None:
    with pytest.raises(AssertionError, match="title"):
        check_body("GET", TEAM, 200, {"object": "team", "id": "t", "title": 7})


def test_an_undeclared_status_fails_even_for_an_error() -> None:
    with pytest.raises(AssertionError, match="status 418 is not declared"):
        check_response("GET", TEAM, _answer(418, {"error": {"code": 418, "message": "no"}}))


def test_an_answer_of_another_operation_fails() -> None:
    with pytest.raises(AssertionError, match=re.escape(f"not {TEAM}")):
        check_response("GET", TEAM, _answer(200, {}, "/v1/orgs/o/teams"))
    with pytest.raises(AssertionError, match="is not in the production document"):
        check_body("GET", "/orgs/{organizationId}/made-up", 200, {})

"""Cross-cutting behaviour over real HTTP: auth, error bodies, pagination, bad input."""

from __future__ import annotations

import json
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.depth import examples
from tests.emulator_harness import EmulatorHandle

TEAMS = "/v1/orgs/org_acme/teams"


def test_auth(emulator: EmulatorHandle) -> None:
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic tok_ada"}):
        response = httpx.get(f"{emulator.url}/v1/orgs", headers=headers)
        assert response.status_code == 401
        assert response.json()["error"]["code"] == 401
        assert response.json()["error"]["message"].startswith("Unauthorized")
    assert emulator.client().get("/v1/orgs").status_code == 200


def test_error_bodies_for_unknown_paths_and_methods(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    missing = client.get("/v1/nothing-here")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == 404
    wrong = client.post("/v1/orgs")
    assert wrong.status_code == 405 and wrong.json()["error"]["code"] == 405
    unknown = client.get(f"{TEAMS}/nope")
    assert unknown.json() == {
        "error": {"code": 404, "message": "Team 'nope' not found in organization 'org_acme'"}
    }


def test_pagination_across_pages(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    for i in range(7):
        assert client.put(TEAMS, json={"title": f"Team {i}"}).status_code == 201
    seen: list[str] = []
    params: dict[str, Any] = {"limit": 3}
    pages = 0
    while True:
        body = client.get(TEAMS, params=params).json()
        pages += 1
        assert body["count"] == 7
        seen += [t["title"] for t in body["items"]]
        if "next" not in body:
            break
        params = {"limit": 3, "page": body["next"]["page"]}
    assert pages == 3 and seen == [f"Team {i}" for i in range(7)]


def test_default_page_size_and_limits(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    for i in range(55):
        client.post("/v1/orgs/org_acme/translations", json={"title": f"T{i}"})
    first = client.get("/v1/orgs/org_acme/translations").json()
    assert len(first["items"]) == 50 and first["count"] == 55 and "next" in first
    assert len(client.get("/v1/orgs/org_acme/translations?limit=1000").json()["items"]) == 55
    # production's schema allows limit=0: the default page size
    assert len(client.get("/v1/orgs/org_acme/translations?limit=0").json()["items"]) == 50
    for bad in ("1001", "abc", "-1"):
        response = client.get(f"{TEAMS}?limit={bad}")
        assert response.status_code == 400 and response.json()["error"]["message"].startswith(
            "limit:"
        )
    # production's `page` is any string: a token this list did not hand out names no page
    for token in ("garbage", "MTAuMDAwMDAwMDA", ""):
        response = client.get(TEAMS, params={"page": token})
        assert response.status_code == 404, token
        assert response.json()["error"]["message"].startswith("page:")


def test_malformed_and_mistyped_bodies(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    cases: list[tuple[bytes, str]] = [
        (b"{", "body: malformed JSON"),
        (b"[1, 2]", "body: must be a JSON object"),
        (b'"title"', "body: must be a JSON object"),
        (b"", "body: a JSON object is required"),
        (b"\xff\xfe", "body: malformed JSON"),
        (json.dumps({"title": 5}).encode(), "title: must be a string"),
        (json.dumps({"title": None}).encode(), "title: must not be null"),
        (json.dumps({"title": "x", "members": "u_lin"}).encode(), "members: must be a list"),
    ]
    for raw, message in cases:
        response = client.put(TEAMS, content=raw, headers={"Content-Type": "application/json"})
        assert response.status_code == 400, raw
        assert response.json()["error"]["message"].startswith(message), response.text
    assert client.get(TEAMS).json()["count"] == 0


def test_unknown_ids_everywhere_are_404(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    for path in (
        "/v1/orgs/nope",
        "/v1/orgs/nope/teams",
        f"{TEAMS}/nope/members",
        "/v1/orgs/org_acme/members/nope",
        "/v1/orgs/org_acme/saml/nope",
        "/v1/collections/nope/spaces",
        "/v1/spaces/nope",
        "/v1/orgs/org_acme/openapi/nope",
        "/v1/orgs/org_acme/translations/nope",
    ):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.json()["error"]["code"] == 404


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=80),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=10,
)
WRITES = [
    ("PUT", TEAMS),
    ("PATCH", "/v1/orgs/org_acme"),
    ("POST", "/v1/orgs/org_acme/saml"),
    ("POST", "/v1/orgs/org_acme/collections"),
    ("POST", "/v1/orgs/org_acme/spaces"),
    ("POST", "/v1/orgs/org_acme/openapi"),
    ("PATCH", "/v1/spaces/space_handbook"),
    ("POST", "/v1/spaces/space_handbook/move"),
    ("PATCH", "/v1/orgs/org_acme/members/u_lin"),
]


@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    body=st.dictionaries(
        st.sampled_from(
            [
                "title",
                "label",
                "slug",
                "parent",
                "role",
                "members",
                "source",
                "position",
                "emoji",
                "x",
            ]
        ),
        JSON,
        max_size=4,
    ),
    target=st.sampled_from(WRITES),
)
def test_random_bodies_never_cause_a_server_error(
    emulator_server: EmulatorHandle, body: dict[str, Any], target: tuple[str, str]
) -> None:
    method, path = target
    with emulator_server.client() as client:
        response = client.request(method, path, json=body)
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert set(response.json()["error"]) == {"code", "message"}

"""`-v` counts requests by route: ids named as the API description names them, the kinds'
from their declarations (`Routes.id_name`), so a new kind's requests are named without a table
of its own."""

from __future__ import annotations

import pytest

from docsync.api.routes import RouteNames
from docsync.engine.planner import route_ids
from docsync.kinds import KINDS


@pytest.mark.parametrize(
    ("path", "template"),
    [
        ("/v1/orgs/a/teams/b/members", "/v1/orgs/{organizationId}/teams/{teamId}/members"),
        (
            "/v1/orgs/a/sites/s/external-links/x?limit=1",
            "/v1/orgs/{organizationId}/sites/{siteId}/external-links/{siteExternalLinkId}",
        ),
        (
            "/v1/collections/c/permissions/users/u",
            "/v1/collections/{collectionId}/permissions/users/{userId}",
        ),
        (
            "/v1/orgs/a/sites/s/structure/sort",
            "/v1/orgs/{organizationId}/sites/{siteId}/structure/sort",
        ),
    ],
)
def test_ids_are_named_by_the_kinds_routes(path: str, template: str) -> None:
    names = RouteNames()
    names.add(route_ids(KINDS))
    assert names.template(path) == template


def test_without_the_kinds_only_the_api_s_own_lists_are_named() -> None:
    names = RouteNames()
    assert names.call_kind("get", "/v1/orgs/a/teams/b") == "GET /v1/orgs/a/teams/b"
    names.add({"orgs": "organizationId", "teams": "teamId"})
    assert (
        names.call_kind("get", "/v1/orgs/a/teams/b")
        == "GET /v1/orgs/{organizationId}/teams/{teamId}"
    )

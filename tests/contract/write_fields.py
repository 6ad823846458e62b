"""How much of what docsync's managed operations take is written by a manifest, counted one way
(docs/manifest.md, "What docsync cannot manage"): every property of the request body of every
managed write operation (`write_operations.share`) is classified once, as

- a **manifest key**: a field the kind managing the operation declares under that name
  (`Field.wire_name`), whichever request of the kind carries it (a space's `editMode` is sent by
  the PATCH that follows its create: a key of the create's body too); a property of a request
  docsync sends whose whole body, or list of items, a part's model writes (a site's
  customization, its redirects). Derived from the declarations (`derived_keys`); where a kind
  writes a property by code of its own, under a key of another name, `KEYS` says which, by hand;
- **expressed by the manifest's structure** (`STRUCTURE`): where an entry stands (its parent:
  a site space's `sectionId`), which entry is its level's default, the order of a list, a
  reference written by name;
- **not configuration** (`NOT_CONFIGURATION`): the content a create starts from (a template),
  ids an integration assigns: nothing a manifest of an organization's setup says;
- **configuration docsync does not manage** (`NOT_MANAGED`), each with why.

The field share is the keys and the structure over the configuration properties (every one but
the not-configuration ones). `tests/contract/test_managed_share.py` fails when a property is
unclassified, classified twice, listed but no property of a managed operation (or a key the
declarations now derive), or when the share falls under 98%."""

from __future__ import annotations

from dataclasses import dataclass

from docsync.kinds.catalogue import CATALOGUE
from tests.contract import write_operations as operations
from tests.contract.checker import Contract
from tests.contract.schema_walk import Doc
from tests.contract.sent import SENT, _schema, operation_of

#: (operation, property of its request body)
Prop = tuple[str, str]

_ORG = "/orgs/{organizationId}"
_SITE = f"{_ORG}/sites/{{siteId}}"
_INSTALLATION = "/integrations/{integrationName}/installations/{installationId}"
SPACES, SECTIONS = f"POST {_ORG}/spaces", f"POST {_SITE}/sections"
SITE_SPACES = f"POST {_SITE}/site-spaces"


def body_properties(contract: Contract, operation: str) -> list[str]:
    """The properties of an operation's JSON request body, every shape it may take (a choice's
    options, an allOf's parts) together, in the document's order."""
    method, template = operation.split(" ", 1)
    body = contract.spec["paths"][template][method.lower()].get("requestBody")
    schema = (body or {}).get("content", {}).get("application/json", {}).get("schema")
    if schema is None:
        return []
    shapes, _ = Doc(contract.spec).alternatives(schema)
    names: dict[str, None] = {}
    for shape in shapes:
        names |= dict.fromkeys(shape.get("properties") or {})
    return list(names)


def properties(contract: Contract) -> dict[Prop, str]:
    """Every property of a managed operation's body, with the kind that manages the operation."""
    managed = operations.share(contract).managed
    return {
        (op, name): kind for op, kind in managed.items() for name in body_properties(contract, op)
    }


def derived_keys(contract: Contract) -> dict[Prop, str]:
    """The properties the declarations name: a field of the kind that manages the operation (or
    its key), or what a request docsync sends there carries (`tests/contract/sent.py`)."""
    carried: dict[str, set[str]] = {}
    for sent in SENT:
        op = operation_of(contract, sent)
        if op is None:
            continue
        names = carried.setdefault(op, set())
        if sent.fields is None:
            names |= set(_schema(sent.model)["properties"])  # the whole body (customization)
        elif sent.items:
            names.add(sent.items)  # the list of the part's items (redirects)
        else:
            names |= {f.wire_name for f in sent.fields}
    found: dict[Prop, str] = {}
    for (op, name), kind in properties(contract).items():
        declared = CATALOGUE.named(kind)
        own = {f.wire_name for f in declared.fields} | {declared.key}
        if name in own or name in carried.get(op, ()):
            found[(op, name)] = kind
    return found


# -- by hand ---------------------------------------------------------------------------------

_GRANTS = "a grant's principal: `permissions: {teams: {NAME: ROLE}, members: {...}}`"
_ROLE = "a grant's role: the value of `permissions: {teams: {NAME: ROLE}}`"
_MEMBERS = "a team's `members`: the users its batch PUT adds, removes or gives a role"

#: (operation, property) -> (the kind whose manifest key writes it, how)
KEYS: dict[Prop, tuple[str, str]] = {
    **{
        (f"POST {holder}/permissions", principals): ("grant", _GRANTS)
        for holder in ("/spaces/{spaceId}", "/collections/{collectionId}", _SITE)
        for principals in ("teams", "users")
    },
    **{
        (f"PATCH {holder}/permissions/{principals}/{{{id_name}}}", "role"): ("grant", _ROLE)
        for holder in ("/spaces/{spaceId}", "/collections/{collectionId}", _SITE)
        for principals, id_name in (("teams", "teamId"), ("users", "userId"))
    },
    **{
        (f"PUT {_ORG}/teams/{{teamId}}/members", name): ("team", _MEMBERS)
        for name in ("add", "remove", "memberships")
    },
    (f"PUT {_ORG}/teams/{{teamId}}/members/{{userId}}", "role"): (
        "team_member",
        "a member's `role` in `members: [{user, role}]`",
    ),
    (f"POST {_ORG}/translations", "source"): (
        "translation",
        "`space` and `sourceLanguage`, sent as production's `source: {space, language}`",
    ),
    (f"PUT {_ORG}/translations-glossary", "operations"): (
        "translations_glossary",
        "`entries`: the batch's inserts, updates and deletes",
    ),
}

_ORDER = "the order of the manifest's list: the site's one sort moves what is out of place"
_DEFAULT = "`default: true` on the entry that is its level's default"

#: (operation, property) -> how the manifest's structure expresses it
STRUCTURE: dict[Prop, str] = {
    (f"PATCH {_SITE}/structure/sort", "item"): _ORDER,
    (f"PATCH {_SITE}/structure/sort", "position"): _ORDER,
    **{
        (f"POST {_SITE}/{items}/{{{id_name}}}/move", "position"): _ORDER
        for items, id_name in (
            ("sections", "siteSectionId"),
            ("section-groups", "siteSectionGroupId"),
            ("site-spaces", "siteSpaceId"),
        )
    },
    (f"PATCH {_SITE}", "defaultSiteSpace"): _DEFAULT + " (a site space of the site's root)",
    (f"PATCH {_SITE}", "defaultSiteSection"): _DEFAULT + " (a section)",
    (f"PATCH {_SITE}/sections/{{siteSectionId}}", "defaultSiteSpace"): (
        _DEFAULT + " (a site space of the section)"
    ),
    (f"POST {_ORG}/sites", "spaces"): "the site's `siteSpaces` and `sections`, made one by one",
    (SECTIONS, "spaceId"): "the section's first site space's `space`, made by its create",
    (SECTIONS, "pageId"): "the section's first site space's `pageId`, made by its create",
    (SECTIONS, "siteSectionGroupId"): "the group that lists the section in its `sections`",
    (f"PATCH {_SITE}/sections/{{siteSectionId}}", "siteSectionGroupId"): (
        "the group that lists the section in its `sections`"
    ),
    (SITE_SPACES, "sectionId"): "the section whose `siteSpaces` list it",
    (f"POST {_SITE}/external-links", "parent"): "the link's `group`, by title",
    (f"PATCH {_SITE}/external-links/{{siteExternalLinkId}}", "parent"): (
        "the link's `group`, by title"
    ),
    (f"POST {operations._INTEGRATION}/installations", "organization"): (
        "the manifest's `organization`"
    ),
    (f"POST {_INSTALLATION}/sites", "siteId"): "the site (by title) its `sites:` names",
    ("POST /git/installations", "target"): "the site or space whose entry writes `gitSync`",
}

TEMPLATE = "content a new space starts from, applied once at its create: content, not setup"
EXTERNAL_IDS = (
    'ids the integration assigns to its installation (production: "External IDs assigned by '
    "the integration\"), for its own lookups: the integration's, not the organization's"
)

#: (operation, property) -> why it is not configuration
NOT_CONFIGURATION: dict[Prop, str] = {
    (SPACES, "template"): TEMPLATE,
    (SPACES, "empty"): TEMPLATE + " (an empty space, without the default first page)",
    (SPACES, "computedSource"): (
        "the content a space is computed from (an OpenAPI spec, a translation), set once at its "
        "create (its PATCH takes no source): content, which the spec or translation keeps"
    ),
    (SECTIONS, "template"): TEMPLATE,
    (SITE_SPACES, "template"): TEMPLATE,
    (f"PATCH {_INSTALLATION}", "externalIds"): EXTERNAL_IDS,
    (f"PATCH {_INSTALLATION}/sites/{{siteId}}", "externalIds"): EXTERNAL_IDS,
    (f"PATCH {_INSTALLATION}/spaces/{{spaceId}}", "externalIds"): EXTERNAL_IDS,
}

_POSITION = (
    "the order of spaces and collections in their parent (the app's sidebar): a manifest's "
    "`spaces` and `collections` lists say where each is, not in which order"
)
_DRAFT = "drafts (work in progress in the app) are not in the manifest yet"
_NESTED = "groups in groups are not in the manifest: a group stands at the root"
_CONTENT_INVITE = (
    "an invite link to one space or collection cannot be read back: production's list of "
    "invite links answers the organization's alone, so a plan could not tell a link made from "
    "one to make, and every plan would make it again"
)

#: (operation, property) -> why docsync does not manage it
NOT_MANAGED: dict[Prop, str] = {
    ("POST /spaces/{spaceId}/move", "position"): _POSITION,
    ("POST /collections/{collectionId}/move", "position"): _POSITION,
    (f"POST {_ORG}/link-invites", "level"): _CONTENT_INVITE,
    (f"POST {_ORG}/link-invites", "space"): _CONTENT_INVITE,
    (f"POST {_ORG}/link-invites", "collection"): _CONTENT_INVITE,
    (f"PATCH {_ORG}/link-invites/{{inviteId}}", "level"): _CONTENT_INVITE,
    (f"POST {_SITE}/section-groups", "parent"): _NESTED,
    (f"PATCH {_SITE}/section-groups/{{siteSectionGroupId}}", "parentSectionGroupId"): _NESTED,
    (f"POST {_SITE}/redirects", "draft"): _DRAFT,
    (f"PATCH {_SITE}/redirects/{{siteRedirectId}}", "draft"): _DRAFT,
    ("PATCH /git/installations/{installationId}", "childInstallationProjectDirectories"): (
        "the directories of the spaces a site's installation manages are its gitbook-docs.yaml's "
        "(each space's `content.directory`), which the repository owns"
    ),
}


@dataclass(frozen=True)
class FieldShare:
    """The count: the configuration properties, and those a manifest writes (keys, structure)."""

    written: list[Prop]
    configuration: list[Prop]

    @property
    def percent(self) -> float:
        return 100 * len(self.written) / len(self.configuration)

    def line(self) -> str:
        return (
            f"{len(self.written)} of {len(self.configuration)} configuration fields of managed "
            f"write operations written by a manifest ({self.percent:.0f}%)"
        )


def share(contract: Contract) -> FieldShare:
    """The written properties and the configuration ones, as classified above."""
    every = list(properties(contract))
    written = {*derived_keys(contract), *KEYS, *STRUCTURE}
    configuration = [prop for prop in every if prop not in NOT_CONFIGURATION]
    return FieldShare([prop for prop in configuration if prop in written], configuration)

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
- **left out by design** (`LEFT_OUT`), each with why: what cannot be read back (so a plan could
  never tell it done), what another source owns (a repository's `gitbook-docs.yaml`), an order
  the manifest's lists do not carry, a stage of the app's editing;
- **not managed yet** (`NOT_MANAGED`), each with what it lacks.

The field share is the keys and the structure over the fields a manifest can write: those, and
the ones not managed yet (the first two lists are left out of the count, as the operation
share leaves out what is not configuration). `tests/contract/test_managed_share.py` fails when
a property is unclassified, classified twice, listed but no property of a managed operation (or
a key the declarations now derive), or when the share falls under 98%."""

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
    "the order of spaces and collections in their parent (the app's sidebar, which editors "
    "arrange): a manifest's `spaces` and `collections` are keyed by title in their parent and "
    "merge across files in file order, so their order in a manifest says nothing"
)
_CONTENT_INVITE = (
    "an invite link to one space or collection cannot be read back: production's list of "
    "invite links answers the organization's alone, so a plan could not tell a link made from "
    "one to make, and every plan would make it again"
)
_REDIRECT_DRAFT = (
    "a draft redirect is the app's staging of a rule for the site's next publish (production's "
    "`intent: draft`: a list of its own beside the live rules, published at once with `intent: "
    "publish`); a manifest's rules are live once applied, with nothing to stage"
)

#: (operation, property) -> why a manifest leaves it out
LEFT_OUT: dict[Prop, str] = {
    ("POST /spaces/{spaceId}/move", "position"): _POSITION,
    ("POST /collections/{collectionId}/move", "position"): _POSITION,
    (f"POST {_ORG}/link-invites", "level"): _CONTENT_INVITE,
    (f"POST {_ORG}/link-invites", "space"): _CONTENT_INVITE,
    (f"POST {_ORG}/link-invites", "collection"): _CONTENT_INVITE,
    (f"PATCH {_ORG}/link-invites/{{inviteId}}", "level"): _CONTENT_INVITE,
    (f"POST {_SITE}/redirects", "draft"): _REDIRECT_DRAFT,
    (f"PATCH {_SITE}/redirects/{{siteRedirectId}}", "draft"): _REDIRECT_DRAFT,
    ("PATCH /git/installations/{installationId}", "childInstallationProjectDirectories"): (
        "the directories of the spaces a site's installation manages are its repository's "
        "gitbook-docs.yaml's (each space's `content.directory`), which owns the site's "
        "structure once Git Sync does (docsync refuses to write it then)"
    ),
}

_NESTED = (
    "groups in groups (production's `parent`, `parentSectionGroupId`): a manifest's group "
    "stands at the site's root; nesting needs a group's place among another's sections"
)

#: (operation, property) -> what docsync lacks to write it
NOT_MANAGED: dict[Prop, str] = {
    (f"POST {_SITE}/section-groups", "parent"): _NESTED,
    (f"PATCH {_SITE}/section-groups/{{siteSectionGroupId}}", "parentSectionGroupId"): _NESTED,
}


@dataclass(frozen=True)
class FieldShare:
    """The count: the fields a manifest can write, and those it writes (keys, structure)."""

    written: list[Prop]
    writable: list[Prop]

    @property
    def percent(self) -> float:
        return 100 * len(self.written) / len(self.writable)

    def line(self) -> str:
        return (
            f"{len(self.written)} of the {len(self.writable)} fields of managed write "
            f"operations a manifest can write are written ({self.percent:.0f}%)"
        )


def share(contract: Contract) -> FieldShare:
    """The written properties and those a manifest can write, as classified above."""
    every = list(properties(contract))
    written = {*derived_keys(contract), *KEYS, *STRUCTURE}
    writable = [p for p in every if p not in NOT_CONFIGURATION and p not in LEFT_OUT]
    return FieldShare([prop for prop in writable if prop in written], writable)

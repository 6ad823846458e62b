"""Every managed kind, declared once: names, keys, parents, fields and their read/compare hooks.

The kinds' code (`docsync.kinds`) adds the API calls and planning rules to these declarations;
the manifest's checks, the JSON Schema, export and the renderers read them from here, so that
loading and validating a manifest needs none of the client's code. Order is dependency order:
a kind after the kinds it refers to, the organization settings last (they name a site)."""

from __future__ import annotations

from typing import Any

from docsync.core.kind import Catalogue, Declaration, Field

# -- read and compare hooks: the API is asymmetric (written one way, read back another) -------


def _team_id(raw: dict[str, Any]) -> Any:
    """SAML `defaultTeam`: written as a team id, read back as a whole Team object."""
    team = raw.get("defaultTeam")
    return team.get("id") if isinstance(team, dict) else team


def _members_by_user(raw: dict[str, Any]) -> dict[str, str] | None:
    items = raw.get("_members")
    if items is None:
        return None  # membership not read: the manifest does not manage it
    return {str(item["organization"]["id"]): str(item["team"]["role"]) for item in items}


def _strip(value: Any) -> Any:
    return value.strip() if value else value


def _source_from_live(raw: dict[str, Any]) -> dict[str, Any] | None:
    # The API reads back only the URL of a URL source; a text source is never returned.
    url = raw.get("sourceURL")
    return {"url": url} if url else None


def _dump(value: Any) -> Any:
    return value.model_dump(exclude_none=True) if hasattr(value, "model_dump") else value


def _dump_all(value: Any) -> Any:
    return value.model_dump() if hasattr(value, "model_dump") else value


def _proxy(raw: dict[str, Any]) -> Any:
    """Written as `host/path`, read back as `{origin, target}`: compare the origin's host/path."""
    proxy = raw.get("proxy")
    origin = proxy.get("origin") if isinstance(proxy, dict) else proxy
    if not origin:
        return None
    text = str(origin).split("://", 1)[-1].rstrip("/")
    host, _, rest = text.partition("/")
    return f"{host.lower()}/{rest}" if rest else host.lower()


def _domains(value: Any) -> Any:
    # Order and case of email domains carry no meaning.
    return sorted({str(d).lower() for d in value}) if value is not None else None


def _hostname(value: Any) -> Any:
    return str(value).lower() if value is not None else None


def _logo(raw: dict[str, Any]) -> Any:
    # Written as `logo`, read back as `urls.logo`.
    urls = raw.get("urls")
    return (urls.get("logo") or None) if isinstance(urls, dict) else None


def _default_site(raw: dict[str, Any]) -> Any:
    content = raw.get("defaultContent")
    return content.get("site") if isinstance(content, dict) else None


# -- the declarations ---------------------------------------------------------------------------

MEMBER = Declaration(
    "member",
    "members",
    "member",
    key="email",
    fields=(Field("role"),),
    prunable=False,  # members leave only through an explicit `state: absent`
    export_file="org.yaml",
    key_folds_case=True,
)
TEAM = Declaration(
    "team",
    "teams",
    "team",
    key="title",
    fields=(
        Field("title"),
        Field("members", live=_members_by_user, create=False, update=False),
    ),
    needs=("member",),
    export_file="teams.yaml",
)
SAML = Declaration(
    "saml",
    "saml",
    "SAML provider",
    key="label",
    fields=(
        Field("label"),
        Field("ssoURL"),
        Field("entityID"),
        Field("certificate", sensitive=True, normalize=_strip),
        Field("defaultTeam", ref="team", live=_team_id),
        Field("defaultRole"),
    ),
    export_file="teams.yaml",
)
COLLECTION = Declaration(
    "collection",
    "collections",
    "collection",
    key="title",
    scope="parent",
    fields=(
        Field("title"),
        Field("description", create=False),
        Field("defaultLevel", create=False),
        Field("parent", ref="collection", update=False),
    ),
    export_file="content.yaml",
)
SPACE = Declaration(
    "space",
    "spaces",
    "space",
    key="title",
    scope="collection",
    fields=(
        Field("title"),
        Field("emoji", normalize=lambda v: v or None),  # the API reads "no emoji" as ""
        Field("editMode", create=False),
        Field("defaultLevel", create=False),
        Field(
            "collection",
            ref="collection",
            live=lambda raw: raw.get("parent"),
            wire="parent",
            update=False,
        ),
    ),
    needs=("collection",),
    prunable=False,  # spaces hold content: deleted only by `state: absent`
    export_file="content.yaml",
)
OPENAPI = Declaration(
    "openapi",
    "openapi",
    "OpenAPI spec",
    key="slug",
    fields=(Field("source", normalize=_dump, live=_source_from_live),),
    export_file="content.yaml",
)


def _source(name: str) -> Any:
    """A field of a production translation's `source: {space, language}`."""

    def read(raw: dict[str, Any]) -> Any:
        source = raw.get("source")
        return source.get(name) if isinstance(source, dict) else None

    return read


#: Two shapes in one list (INTERFACE.md §2.1): the description's settings `{title}`, keyed by
#: title, and production's translation of a space into a language, keyed by (space, language).
#: A production translation cannot change its space or languages: a change replaces it.
TRANSLATION = Declaration(
    "translation",
    "translations",
    "translation",
    key="title",
    fields=(
        Field("title"),
        Field("space", ref="space", ref_live=True, live=_source("space"), update=False),
        Field("language", update=False),
        Field("sourceLanguage", live=_source("language"), update=False),
    ),
    needs=("space",),
    export_file="content.yaml",
    alt_key=("space", "language"),
)
SITE = Declaration(
    "site",
    "sites",
    "site",
    key="title",
    fields=(
        Field("title"),
        Field("visibility"),
        Field("type", update=False),
        Field("basename", create=False),
        Field("proxy", create=False, live=_proxy, normalize=lambda v: _proxy({"proxy": v})),
        Field("agentsContext", create=False),
        Field("adaptiveContent", create=False, normalize=_dump_all),
        Field("adaptiveSchema", create=False, update=False, live=lambda r: r.get("_schema")),
    ),
    needs=("space",),
    export_file="sites.yaml",
)
SECTION = Declaration(
    "section",
    "sections",
    "section",
    key="title",
    parents=("site",),
    exact=True,
    fields=(
        Field("title"),
        Field("icon"),
        Field("path", create=False),
        Field("description", create=False),
        Field("condition", create=False),
        Field("default", create=False, update=False),
    ),
)
SITE_SPACE = Declaration(
    "site_space",
    "siteSpaces",
    "site space",
    key="path",
    parents=("section", "site"),
    exact=True,
    fields=(
        Field("space", ref="space", wire="spaceId", ref_live=True),
        Field("path", create=False),
        Field("condition", create=False),
        Field("default", create=False, update=False),
    ),
)
SECTION_GROUP = Declaration(
    "section_group",
    "sectionGroups",
    "section group",
    key="title",
    parents=("site",),
    exact=True,
    fields=(
        Field("title"),
        Field("icon"),
        # Which sections a group holds; their order is the site's order (a reorder's business).
        Field("sections", ref="section", update=False, ref_sibling=True, unordered=True),
    ),
)
SETTINGS = Declaration(
    "settings",
    "settings",
    "settings",
    key="title",
    singleton=True,
    #: the safety rails must know the token's member (SSO lockout), even without `members:`
    needs=("member",),
    fields=(
        Field("title"),
        Field("defaultRole"),
        Field("inviteLinks"),
        Field("emailDomains", normalize=_domains),
        Field("hostname", normalize=_hostname),
        Field("sso"),
        Field("ai"),
        Field("logo", live=_logo),
        Field("defaultContent", ref="site", live=_default_site, ref_at=("site",)),
    ),
    export_file="org.yaml",
)

CATALOGUE = Catalogue(
    MEMBER,
    TEAM,
    SAML,
    COLLECTION,
    SPACE,
    OPENAPI,
    TRANSLATION,
    SITE,
    SECTION,
    SITE_SPACE,
    SECTION_GROUP,
    SETTINGS,
)

#: The order of the manifest's list sections in summaries (`docsync validate`).
SUMMARY_ORDER = ("members", "teams", "saml", "collections", "spaces", "sites", "openapi")

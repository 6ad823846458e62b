"""The organization the contract fuzzer starts from: one of each resource the emulator serves.

Generated requests name resources by ids they draw or learn from earlier answers; with a site
that has sections, a group, a link, site spaces, redirects, a share link and an MCP server, a
visitor-auth site, a team, an invite link, a SAML provider, a collection with a space, grants,
an OpenAPI spec, an integration installed on the organization, a site and a space, a
translation, a site channel and a context connection, a glossary entry, and Git Sync installed
on the site and one of its spaces already there, the first requests of each operation reach real
resources instead of 404s.
"""

from __future__ import annotations

from typing import Any

ORG = "/v1/orgs/org_acme"


class _Api:
    """Calls that must succeed: a refusal stops the run with the request and the answer."""

    def __init__(self, client: Any, base: str, token: str) -> None:
        self.client = client
        self.base = base
        self.headers = {"Authorization": f"Bearer {token}"}

    def __call__(self, method: str, path: str, body: Any = None) -> Any:
        response = self.client.request(method, self.base + path, json=body, headers=self.headers)
        if response.status_code >= 300:
            raise RuntimeError(
                f"fuzz organization: {method} {path} answered {response.status_code}: "
                f"{response.text[:300]}"
            )
        return response.json() if response.content else None


def populate(client: Any, base: str, token: str) -> None:
    """Create the fuzzer's organization in the emulator behind `client` (a requests session)."""
    api = _Api(client, base, token)
    team = api("PUT", f"{ORG}/teams", {"title": "Platform", "members": ["u_lin"]})["id"]
    api("POST", f"{ORG}/link-invites", {"role": "read"})
    api(
        "POST",
        f"{ORG}/saml",
        {
            "label": "Okta",
            "ssoURL": "https://idp.example/sso",
            "entityID": "https://idp.example/entity",
            "certificate": "MIIC-fuzz",
            "defaultTeam": team,
        },
    )
    collection = api("POST", f"{ORG}/collections", {"title": "Developers"})["id"]
    guides = api("POST", f"{ORG}/spaces", {"title": "Guides", "parent": collection})["id"]
    reference = api("POST", f"{ORG}/spaces", {"title": "API Reference"})["id"]
    api("POST", f"/v1/collections/{collection}/permissions", {"role": "edit", "teams": [team]})
    api("POST", f"/v1/spaces/{guides}/permissions", {"role": "read", "users": ["u_sam"]})
    site = api("POST", f"{ORG}/sites", {"title": "Developer Docs"})["id"]
    sites = f"{ORG}/sites/{site}"
    api("PATCH", sites, {"basename": "docs", "visibility": "public"})
    section = api("POST", f"{sites}/sections", {"spaceId": guides, "title": "Guides"})["id"]
    api("POST", f"{sites}/sections", {"spaceId": reference, "title": "API"})
    api("POST", f"{sites}/site-spaces", {"spaceId": reference, "sectionId": section})
    group = api("POST", f"{sites}/section-groups", {"title": "Learn", "sections": [section]})
    api("POST", f"{sites}/external-links", {"title": "Status", "url": "https://status.example"})
    api(
        "POST",
        f"{sites}/external-links",
        {"title": "Blog", "url": "https://blog.example", "parent": group["id"]},
    )
    api(
        "POST",
        f"{sites}/redirects",
        {
            "source": "/old",
            "destination": {"kind": "site-section", "siteSectionId": section},
        },
    )
    api("POST", f"{sites}/share-links", {"name": "Partners"})
    api(
        "POST",
        f"{sites}/mcp-servers",
        {"name": "Billing", "url": "https://mcp.example", "headers": {}},
    )
    api("POST", f"{sites}/permissions", {"role": "edit", "teams": [team]})
    api("POST", f"{sites}/publish")
    handbook = api("POST", f"{ORG}/sites", {"title": "Handbook", "visibility": "visitor-auth"})
    api("POST", f"{ORG}/sites/{handbook['id']}/site-spaces", {"spaceId": "space_handbook"})
    api("GET", f"{ORG}/sites/{handbook['id']}/publishing/auth")
    api("POST", f"{ORG}/openapi", {"slug": "petstore", "source": {"text": "openapi: 3.1.0"}})
    # google-analytics (the example seed's) installed on the organization, a site and a space
    installed = api(
        "POST", "/v1/integrations/google-analytics/installations", {"organization": "org_acme"}
    )["id"]
    installation = f"/v1/integrations/google-analytics/installations/{installed}"
    api("PATCH", installation, {"configuration": {"tracking_id": "G-FUZZ"}})
    api("POST", f"{installation}/sites", {"siteId": site})
    api("POST", f"{installation}/spaces", {"space": guides})
    api(
        "POST",
        f"{ORG}/translations",
        {"source": {"space": guides, "language": "en"}, "language": "fr"},
    )
    slack = {"type": "builtin:slack", "setupSettings": {"allowedChannels": ["support"]}}
    api("POST", f"{sites}/channels", slack)
    website = {"connector": "builtin:website", "setupSettings": {"url": "https://acme.example"}}
    api("POST", f"{sites}/context-connections", website)
    terms = {"type": "insert", "translations": {"en": "Workspace", "fr": "Espace"}}
    api("PUT", f"{ORG}/translations-glossary", {"operations": [terms]})
    git = api(
        "POST",
        "/v1/git/installations",
        {"provider": "gitlab", "target": {"type": "site", "siteId": site}},
    )
    gitlab = {"projectId": 42, "accessToken": "glpat-fuzz", "branch": "refs/heads/main"}
    api(
        "PATCH",
        f"/v1/git/installations/{git['id']}",
        {"provider": "gitlab", "providerConfiguration": gitlab},
    )
    managed = {"type": "space", "spaceId": guides, "siteId": site}
    api("POST", "/v1/git/installations", {"provider": "gitlab", "target": managed})

"""Every kind, and every part a kind writes under its entries, converges in one apply when the
answers of its writes are lost: cut after the server carried them out, or refused with a 5xx
before it did (a create then cannot tell which: it looks before it sends again). One case per
group of kinds; `COVERED` (with the cases of test_e2e_unknown_outcome) is what the catalogue
test holds every kind's `writes` to, so a kind added without a lost-answer test fails there."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from docsync.kinds import CATALOGUE
from tests.emulator_harness import EmulatorHandle
from tests.engine.conftest import Docsync, Write, apply_ok, assert_converged
from tests.engine.faultkit import duplicates
from tests.engine.test_e2e_unknown_outcome import FLAT

#: what is retried and that it converges is tested here, not how long the client waits
pytestmark = pytest.mark.usefixtures("quick_retries")


def drop(method: str, path: str, count: int = 1) -> dict[str, Any]:
    """The next `count` writes matching: carried out, then the connection cut."""
    return {"method": method, "path": path, "drop": True, "count": count}


def refuse(method: str, path: str, count: int = 1) -> dict[str, Any]:
    """The next `count` requests matching: answered 500 without being carried out."""
    return {"method": method, "path": path, "status": 500, "count": count}


@dataclass(frozen=True)
class Step:
    manifest: str
    rules: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Case:
    #: the kinds and parts it covers, as `Kind.writes` names them (`share_link`)
    covers: tuple[str, ...]
    setup: str
    steps: tuple[Step, ...]


PRESENTED = """\
organization: org_acme
spaces: [{title: Guides}, {title: Guides v1}, {title: Partner Guides}]
sites:
  - title: Docs
    visibility: share-link
    sections:
      - title: Guides
        siteSpaces:
          - {space: Guides, path: latest}
          - {space: Guides v1, path: v1%(override)s}
%(docs)s  - title: Partners
    visibility: visitor-auth
    siteSpaces: [{space: Partner Guides, path: partners}]
%(partners)s"""
LOOK = "    customization: {styling: {theme: bold}, trademark: {enabled: false}}\n"
REDIRECTS = """\
    redirects:
      - {source: /old, destination: {section: Guides}}
      - {source: /blog/*, destination: {url: "https://blog.acme.example"}}
"""
LINKS = "    shareLinks: [{name: Preview}, {name: Agency, active: false}, {name: Team}]\n"
AUTH = '    publishingAuth: {backend: custom, fallbackURL: "https://acme.example/login"}\n'
OVERRIDE = ", customization: {styling: {theme: muted}}"

ACCESS = """\
organization: org_acme
teams: [{title: Platform}, {title: Writers}]
collections:
  - title: Developers
%s"""

LINKED = """\
organization: org_acme
spaces: [{title: Guides}]
sites:
  - title: Docs
    sections: [{title: Guides, siteSpaces: [{space: Guides, path: latest}]}]
    sectionGroups: [{title: Learn, sections: [Guides]}]
%s"""

AI = """\
organization: org_acme
sites:
  - title: Docs
%s"""
SERVERS = """\
    mcpServers:
      - {name: Billing, url: "https://mcp.acme.example", headers: {Authorization: token-1}}
      - {name: Status, url: "https://status.acme.example/mcp"}
"""
SOURCES = """\
organization: org_acme
sites:
  - title: Docs
%s"""
CONNECTED = """\
    contextConnections:
      - {label: Status, connector: builtin:website, setupSettings: {url: "https://status.example"}}
      - label: Issues
        connector: builtin:github-issues
        setupSettings: {repository: acme/docs, token: token-1}
    channels:
      - {type: "builtin:slack", setupSettings: {allowedChannels: [help]}}
      - {type: "builtin:discord", role: collaborator}
"""
INSTALLED = """\
organization: org_acme
spaces: [{title: Guides}]
sites: [{title: Docs}, {title: Blog}]
integrations:
%s"""
ANALYTICS = """\
  - name: google-analytics
    configuration: {tracking_id: %s}
    sites: {Docs: {configuration: {anonymize: true}}%s}
    spaces: {Guides: {configuration: {label: %s}}}
"""
ON = "/installations/[^/]+/(sites|spaces)"
SYNCED = """\
organization: org_acme
spaces: [{title: Guides%s}]
sites: [{title: Docs%s}]
"""
GITLAB = (
    ", gitSync: {provider: gitlab, providerConfiguration: {projectId: 42, "
    "branch: refs/heads/main, accessToken: glpat-lost-answers}, priority: %s}"
)
GITHUB = ", gitSync: {provider: github, providerConfiguration: {repositoryId: 7}}"
GIT = "/git/installations"

CASES = {
    "git sync": Case(
        ("git_sync",),
        SYNCED % ("", ""),
        (
            Step(
                SYNCED % (GITHUB, GITLAB % "git"),
                (
                    refuse("POST", f"{GIT}$"),  # made nothing: installed again
                    drop("POST", f"{GIT}$"),  # made one: found on its target, not made twice
                    drop("PATCH", f"{GIT}/[^/]+$", 2),
                ),
            ),
            Step(
                SYNCED % (", gitSync: null", GITLAB % "gitbook"),
                (drop("PATCH", f"{GIT}/[^/]+$"), drop("DELETE", f"{GIT}/[^/]+$")),
            ),
        ),
    ),
    "presentation": Case(
        (
            "redirect",
            "share_link",
            "customization",
            "publishing_auth",
            "space_customization",
        ),
        PRESENTED % {"override": "", "docs": "", "partners": ""},
        (
            Step(
                PRESENTED
                % {"override": OVERRIDE, "docs": LOOK + REDIRECTS + LINKS, "partners": AUTH},
                (
                    drop("PUT", "/redirects$"),
                    drop("POST", "/share-links$"),
                    refuse("POST", "/share-links$"),
                    drop("PATCH", "/share-links/[^/]+$"),
                    drop("PUT", "/sites/[^/]+/customization$"),
                    drop("PATCH", "/site-spaces/[^/]+/customization$"),
                    drop("PATCH", "/publishing/auth$"),
                ),
            ),
            Step(
                PRESENTED
                % {
                    "override": ", customization: null",
                    "docs": LOOK
                    + REDIRECTS.rsplit("      - ", 1)[0]
                    + LINKS.replace(", {name: Team}", ""),
                    "partners": AUTH,
                },
                (
                    drop("PUT", "/redirects$"),
                    drop("DELETE", "/share-links/[^/]+$"),
                    drop("DELETE", "/site-spaces/[^/]+/customization$"),
                ),
            ),
        ),
    ),
    "access": Case(
        ("grant",),
        ACCESS % "",
        (
            Step(
                ACCESS % "    permissions: {teams: {Platform: admin, Writers: edit}, "
                "members: {sam@acme.example: read}}\n",
                (drop("POST", "/permissions$", 2),),
            ),
            Step(
                ACCESS
                % "    permissions: {teams: {Platform: admin, Writers: read}, members: {}}\n",
                (drop("PATCH", "/permissions/teams/"), drop("DELETE", "/permissions/users/")),
            ),
        ),
    ),
    "external links": Case(
        ("external_link",),
        LINKED % "",
        (
            Step(
                LINKED
                % (
                    "    externalLinks:\n"
                    '      - {title: Status, url: "https://status.acme.example"}\n'
                    '      - {title: Forum, url: "https://forum.acme.example", group: Learn}\n'
                ),
                (drop("POST", "/external-links$"), refuse("POST", "/external-links$")),
            ),
        ),
    ),
    "site ai": Case(
        ("agent_settings", "mcp_server"),
        AI % "",
        (
            Step(
                AI % ("    agentSettings: {scans: {topics: never}}\n" + SERVERS),
                (
                    drop("PUT", "/agent-settings$"),
                    drop("POST", "/mcp-servers$"),
                    refuse("POST", "/mcp-servers$"),
                ),
            ),
            Step(
                AI % SERVERS.replace("token-1", "token-2").rsplit("      - ", 1)[0],
                (drop("PATCH", "/mcp-servers/[^/]+$"), drop("DELETE", "/mcp-servers/[^/]+$")),
            ),
        ),
    ),
    "site sources": Case(
        ("context_connection", "channel"),
        SOURCES % "",
        (
            Step(
                SOURCES % CONNECTED,
                (
                    drop("POST", "/context-connections$"),
                    refuse("POST", "/context-connections$"),
                    drop("PATCH", "/context-connections/[^/]+$"),
                    drop("POST", "/channels$"),
                    refuse("POST", "/channels$"),
                ),
            ),
            Step(
                SOURCES
                % CONNECTED.replace("status.example", "status.example/v2").split(
                    "      - label: Issues"
                )[0]
                + '    channels: [{type: "builtin:slack", role: collaborator}]\n',
                (
                    drop("PATCH", "/context-connections/[^/]+$"),
                    drop("DELETE", "/context-connections/[^/]+$"),
                    drop("PATCH", "/channels/[^/]+$"),
                    drop("DELETE", "/channels/[^/]+$"),
                ),
            ),
        ),
    ),
    "integrations": Case(
        ("integration", "integration_site", "integration_space"),
        INSTALLED % "  []\n",
        (
            Step(
                INSTALLED % (ANALYTICS % ("G-1", ", Blog: {}", "hb")),
                (
                    refuse("POST", "/installations$"),
                    drop("POST", "/installations$"),
                    drop("PATCH", "/installations/[^/]+$"),
                    drop("POST", f"{ON}$", 2),
                    drop("PATCH", f"{ON}/[^/]+$", 2),
                ),
            ),
            Step(
                INSTALLED % (ANALYTICS % ("G-2", "", "guides")),
                (
                    drop("PATCH", "/installations/[^/]+$"),
                    drop("DELETE", f"{ON}/[^/]+$"),
                    drop("PATCH", f"{ON}/[^/]+$"),
                ),
            ),
            Step(
                INSTALLED % "  - {name: google-analytics, state: absent}\n",
                (drop("DELETE", "/installations/[^/]+$"),),
            ),
        ),
    ),
    "glossary": Case(
        ("translations_glossary",),
        "organization: org_acme\n",
        (
            Step(
                "organization: org_acme\ntranslationsGlossary:\n  keyLanguage: en\n  entries:\n"
                "    - {en: Workspace, fr: Espace de travail}\n    - {en: Site, fr: Site}\n",
                (drop("PUT", "/translations-glossary$"),),
            ),
            Step(
                "organization: org_acme\ntranslationsGlossary:\n  keyLanguage: en\n  entries:\n"
                "    - {en: Site, fr: Site web}\n    - {en: Space, fr: Espace}\n",
                (drop("PUT", "/translations-glossary$"),),
            ),
        ),
    ),
    # Every answer of an installation's writes lost, as many times as the client sends one
    # (5): each was carried out, and the apply reads back what it wrote instead of failing (an
    # installation on a site was left without its configuration, and the apply FAILED).
    "integrations, every answer lost": Case(
        ("integration", "integration_site"),
        INSTALLED % "  []\n",
        tuple(
            Step(
                INSTALLED % (ANALYTICS % (tracking, blog, "hb")),
                (
                    drop("PATCH", "/installations/[^/]+$", 5),
                    drop("POST", "/installations/[^/]+/sites$", 5),
                    drop("PATCH", "/installations/[^/]+/sites/[^/]+$", 5),
                ),
            )
            for tracking, blog in (
                ("G-1", ""),
                ("G-2", ", Blog: {configuration: {sample_rate: 5}}"),
            )
        ),
    ),
    "settings": Case(
        ("settings",),
        "organization: org_acme\n",
        (
            Step(
                "organization: org_acme\nsettings: {defaultRole: edit, inviteLinks: false, "
                "mergeRules: {type: none}, agentInstructions: Be brief.}\n",
                (drop("PATCH", "/orgs/org_acme$"), drop("PUT", "/agent-instructions$")),
            ),
        ),
    ),
}

#: what test_e2e_unknown_outcome covers: every flat kind's create, update and delete (a team's
#: members' PUT among them), and a site's creates of itself and its sections, site spaces and
#: groups
ELSEWHERE = {CATALOGUE.by_section(kind.section).name for kind in FLAT} | {
    "team_member",
    "site",
    "section",
    "site_space",
    "section_group",
}
COVERED = ELSEWHERE | {name for case in CASES.values() for name in case.covers}


def injected(emulator: EmulatorHandle) -> int:
    return sum(emulator.stats()["faults"].values())


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
def test_writes_whose_answers_are_lost_converge_in_one_apply(
    docsync: Docsync, emulator: EmulatorHandle, write: Write, name: str
) -> None:
    case = CASES[name]
    apply_ok(docsync, write("m.yaml", case.setup))
    for step in case.steps:
        path = write("m.yaml", step.manifest)
        before = injected(emulator)
        emulator.set_faults(rules=list(step.rules))
        result = apply_ok(docsync, path)
        assert injected(emulator) - before == sum(r["count"] for r in step.rules), result.output
        emulator.set_faults()
        assert_converged(docsync, path)
        assert duplicates(emulator) == []

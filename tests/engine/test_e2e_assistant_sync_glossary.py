"""The assistant's sources and channels, Git Sync and the glossary together, end to end against
both contracts: the kinds a team sets up for every new site, in one manifest. A
site's assistant sources (context connections, one with a token from env()) and a Slack channel,
the same site's GitLab Git Sync installation (its access token from env()) and the translations
glossary apply together from a saved plan and plan empty; a second manifest changes and shrinks
each of them and converges; the export plans empty; and neither token is in any output, the
saved plan or any exported file. The site writes no structure: Git Sync owns it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from tests.kit import (
    ORG,
    EmulatorHandle,
    Write,
    apply,
    assert_converged,
    cli_for,
    id_of,
    listed,
)

CONNECTION_TOKEN = "ghp-assistant-secret-5d2f81"
GITLAB_TOKEN = "glpat-assistant-sync-never-shown-9e4"
FIRST = """\
organization: org_acme
translationsGlossary:
  keyLanguage: en
  entries:
    - {en: Workspace, fr: Espace de travail, de: Arbeitsbereich}
    - {en: Site, fr: Site, de: Website}
    - {en: Change request, fr: Demande de modification}
sites:
  - title: Assistant Docs
    gitSync:
      provider: gitlab
      providerConfiguration:
        projectId: 4242
        branch: refs/heads/main
        accessToken: "{{ env('GITLAB_TOKEN') }}"
      projectDirectory: docs
      priority: git
    contextConnections:
      - label: Status page
        connector: builtin:website
        setupSettings: {url: "https://status.acme.example"}
        usageSettings: {changeRequests: false, search: true, searchBoost: "x1.2"}
        filter: ""
      - label: Discussions
        connector: builtin:github-discussions
        setupSettings: {repository: acme/docs, token: "{{ env('GH_DISCUSSIONS_TOKEN') }}"}
      - label: Changelog
        connector: builtin:website
        setupSettings: {url: "https://changelog.acme.example"}
    channels:
      - {type: "builtin:slack", role: support, setupSettings: {allowedChannels: [docs-help]}}
"""
# Each kind changed and shrunk: Changelog removed, Status page's URL and boost changed; the
# channel's role and allowed channels; the branch and priority; Site's French term changed and
# Change request removed.
SECOND = """\
organization: org_acme
translationsGlossary:
  keyLanguage: en
  entries:
    - {en: Workspace, fr: Espace de travail, de: Arbeitsbereich}
    - {en: Site, fr: Site web, de: Website}
sites:
  - title: Assistant Docs
    gitSync:
      provider: gitlab
      providerConfiguration:
        projectId: 4242
        branch: refs/heads/docs
        accessToken: "{{ env('GITLAB_TOKEN') }}"
      projectDirectory: docs
      priority: gitbook
    contextConnections:
      - label: Status page
        connector: builtin:website
        setupSettings: {url: "https://status.acme.example/v2"}
        usageSettings: {changeRequests: false, search: true, searchBoost: "x0.8"}
        filter: ""
      - label: Discussions
        connector: builtin:github-discussions
        setupSettings: {repository: acme/docs, token: "{{ env('GH_DISCUSSIONS_TOKEN') }}"}
    channels:
      - type: builtin:slack
        role: collaborator
        setupSettings: {allowedChannels: [docs-help, api]}
"""


def live(emulator: EmulatorHandle) -> dict[str, Any]:
    """What the API holds: the site's connections by label, its channels by type, its
    installation, and the glossary's entries by their English term."""
    site = id_of(emulator, "sites", "title", "Assistant Docs")
    sync = next(s for s in listed(emulator, f"{ORG}/sites") if s["id"] == site)["gitSync"]
    with emulator.client() as client:
        installation = client.get(f"/v1/git/installations/{sync['installationId']}").json()
    return {
        "connections": {
            c["label"]: c for c in listed(emulator, f"{ORG}/sites/{site}/context-connections")
        },
        "channels": {c["type"]: c for c in listed(emulator, f"{ORG}/sites/{site}/channels")},
        "installation": installation,
        "glossary": {
            e["translations"]["en"]: e["translations"]
            for e in listed(emulator, f"{ORG}/translations-glossary")
        },
    }


def test_every_new_kind_applies_from_a_saved_plan_changes_shrinks_and_exports(
    either_contract: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    docsync = cli_for(
        either_contract, GH_DISCUSSIONS_TOKEN=CONNECTION_TOKEN, GITLAB_TOKEN=GITLAB_TOKEN
    )
    outputs: list[str] = []

    manifest = write("all.yaml", FIRST)
    saved = tmp_path / "plan.json"
    planned = docsync("plan", manifest, "--out", saved)
    assert planned.exit_code == 0, planned.output
    assert "contextConnections.Discussions.setupSettings.token" in planned.stdout
    assert "providerConfiguration.accessToken = (sensitive)" in planned.stdout
    assert "~ update translationsGlossary" in planned.stdout
    outputs.append(planned.output)
    applied = docsync("apply", "--plan", saved, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert "0 failed, 0 skipped" in applied.stdout, applied.output
    outputs.append(applied.output)
    outputs.append(assert_converged(docsync, manifest).output)

    now = live(either_contract)
    assert set(now["connections"]) == {"Status page", "Discussions", "Changelog"}
    assert now["connections"]["Discussions"]["setupSettings"]["token"] != CONNECTION_TOKEN
    assert now["channels"]["builtin:slack"]["role"] == "support"
    assert now["installation"]["status"] == "active"
    assert now["installation"]["providerConfiguration"]["branch"] == "refs/heads/main"
    assert now["installation"]["priority"] == "git"
    assert set(now["glossary"]) == {"Workspace", "Site", "Change request"}

    manifest = write("all.yaml", SECOND)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    assert 'context connection "Changelog"' in planned.stdout
    assert '- entries["Change request"]:' in planned.stdout
    outputs.append(planned.output)
    outputs.append(apply(docsync, manifest))
    outputs.append(assert_converged(docsync, manifest).output)

    now = live(either_contract)
    assert set(now["connections"]) == {"Status page", "Discussions"}
    status = now["connections"]["Status page"]
    assert status["setupSettings"] == {"url": "https://status.acme.example/v2"}
    assert status["usageSettings"]["searchBoost"] == "x0.8"
    slack = now["channels"]["builtin:slack"]
    assert slack["role"] == "collaborator"
    assert slack["setupSettings"] == {"allowedChannels": ["docs-help", "api"]}
    assert now["installation"]["providerConfiguration"]["branch"] == "refs/heads/docs"
    assert now["installation"]["priority"] == "gitbook"
    assert set(now["glossary"]) == {"Workspace", "Site"}
    assert now["glossary"]["Site"]["fr"] == "Site web"

    # The export leaves the GitLab token out and writes the connection's as the env() template
    # that reads it: with that variable set, the export plans empty.
    out = tmp_path / "export"
    exported = docsync("export", "--org", "org_acme", "--out", out)
    assert exported.exit_code == 0, exported.output
    outputs.append(exported.output)
    site = next(
        s
        for s in yaml.safe_load((out / "sites.yaml").read_text("utf-8"))["sites"]
        if s["title"] == "Assistant Docs"
    )
    assert "sections" not in site and "siteSpaces" not in site
    assert site["gitSync"]["providerConfiguration"] == {
        "projectId": 4242,
        "branch": "refs/heads/docs",
    }
    assert [c["label"] for c in site["contextConnections"]] == ["Status page", "Discussions"]
    discussions = site["contextConnections"][1]
    variable = discussions["setupSettings"]["token"].split("'")[1]
    glossary = yaml.safe_load((out / "content.yaml").read_text("utf-8"))["translationsGlossary"]
    assert [e["en"] for e in glossary["entries"]] == ["Site", "Workspace"]
    again = cli_for(either_contract, **{variable: CONNECTION_TOKEN})
    outputs.append(assert_converged(again, out).output)

    files = [p.read_text(encoding="utf-8") for p in tmp_path.rglob("*") if p.is_file()]
    assert saved.read_text("utf-8") in files and len(files) > 3
    for secret in (CONNECTION_TOKEN, GITLAB_TOKEN):
        for blob in outputs + files:
            assert secret not in blob, f"a token leaked: {blob[:300]}"

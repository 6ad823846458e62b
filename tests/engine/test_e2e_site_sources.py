"""What a site's assistant reads (context connections) and where it works (channels), end to end
against both contracts: applied from a saved plan (an integration's connection after its
installation, each label set after its create), converged, changed in one request per
connection or channel, targeted, a loss flagged, exported and planned empty. A connection's
token is a secret: in no output, plan file or export, sent with every setup written, and sent
again, rotated, by a plan made with --resend-secrets."""

from __future__ import annotations

from pathlib import Path

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
    requests_between,
)

TOKEN = "ghp-discussions-secret-4c1e9a"
ROTATED = "ghp-discussions-rotated-77b0d2"
SITE = """\
organization: org_acme
integrations: [{name: google-analytics, configuration: {tracking_id: G-1}}]
sites:
  - title: Developer Docs
    contextConnections:
      - label: Status page
        connector: builtin:website
        setupSettings: {url: "https://status.acme.example"}
        usageSettings: {changeRequests: false, search: true, searchBoost: "x1.2"}
        filter: ""
      - label: Discussions
        connector: builtin:github-discussions
        setupSettings: {repository: acme/docs, token: "{{ env('GH_DISCUSSIONS_TOKEN') }}"}
%(analytics)s    channels:
      - {type: "builtin:slack", role: %(role)s, setupSettings: {allowedChannels: [docs-help]}}
%(github)s"""
ANALYTICS = '      - {label: Analytics, connector: "integration:google-analytics"}\n'
GITHUB = (
    '      - {type: "builtin:github", role: collaborator, '
    'setupSettings: {allowedRepositories: ["acme/*"]}}\n'
)
FIRST = SITE % {"analytics": ANALYTICS, "role": "support", "github": GITHUB}
CONNECTIONS = "/v1/orgs/{organizationId}/sites/{siteId}/context-connections"
CHANNELS = "/v1/orgs/{organizationId}/sites/{siteId}/channels"


def live(emulator: EmulatorHandle, part: str) -> list[dict[str, object]]:
    site = id_of(emulator, "sites", "title", "Developer Docs")
    return listed(emulator, f"{ORG}/sites/{site}/{part}")


def test_sources_and_channels_apply_converge_change_and_export(
    either_contract: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    docsync = cli_for(either_contract, GH_DISCUSSIONS_TOKEN=TOKEN)
    manifest = write("sources.yaml", FIRST)
    saved = tmp_path / "plan.json"
    planned = docsync("plan", manifest, "--out", saved)
    assert planned.exit_code == 0, planned.output
    assert "contextConnections.Discussions.setupSettings.token" in planned.stdout
    outputs = [planned.output]
    before = either_contract.stats()
    applied = docsync("apply", "--plan", saved, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    outputs.append(applied.output)
    written = requests_between(before, either_contract.stats())
    assert written[f"POST {CONNECTIONS}"] == 3  # the integration's after its installation
    assert written[f"PATCH {CONNECTIONS}/{{siteContextConnectionId}}"] == 3  # their labels
    assert written[f"POST {CHANNELS}"] == 2
    outputs.append(assert_converged(docsync, manifest).output)

    connections = {c["label"]: c for c in live(either_contract, "context-connections")}
    assert set(connections) == {"Status page", "Discussions", "Analytics"}
    assert connections["Status page"]["usageSettings"] == {
        "changeRequests": False,
        "search": True,
        "searchBoost": "x1.2",
    }
    assert connections["Discussions"]["setupSettings"]["repository"] == "acme/docs"
    assert connections["Discussions"]["setupSettings"]["token"] != TOKEN  # answered masked
    channels = {c["type"]: c for c in live(either_contract, "channels")}
    assert channels["builtin:github"]["role"] == "collaborator"
    assert channels["builtin:slack"]["setupSettings"] == {"allowedChannels": ["docs-help"]}

    # A new URL and boost: one PATCH carrying the whole setup (the token again); a channel's
    # role; the integration's connection and the GitHub channel removed, each a loss.
    changed = SITE % {"analytics": "", "role": "collaborator", "github": ""}
    changed = changed.replace("status.acme.example", "status.acme.example/v2")
    changed = changed.replace('searchBoost: "x1.2"', 'searchBoost: "x0.8"')
    manifest = write("sources.yaml", changed)
    planned = docsync("plan", manifest, "--format", "markdown")
    assert planned.exit_code == 0, planned.output
    assert 'context connection "Analytics"' in planned.stdout
    assert "channel builtin:github is deleted" in planned.stdout
    careful = planned.stdout.split("#### Needs a careful look", 1)[1].split("####", 1)[0]
    assert 'site["Developer Docs"].contextConnections' in careful
    assert 'site["Developer Docs"].channels' in careful
    outputs.append(planned.output)
    targeted = docsync("plan", manifest, "--target", 'site["Developer Docs"].contextConnections')
    assert targeted.exit_code == 0, targeted.output
    assert "Plan: 0 to create, 1 to update, 0 to delete." in targeted.stdout
    assert 'site["Developer Docs"].channels' not in targeted.stdout
    outputs.append(targeted.output)
    before = either_contract.stats()
    outputs.append(apply(docsync, manifest))
    written = requests_between(before, either_contract.stats())
    assert written[f"PATCH {CONNECTIONS}/{{siteContextConnectionId}}"] == 1
    assert written[f"DELETE {CONNECTIONS}/{{siteContextConnectionId}}"] == 1
    assert written[f"PATCH {CHANNELS}/{{siteChannelId}}"] == 1
    assert written[f"DELETE {CHANNELS}/{{siteChannelId}}"] == 1
    assert not written[f"POST {CONNECTIONS}"] and not written[f"POST {CHANNELS}"]
    outputs.append(assert_converged(docsync, manifest).output)
    connections = {c["label"]: c for c in live(either_contract, "context-connections")}
    assert connections["Status page"]["setupSettings"] == {"url": "https://status.acme.example/v2"}
    assert connections["Status page"]["usageSettings"]["searchBoost"] == "x0.8"

    # A rotated token cannot be compared (the API answers it masked): nothing to plan...
    rotated = cli_for(either_contract, GH_DISCUSSIONS_TOKEN=ROTATED)
    outputs.append(assert_converged(rotated, manifest).output)
    # ... until --resend-secrets sends it: the Discussions setup again, in one PATCH, said so.
    resent = rotated("plan", manifest, "--resend-secrets")
    assert resent.exit_code == 0, resent.output
    assert "Plan: 0 to create, 1 to update, 0 to delete." in resent.stdout
    assert "SECRETS SENT AGAIN (--resend-secrets)" in resent.stdout
    assert "contextConnections.Discussions.setupSettings.token" in resent.stdout
    assert "Status page" not in resent.stdout  # no secret written there: not sent
    outputs.append(resent.output)
    before = either_contract.stats()
    outputs.append(apply(rotated, manifest, "--resend-secrets"))
    written = requests_between(before, either_contract.stats())
    assert written[f"PATCH {CONNECTIONS}/{{siteContextConnectionId}}"] == 1
    discussions = connections["Discussions"]["id"]
    held = either_contract.stored("site-context-connection", str(discussions))
    assert held["setupSettings"]["token"] == ROTATED
    outputs.append(assert_converged(rotated, manifest).output)

    # Export writes the token as the env() template that reads it; with it set, plans empty.
    out = tmp_path / "export"
    exported = rotated("export", "--org", "org_acme", "--out", out)
    assert exported.exit_code == 0, exported.output
    outputs.append(exported.output)
    site = next(
        s
        for s in yaml.safe_load((out / "sites.yaml").read_text())["sites"]
        if s["title"] == "Developer Docs"
    )
    discussions = next(c for c in site["contextConnections"] if c["label"] == "Discussions")
    variable = discussions["setupSettings"]["token"].split("'")[1]
    assert site["channels"] == [
        {
            "type": "builtin:slack",
            "role": "collaborator",
            "setupSettings": {"allowedChannels": ["docs-help"]},
        }
    ]
    tracking = "DOCSYNC_INTEGRATION_GOOGLE_ANALYTICS_CONFIGURATION_TRACKING_ID"
    again = cli_for(either_contract, **{variable: ROTATED, tracking: "G-1"})
    outputs.append(assert_converged(again, out).output)
    files = [p.read_text(encoding="utf-8") for p in tmp_path.rglob("*") if p.is_file()]
    for secret in (TOKEN, ROTATED):
        for blob in outputs + files:
            assert secret not in blob, f"a connection's token leaked: {blob[:300]}"

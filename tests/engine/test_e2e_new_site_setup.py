"""What a platform team sets up for every new site, in one manifest, against both contracts:
integrations on the organization, a site and a space (a configuration value from env()), the
site's agent settings and two MCP servers (a header from env()), merge rules on the organization
and a space, the site's default level, the space's language and two invite links. It applies,
the next plan is empty, the export plans empty, and no secret (nor an invite link's id, which
is what joins) is in any output, plan file or export."""

from __future__ import annotations

import re
from pathlib import Path

from tests.kit import ORG, EmulatorHandle, Write, assert_converged, cli_for, listed

GA_ID = "G-NEWSITE-9031"
MCP_TOKEN = "mcp-newsite-token-55e1"
MANIFEST = """\
organization: org_acme
settings:
  mergeRules: {type: rules, rules: [{rule: require_at_least_one_review}]}
inviteLinks:
  - {role: read}
  - {role: null}
spaces:
  - {title: Guides, language: de, mergeRules: {type: inherit}}
sites:
  - title: Docs
    published: true
    defaultLevel: read
    siteSpaces: [{space: Guides, path: guides}]
    agentSettings: {scans: {topics: never}}
    mcpServers:
      - name: Billing
        url: https://mcp.acme.example/billing
        transport: http
        headers: {Authorization: "{{ env('BILLING_MCP_TOKEN') }}"}
      - {name: Status, url: "https://status.acme.example/mcp"}
integrations:
  - name: google-analytics
    configuration: {tracking_id: "{{ env('GA_ID') }}"}
    sites:
      Docs: {configuration: {anonymize: true}}
    spaces:
      Guides: {}
  - name: okta-visitor-auth
    configuration: {client_id: okta-client, issuer: "https://acme.okta.example"}
    sites:
      Docs: {configuration: {scope: openid}}
"""
#: what the export's env() templates read: the texts of the configurations, the MCP header
KNOWN = {
    "TRACKING_ID": GA_ID,
    "CLIENT_ID": "okta-client",
    "ISSUER": "https://acme.okta.example",
    "SCOPE": "openid",
    "AUTHORIZATION": MCP_TOKEN,
}


def test_one_manifest_sets_up_a_site_applies_converges_and_exports_without_secrets(
    either_contract: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    docsync = cli_for(either_contract, GA_ID=GA_ID, BILLING_MCP_TOKEN=MCP_TOKEN)
    manifest = write("org.yaml", MANIFEST)
    saved = tmp_path / "plan.json"
    planned = docsync("plan", manifest, "--format", "markdown", "--out", saved)
    assert planned.exit_code == 0, planned.output
    careful = planned.stdout.split("#### Needs a careful look", 1)[1].split("\n####", 1)[0]
    assert 'site["Docs"].mcpServers' in careful  # what its assistant may call
    assert 'integration["google-analytics"].site["Docs"]' in careful  # scripts for every reader
    applied = docsync("apply", "--plan", saved, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    outputs = [planned.output, applied.output, assert_converged(docsync, manifest).output]

    installed = {i["integration"]["name"] for i in listed(either_contract, f"{ORG}/installations")}
    assert installed == {"google-analytics", "okta-visitor-auth"}
    links = listed(either_contract, f"{ORG}/link-invites")
    assert sorted(str(link["role"]) for link in links) == ["None", "read"]

    out = tmp_path / "export"
    exported = docsync("export", "--org", "org_acme", "--out", out)
    assert exported.exit_code == 0, exported.output
    written = (out / "sites.yaml").read_text() + (out / "org.yaml").read_text()
    variables = set(re.findall(r"env\('+([A-Z0-9_]+)'", written))  # YAML doubles the quotes
    values = {name: KNOWN[next(k for k in KNOWN if name.endswith(k))] for name in variables}
    assert set(values.values()) >= {GA_ID, MCP_TOKEN}  # both secrets exported as what reads them
    outputs += [exported.output, assert_converged(cli_for(either_contract, **values), out).output]

    files = [p.read_text(encoding="utf-8") for p in tmp_path.rglob("*") if p.is_file()]
    for secret in (GA_ID, MCP_TOKEN, *(link["id"] for link in links)):
        for blob in outputs + files:
            assert secret not in blob, f"a secret leaked: {blob[:300]}"

"""A site's AI (agent settings, MCP servers), the organization's agent instructions, and
governance (merge rules of the organization and a space, a site's default level, a space's
language) end to end, against both contracts: applied, converged, changed, exported. An MCP
server's header values are secrets: in no output, plan file or export, and still compared."""

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
    listed,
    requests_between,
    site_part,
)

TOKEN = "mcp-secret-token-7f3a9c"
ROTATED = "mcp-secret-token-rotated-2b6e"
MANIFEST = """\
organization: org_acme
settings:
  mergeRules: {type: rules, rules: [{rule: require_at_least_one_review}]}
  agentInstructions: "Answer in British English.\\n\\nNever promise dates."
spaces:
  - {title: Guides, language: fr, mergeRules: {type: inherit}}
  - title: Runbooks
    mergeRules:
      type: rules
      rules:
        - {rule: custom, expression: "changeRequest.subject != ''", message: Write a subject}
sites:
  - title: Developer Docs
    defaultLevel: read
    siteSpaces: [{space: Guides, path: guides}]
    agentSettings:
      scans: {topics: never}
      editing: {customInstructions: Keep the tone friendly.}
    mcpServers:
      - name: Billing
        url: https://mcp.acme.example/billing
        transport: http
        headers: {Authorization: "{{ env('BILLING_MCP_TOKEN') }}"}
      - {name: Status, url: "https://status.acme.example/mcp"}
"""
MCP = "/v1/orgs/{organizationId}/sites/{siteId}/mcp-servers"


def test_site_ai_and_governance_apply_converge_change_and_export(
    either_contract: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    docsync = cli_for(either_contract, BILLING_MCP_TOKEN=TOKEN)
    manifest = write("org.yaml", MANIFEST)
    planned = docsync("plan", manifest, "--format", "markdown")
    assert planned.exit_code == 0, planned.output
    careful = planned.stdout.split("#### Needs a careful look", 1)[1].split("####", 1)[0]
    assert 'site["Developer Docs"].mcpServers' in careful
    outputs = [planned.output, docsync("plan", manifest).output, apply(docsync, manifest)]
    outputs.append(assert_converged(docsync, manifest).output)

    servers = {
        s["name"]: s for s in site_part(either_contract, "Developer Docs", "mcp-servers")["items"]
    }
    assert servers["Billing"]["headers"] == {"Authorization": TOKEN}
    assert servers["Billing"]["transport"] == "http"
    assert servers["Status"]["transport"] == "sse" and servers["Status"]["headers"] == {}
    agent = site_part(either_contract, "Developer Docs", "agent-settings")
    assert agent["scans"] == {"topics": "never"}
    assert agent["findings"] == {"changeRequests": "never"}  # not written: left as it was
    spaces = {s["title"]: s for s in listed(either_contract, f"{ORG}/spaces")}
    assert spaces["Guides"]["language"] == "fr"
    assert spaces["Runbooks"]["mergeRules"]["rules"][0]["rule"] == "custom"
    with either_contract.client() as client:
        org = client.get(ORG).json()
        instructions = client.get(f"{ORG}/agent-instructions").json()["instructions"]
    assert org["mergeRules"] == {
        "type": "rules",
        "rules": [{"rule": "require_at_least_one_review"}],
    }
    assert len(instructions["nodes"]) == 2
    sites = {s["title"]: s for s in listed(either_contract, f"{ORG}/sites")}
    assert sites["Developer Docs"]["defaultLevel"] == "read"

    # A rotated header is planned (by its digest), never shown; one PATCH carries it.
    rotated = cli_for(either_contract, BILLING_MCP_TOKEN=ROTATED)
    saved = tmp_path / "plan.json"
    planned = rotated("plan", manifest, "--out", saved)
    assert planned.exit_code == 0, planned.output
    assert "mcpServers.Billing.headers" in planned.stdout and "(sensitive)" in planned.stdout
    outputs += [planned.output, rotated("plan", manifest, "--format", "json").output]
    targeted = rotated("plan", manifest, "--target", 'site["Developer Docs"].mcpServers')
    assert targeted.exit_code == 0, targeted.output
    assert "Plan: 0 to create, 1 to update, 0 to delete." in targeted.stdout
    outputs.append(targeted.output)
    before = either_contract.stats()
    applied = rotated("apply", "--plan", saved, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    outputs.append(applied.output)
    written = requests_between(before, either_contract.stats())
    assert written[f"PATCH {MCP}/{{siteMcpServerId}}"] == 1
    assert written[f"POST {MCP}"] == 0
    outputs.append(assert_converged(rotated, manifest).output)

    # Export writes each header as the env() template that reads it; with it set, plans empty.
    out = tmp_path / "export"
    exported = rotated("export", "--org", "org_acme", "--out", out)
    assert exported.exit_code == 0, exported.output
    outputs.append(exported.output)
    site = next(
        s
        for s in yaml.safe_load((out / "sites.yaml").read_text())["sites"]
        if s["title"] == "Developer Docs"
    )
    billing = next(s for s in site["mcpServers"] if s["name"] == "Billing")
    template = billing["headers"]["Authorization"]
    variable = template.split("'")[1]
    assert site["agentSettings"]["editing"]["customInstructions"] == "Keep the tone friendly."
    assert site["defaultLevel"] == "read"
    again = cli_for(either_contract, **{variable: ROTATED})
    outputs.append(assert_converged(again, out).output)
    files = [p.read_text(encoding="utf-8") for p in tmp_path.rglob("*") if p.is_file()]
    for secret in (TOKEN, ROTATED):
        for blob in outputs + files:
            assert secret not in blob, f"an MCP header leaked: {blob[:300]}"

"""Integration installations end to end, against both contracts: installed on the organization,
on sites and on spaces with their configurations (one value from env(), a secret), converged,
exported; one key changed is one update showing that key; a site removed is one uninstall,
flagged (the site is published); the integration uninstalled takes the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kit import (
    ORG,
    EmulatorHandle,
    Write,
    apply,
    assert_converged,
    cli_for,
    export_plans_empty,
    listed,
)

SECRET = "G-SECRET-4242"
FIRST = """\
organization: org_acme
sites:
  - {title: Docs, published: true}
  - {title: Blog}
integrations:
  - name: google-analytics
    configuration: {tracking_id: "{{ env('GA_ID') }}"}
    sites:
      Docs: {configuration: {anonymize: true}}
      Blog: {}
    spaces:
      Internal Handbook: {configuration: {label: hb}}
  - name: okta-visitor-auth
    configuration: {client_id: okta-client, issuer: "https://acme.okta.example"}
    sites:
      Docs: {configuration: {scope: openid}}
"""

OKTA_SITES = "    sites:\n      Docs: {configuration: {scope: openid}}\n"
HEAD = "organization: org_acme\nintegrations:\n"
EXPORTED = {
    "GOOGLE_ANALYTICS_CONFIGURATION_TRACKING_ID": SECRET,
    "OKTA_VISITOR_AUTH_CONFIGURATION_CLIENT_ID": "okta-client",
    "OKTA_VISITOR_AUTH_CONFIGURATION_ISSUER": "https://acme.okta.example",
    "GOOGLE_ANALYTICS_SPACES_INTERNAL_HANDBOOK_CONFIGURATION_LABEL": "hb",
}


def installations(emulator: EmulatorHandle) -> dict[str, dict[str, object]]:
    """The organization's installations: integration name -> installation."""
    found = listed(emulator, f"{ORG}/installations")
    return {item["integration"]["name"]: item["installation"] for item in found}


def test_installations_apply_converge_change_and_export_without_their_secrets(
    either_contract: EmulatorHandle,
    write: Write,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GA_ID", SECRET)
    docsync = cli_for(either_contract)
    manifest = write("org.yaml", FIRST)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    assert '+ create integration["google-analytics"]' in planned.stdout
    assert 'integration["google-analytics"].site["Docs"]' in planned.stdout
    outputs = [planned.output, apply(docsync, manifest)]
    outputs.append(assert_converged(docsync, manifest).output)
    live = installations(either_contract)
    assert live["google-analytics"]["configuration"] == {"tracking_id": SECRET}
    assert live["google-analytics"]["status"] == "active"

    changed = write("org.yaml", FIRST.replace("anonymize: true", "anonymize: false"))
    planned = docsync("plan", changed)
    assert planned.exit_code == 0, planned.output
    assert planned.stdout.count("~ update") == 1, planned.stdout
    assert "anonymize" in planned.stdout and "tracking_id" not in planned.stdout
    outputs += [planned.output, apply(docsync, changed)]

    fewer_text = FIRST.replace("anonymize: true", "anonymize: false").replace(
        "      Blog: {}\n", ""
    )
    fewer = write("org.yaml", fewer_text.replace(OKTA_SITES, "    sites: {}\n"))
    planned = docsync("plan", fewer, "--format", "markdown")
    assert planned.exit_code == 0, planned.output
    assert "Needs a careful look" in planned.stdout
    assert planned.stdout.count("delete") >= 2, planned.stdout
    outputs += [planned.output, apply(docsync, fewer)]
    outputs.append(assert_converged(docsync, fewer).output)

    # Export writes text values as env() placeholders: the plan of the export reads them.
    for variable, value in EXPORTED.items():
        monkeypatch.setenv(f"DOCSYNC_INTEGRATION_{variable}", value)
    exported, _ = export_plans_empty(docsync, tmp_path / "export", "org.yaml")
    outputs.append(exported.output)

    gone = write("org.yaml", f"{HEAD}  - {{name: google-analytics, state: absent}}\n")
    planned = docsync("plan", gone)
    assert planned.exit_code == 0, planned.output
    assert "uninstalls it from its sites too: Docs" in planned.stdout
    outputs += [planned.output, apply(docsync, gone)]
    assert set(installations(either_contract)) == {"okta-visitor-auth"}
    files = [p.read_text(encoding="utf-8") for p in tmp_path.rglob("*") if p.is_file()]
    for blob in outputs + files:
        assert SECRET not in blob, f"a configuration secret leaked: {blob[:300]}"


def test_a_configuration_its_integration_refuses_is_refused_by_the_plan_at_its_line(
    either_contract: EmulatorHandle, write: Write
) -> None:
    """A reviewed plan applies: what the integration's schema refuses (read from the API beside
    the installations, or by name for one not installed) stops the plan, located, and nothing
    is written; so does an integration the API does not know."""
    docsync = cli_for(either_contract)
    manifest = write(
        "org.yaml",
        "organization: org_acme\nsites: [{title: Docs}]\nintegrations:\n"
        "  - name: google-analytics\n    configuration: {tracking_id: G-1}\n"
        "    sites: {Docs: {configuration: {anonymize: fals}}}\n"
        "  - name: okta-visitor-auth\n    configuration: {client_id: c1}\n",
    )
    before = either_contract.stats()["total"]
    for command in (("plan",), ("apply", "--auto-approve")):
        refused = docsync(*command, manifest)
        assert refused.exit_code == 1, refused.output
        assert "org.yaml:6:" in refused.output and (
            "sites.Docs.configuration.anonymize: must be a boolean; got text" in refused.output
        )
        assert "issuer required by the integration" in refused.output
    assert listed(either_contract, f"{ORG}/installations") == []
    writes = either_contract.stats()["requests"]
    assert not [r for r in writes if not r.startswith("GET")], writes
    assert either_contract.stats()["total"] > before  # it read, and wrote nothing
    unknown = write(
        "typo.yaml", "organization: org_acme\nintegrations:\n  - name: google-analytic\n"
    )
    refused = docsync("plan", unknown)
    assert refused.exit_code == 1 and "no integration 'google-analytic' is known" in refused.output

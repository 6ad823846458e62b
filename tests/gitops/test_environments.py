"""examples/environments: one set of manifests applied to a staging and a production
organization through --var-file (organization, hostnames, single sign-on's URLs) and each
environment's secret (OKTA_CERT); and `export` of staging, pointed at a fresh production
organization, bootstraps it: production then differs from the manifests only where the
variable files differ."""

from __future__ import annotations

import json
from pathlib import Path

from tests.emulator_harness import EmulatorHandle
from tests.gitops.conftest import STAGING
from tests.kit import REPO, Docsync, cli_for

EXAMPLE = REPO / "examples" / "environments"
MANIFESTS = EXAMPLE / "manifests"
CERTS = {"staging": "MIIC-staging-certificate", "production": "MIIC-production-certificate"}
#: (address, field) of everything vars/production.yaml sets otherwise than vars/staging.yaml
PER_ENVIRONMENT = {
    ("settings", "title"),
    ("settings", "hostname"),
    ('saml["Okta"]', "ssoURL"),
    ('saml["Okta"]', "entityID"),
    ('openapi["public-api"]', "source"),
    ('site["Developer Docs"]', "proxy"),
}


def docsync_for(emulator: EmulatorHandle, environment: str) -> Docsync:
    return cli_for(emulator, OKTA_CERT=CERTS[environment])


def var_file(environment: str) -> Path:
    return EXAMPLE / "vars" / f"{environment}.yaml"


def changed_fields(docsync: Docsync, *args: str | Path) -> set[tuple[str, str]]:
    """(address, field) of each field change the plan makes."""
    planned = docsync("plan", *args, "--format", "json")
    assert planned.exit_code == 0, planned.output
    actions = json.loads(planned.stdout)["actions"]
    return {(a["address"], c["field"]) for a in actions for c in a["changes"]}


def test_one_set_of_manifests_for_staging_and_production(
    staging_and_production: EmulatorHandle, tmp_path: Path
) -> None:
    emulator = staging_and_production
    staging = docsync_for(emulator, "staging")
    applied = staging("apply", MANIFESTS, "--var-file", var_file("staging"), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert f"organization Acme (staging) ({STAGING})" in applied.stdout
    with emulator.client() as client:
        org = client.get(f"/v1/orgs/{STAGING}").json()
    assert (org["title"], org["hostname"]) == ("Acme (staging)", "acme-staging")

    # Bootstrap production from staging: export it, point the export at production, apply.
    out = tmp_path / "bootstrap"
    assert staging("export", "--org", STAGING, "--out", out).exit_code == 0
    for path in out.glob("*.yaml"):
        text = path.read_text("utf-8")
        path.write_text(text.replace(f"organization: {STAGING}\n", "organization: org_acme\n"))
    production = cli_for(emulator, DOCSYNC_SAML_OKTA_CERTIFICATE=CERTS["production"])
    booted = production("apply", out, "--auto-approve")
    assert booted.exit_code == 0, booted.output
    assert "0 failed, 0 skipped" in booted.stdout

    # Production now differs from the manifests only where its variable file does.
    production = docsync_for(emulator, "production")
    prod_vars = ("--var-file", var_file("production"))
    assert changed_fields(production, MANIFESTS, *prod_vars) == PER_ENVIRONMENT
    done = production("apply", MANIFESTS, *prod_vars, "--auto-approve")
    assert done.exit_code == 0, done.output
    again = production("plan", MANIFESTS, *prod_vars, "--detailed-exitcode")
    assert again.exit_code == 0 and "No changes." in again.stdout, again.output
    with emulator.client() as client:
        org = client.get("/v1/orgs/org_acme").json()
    assert (org["title"], org["hostname"]) == ("Acme", "acme")
    # Staging is as it was: one set of manifests, two organizations.
    unchanged = staging("plan", MANIFESTS, "--var-file", var_file("staging"), "--detailed-exitcode")
    assert unchanged.exit_code == 0, unchanged.output


def test_a_plan_without_its_variable_file_stops_at_the_first_variable(
    staging_and_production: EmulatorHandle,
) -> None:
    planned = docsync_for(staging_and_production, "production")("plan", MANIFESTS)
    assert planned.exit_code == 1
    assert "org.yaml:7:15: organization: template error: 'organization' is undefined" in (
        planned.output
    )

"""A visitor-auth site's publishing auth end to end against the emulator: a site made
visitor-auth gets its URLs in one apply, only written fields are managed, export plans empty,
the private key is never regenerated and never appears in any output, plan file or export."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.kit import (
    ORG,
    Docsync,
    EmulatorHandle,
    Write,
    apply,
    assert_converged,
    export_plans_empty,
    id_of,
    requests_between,
    site_part,
)

AUTH = "/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth"
#: what export names the variable of Partner Docs' fallback URL (a secret by declaration)
FALLBACK = "DOCSYNC_SITE_PARTNER_DOCS_PUBLISHINGAUTH_FALLBACKURL"
HEAD = """\
organization: org_acme
spaces:
  - {title: Guides}
sites:
  - title: Partner Docs
    visibility: visitor-auth
    siteSpaces: [{space: Guides, path: guides}]
"""


def live_auth(emulator: EmulatorHandle, title: str) -> dict[str, Any]:
    found: dict[str, Any] = site_part(emulator, title, "publishing/auth")
    return found


def test_publishing_auth_apply_converge_change_and_export(
    emulator: EmulatorHandle, docsync: Docsync, write: Write, tmp_path: Path
) -> None:
    manifest = write(
        "docs.yaml",
        HEAD + '    publishingAuth: {backend: custom, fallbackURL: "https://acme.example/login"}\n',
    )
    outputs = [apply(docsync, manifest)]
    outputs.append(assert_converged(docsync, manifest).output)
    first = live_auth(emulator, "Partner Docs")
    assert (first["backend"], first["fallbackURL"]) == ("custom", "https://acme.example/login")
    # The logout URL set by hand is not managed until written.
    site = id_of(emulator, "sites", "title", "Partner Docs")
    with emulator.client() as client:
        client.patch(
            f"{ORG}/sites/{site}/publishing/auth",
            json={"backend": "custom", "logoutURL": "https://acme.example/bye"},
        ).raise_for_status()
    outputs.append(assert_converged(docsync, manifest).output)
    manifest = write(
        "docs.yaml",
        HEAD
        + '    publishingAuth: {fallbackURL: "https://acme.example/signin", logoutURL: null}\n',
    )
    planned = docsync("plan", manifest, "--out", tmp_path / "plan.json")
    assert planned.exit_code == 0, planned.output
    assert 'update site["Partner Docs"].publishingAuth' in planned.stdout
    assert "publishingAuth.fallbackURL = (sensitive) (changed)" in planned.stdout
    outputs += [planned.output, docsync("plan", manifest, "--format", "json").output]
    before = emulator.stats()
    outputs.append(apply(docsync, manifest))
    written = requests_between(before, emulator.stats())
    assert written[f"PATCH {AUTH}"] == 1 and written[f"POST {AUTH}/regenerate"] == 0
    outputs.append(assert_converged(docsync, manifest).output)
    now = live_auth(emulator, "Partner Docs")
    assert now["fallbackURL"] == "https://acme.example/signin" and "logoutURL" not in now
    assert now["privateKey"] == first["privateKey"]
    # export writes the fallback URL as the env() template that reads it
    fallback = {FALLBACK: "https://acme.example/signin"}
    exported, sites = export_plans_empty(
        lambda *args: docsync(*args, env=fallback), tmp_path / "export", "sites.yaml"
    )
    outputs.append(exported.output)
    assert f"fallbackURL: '{{{{ env(''{FALLBACK}'') }}}}'" in sites
    assert "signin" not in sites
    files = [p.read_text(encoding="utf-8") for p in tmp_path.rglob("*") if p.is_file()]
    for blob in outputs + files:
        assert first["privateKey"] not in blob, f"the private key leaked: {blob[:200]}"


def test_a_site_made_visitor_auth_gets_its_auth_in_one_apply(
    emulator: EmulatorHandle, docsync: Docsync, write: Write
) -> None:
    public = HEAD.replace("visibility: visitor-auth", "visibility: public")
    apply(docsync, write("docs.yaml", public))
    manifest = write(
        "docs.yaml", HEAD + '    publishingAuth: {logoutURL: "https://acme.example/bye"}\n'
    )
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    assert live_auth(emulator, "Partner Docs")["logoutURL"] == "https://acme.example/bye"

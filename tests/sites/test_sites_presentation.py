"""A site's presentation as code, all of it at once against the emulator: a customization, two
redirects (one to a section, one external), two share links (one inactive) and visitor auth on
a second site apply in one run; the next plan is empty; the live state is the manifest's; export
then plans empty; and no share link's URL or private key is in any output, plan file or export."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from tests.kit import ORG, Docsync, EmulatorHandle, Write, apply, assert_converged, id_of, listed

MANIFEST = """\
organization: org_acme
spaces:
  - {title: Guides}
  - {title: Partner Guides}
sites:
  - title: Developer Docs
    visibility: share-link
    sections:
      - title: Guides
        siteSpaces: [{space: Guides, path: v2, default: true}]
    customization:
      styling: {theme: clean, primaryColor: {light: "#0B5FFF", dark: "#4C8DFF"}}
      trademark: {enabled: false}
    redirects:
      - source: /old-guides/*
        destination: {url: "https://docs.acme.example/guides"}
        permanent: true
      - {source: /start, destination: {section: Guides}}
    shareLinks:
      - {name: Partner preview}
      - {name: Agency, active: false}
  - title: Partner Docs
    visibility: visitor-auth
    siteSpaces: [{space: Partner Guides, path: partners}]
    publishingAuth: {backend: custom, fallbackURL: "https://acme.example/login"}
"""


def _get(emulator: EmulatorHandle, path: str) -> Any:
    with emulator.client() as client:
        answer = client.get(path)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_presentation_applies_converges_and_exports_without_secrets(
    emulator: EmulatorHandle, docsync: Docsync, write: Write, tmp_path: Path
) -> None:
    manifest = write("presentation.yaml", MANIFEST)
    planned = docsync("plan", manifest, "--out", tmp_path / "plan.json")
    assert planned.exit_code == 0, planned.output
    outputs = [planned.output, docsync("plan", manifest, "--format", "markdown").output]
    outputs.append(apply(docsync, manifest))
    outputs.append(assert_converged(docsync, manifest).output)
    docs = f"{ORG}/sites/{id_of(emulator, 'sites', 'title', 'Developer Docs')}"
    partners = f"{ORG}/sites/{id_of(emulator, 'sites', 'title', 'Partner Docs')}"
    look = _get(emulator, f"{docs}/customization")
    assert look["styling"]["primaryColor"] == {"light": "#0B5FFF", "dark": "#4C8DFF"}
    assert (look["styling"]["theme"], look["trademark"]) == ("clean", {"enabled": False})
    [guides] = listed(emulator, f"{docs}/sections")
    redirects = {r["source"]: r for r in listed(emulator, f"{docs}/redirects")}
    assert redirects["/old-guides/*"]["destination"] == {
        "kind": "external",
        "url": "https://docs.acme.example/guides",
    }
    assert redirects["/old-guides/*"]["permanent"] is True
    assert redirects["/start"]["destination"] == {
        "kind": "site-section",
        "siteSectionId": guides["id"],
    }
    links = listed(emulator, f"{docs}/share-links")
    assert sorted((link["name"], link["active"]) for link in links) == [
        ("Agency", False),
        ("Partner preview", True),
    ]
    auth = _get(emulator, f"{partners}/publishing/auth")
    assert (auth["backend"], auth["fallbackURL"]) == ("custom", "https://acme.example/login")
    exported = docsync("export", "--org", "org_acme", "--out", tmp_path / "export")
    assert exported.exit_code == 0, exported.output
    outputs.append(exported.output)
    fallback = {"DOCSYNC_SITE_PARTNER_DOCS_PUBLISHINGAUTH_FALLBACKURL": auth["fallbackURL"]}
    outputs.append(assert_converged(partial(docsync, env=fallback), tmp_path / "export").output)
    urls = [str(link["urls"]["published"]) for link in links]
    secrets = [*urls, *(url.rsplit("/", 1)[1] for url in urls), auth["privateKey"]]
    files = [p.read_text(encoding="utf-8") for p in tmp_path.rglob("*") if p.is_file()]
    assert len(files) >= 3
    for secret in secrets:
        for blob in outputs + files:
            assert secret not in blob, f"a secret leaked: {blob[:200]}"

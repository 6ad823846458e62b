"""No secret leaves docsync: the real console script runs validate, plan (every format, --out)
and apply (fresh and saved) with -vv on a manifest full of env() values, and every byte it
writes to stdout, stderr and files is scanned for them and for the API token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.gitops.conftest import TOKEN, reset

ORG = "/v1/orgs/org_acme"
DOCSYNC = str(Path(sys.executable).parent / "docsync")
SECRETS = {
    "SAML_CERT": "MIIC-secret-certificate-4f9b2d6e8a1c",
    "SAML_ENTITY": "http://idp.example/secret-entity-77e1",
    "SPEC_URL": "https://deploy:s3cr3t-p4ss@acme.example/openapi.yaml",
    "DEV_DESC": "secret-description-5c2e",
    "SECTION_DESC": "secret-section-text-9d04",
    "SITE_BASENAME": "secret-basename-1a7f",
    "AUTH_FALLBACK": "https://acme.example/secret-fallback-3b8e",
    "FOOTER_NOTICE": "secret-footer-notice-6c1d",
    "REDIRECT_URL": "https://acme.example/secret-redirect-8e2a",
    "SPACE_NOTICE": "secret-site-space-notice-2f7c",
    "MCP_TOKEN": "Bearer secret-mcp-token-5e9d",
    "DISCUSSIONS_TOKEN": "ghp-secret-discussions-token-3f7a",
    "GA_TRACKING": "G-secret-tracking-4e1a",
    "GA_SPACE_LABEL": "secret-space-label-7d3b",
}
MANIFEST = """\
organization: org_acme
saml:
  - label: Okta
    ssoURL: https://acme.okta.example/app/sso/saml
    entityID: "{{ env('SAML_ENTITY') }}"
    certificate: "{{ env('SAML_CERT') }}"
    defaultTeam: Platform
openapi:
  - slug: public-api
    source: {url: "{{ env('SPEC_URL') }}"}
integrations:
  - name: google-analytics
    configuration: {tracking_id: "{{ env('GA_TRACKING') }}"}
    sites: {Developer Docs: {configuration: {anonymize: true}}}
    spaces: {Guides: {configuration: {label: "{{ env('GA_SPACE_LABEL') }}"}}}
collections:
  - {title: Developers, description: "{{ env('DEV_DESC') }}"}
sites:
  - title: Developer Docs
    basename: "{{ env('SITE_BASENAME') }}"
    sections:
      - title: Guides
        path: guides
        description: "{{ env('SECTION_DESC') }}"
        siteSpaces:
          - space: Guides
            path: latest
            customization: {footer: {copyright: "{{ env('SPACE_NOTICE') }}"}}
    redirects:
      - {source: /partners, destination: {url: "{{ env('REDIRECT_URL') }}"}}
    shareLinks:
      - {name: Partner preview}
      - {name: Agency, active: false}
    mcpServers:
      - name: Billing
        url: https://mcp.acme.example/billing
        headers: {Authorization: "{{ env('MCP_TOKEN') }}", X-Team: platform}
    contextConnections:
      - label: Discussions
        connector: builtin:github-discussions
        setupSettings: {repository: acme/docs, token: "{{ env('DISCUSSIONS_TOKEN') }}"}
  - title: Partner Docs
    visibility: visitor-auth
    siteSpaces: [{space: Guides, path: partners}]
    publishingAuth: {backend: custom, fallbackURL: "{{ env('AUTH_FALLBACK') }}"}
    customization: {footer: {copyright: "{{ env('FOOTER_NOTICE') }}"}, trademark: {enabled: false}}
"""


def run(args: list[str], cwd: Path, url: str, **extra: str) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOCSYNC_")}
    env.update(SECRETS, DOCSYNC_API_URL=url, DOCSYNC_TOKEN=TOKEN, NO_COLOR="1", **extra)
    return subprocess.run(
        [DOCSYNC, *args], cwd=cwd, env=env, capture_output=True, timeout=60, check=False
    )


@pytest.mark.slow
def test_no_secret_in_any_output_or_file(emulator: EmulatorHandle, tmp_path: Path) -> None:
    reset(emulator)
    (tmp_path / "secrets.yaml").write_text(MANIFEST, "utf-8")
    url = emulator.url
    runs = [
        (["validate", "-vv", "secrets.yaml"], 0),
        (["plan", "-vv", "secrets.yaml"], 0),
        (["plan", "-vv", "secrets.yaml", "--format", "markdown"], 0),
        (["plan", "-vv", "secrets.yaml", "--format", "json", "--out", "first.json"], 0),
        (["apply", "-vv", "--plan", "first.json"], 0),
        (["plan", "-vv", "secrets.yaml", "--detailed-exitcode"], 0),
    ]
    outputs: list[bytes] = []
    for args, code in runs:
        done = run(args, tmp_path, url)
        assert done.returncode == code, (args, done.stdout, done.stderr)
        outputs += [done.stdout, done.stderr]
    # Now change every secret: plans show that they change, never what they are.
    rotated = {k: v + "-rotated" for k, v in SECRETS.items()}
    for args, code in [
        (["plan", "-vv", "secrets.yaml", "--out", "second.json", "--detailed-exitcode"], 2),
        (["plan", "-vv", "secrets.yaml", "--format", "markdown"], 0),
        (["plan", "-vv", "secrets.yaml", "--format", "json"], 0),
        (["apply", "-vv", "--plan", "second.json"], 0),
    ]:
        done = run(args, tmp_path, url, **rotated)
        assert done.returncode == code, (args, done.stdout, done.stderr)
        outputs += [done.stdout, done.stderr]
    # Refusals and failures print messages too: a stale plan, other env values.
    done = run(["apply", "-vv", "--plan", "second.json"], tmp_path, url)
    assert done.returncode == 1 and b"environment variables" in done.stderr
    outputs += [done.stdout, done.stderr]
    assert any(b"GET /v1/orgs" in out for out in outputs), "-vv logs the requests"
    assert any(b"(sensitive)" in out for out in outputs)
    files = [path.read_bytes() for path in tmp_path.iterdir() if path.name != "secrets.yaml"]
    assert len(files) == 2
    for secret in [*SECRETS.values(), *rotated.values(), TOKEN]:
        needle = secret.encode()
        for blob in outputs + files:
            assert needle not in blob, f"{secret!r} leaked"
        # The secret parts of the URL on their own, too.
    for blob in outputs + files:
        assert b"s3cr3t-p4ss" not in blob
    # Share links' URLs (and the keys in them) and the private key of a visitor-auth site are
    # secrets the API makes: no run shows one.
    with emulator.client() as client:
        sites = {s["title"]: s["id"] for s in client.get(f"{ORG}/sites").json()["items"]}
        docs, partners = (f"{ORG}/sites/{sites[t]}" for t in ("Developer Docs", "Partner Docs"))
        links = client.get(f"{docs}/share-links").json()["items"]
        key = client.get(f"{partners}/publishing/auth").json()["privateKey"]
        (installed,) = client.get(f"{ORG}/installations").json()["items"]
    # The integration's secret configuration was sent, and its rotation too.
    assert installed["installation"]["configuration"] == {"tracking_id": rotated["GA_TRACKING"]}
    assert len(links) == 2
    urls = [link["urls"]["published"] for link in links]
    for needle in [*urls, *(url.rsplit("/", 1)[1] for url in urls), key]:
        for blob in outputs + files:
            assert needle.encode() not in blob, f"{needle!r} leaked"

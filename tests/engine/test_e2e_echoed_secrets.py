"""A server error that repeats what the API holds never shows a secret docsync read: every value
a kind's declaration marks secret (a SAML certificate, a publishing auth's fallback URL, an MCP
server's headers), read from the live state, is masked in the client's messages as the secrets
it sends are, whichever kind read it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.emulator_harness import EmulatorHandle
from tests.kit import Write, apply_ok, cli_env, cli_for, invoke
from tests.tamper import on, tampering

#: what the organization holds after the first apply: docsync reads them, the second manifest
#: writes others, and the server's error repeats these
STORED = {
    "CERT": "MIIC-stored-certificate-read-back",
    "FALLBACK": "https://acme.example/login?key=stored-fallback-key",
    "HEADER": "Bearer stored-mcp-header-value",
}
WRITTEN = {
    "CERT": "MIIC-rotated-certificate-written",
    "FALLBACK": "https://acme.example/login?key=rotated-fallback-key",
    "HEADER": "Bearer rotated-mcp-header-value",
}

MANIFEST = """\
organization: org_acme
saml:
  - label: Okta
    ssoURL: https://acme.okta.example/app/sso/saml
    entityID: http://www.okta.example/exk1
    certificate: "{{ env('CERT') }}"
sites:
  - title: Partners
    visibility: visitor-auth
    publishingAuth: {backend: custom, fallbackURL: "{{ env('FALLBACK') }}"}
    mcpServers:
      - name: Billing
        url: https://mcp.acme.example
        headers: {Authorization: "{{ env('HEADER') }}"}
"""


def _echo_of_what_is_stored(_: bytes) -> tuple[int, bytes]:
    """A 400 whose message repeats the stored record, as a server's validation error may."""
    held = ", ".join(f"{name.lower()}={value}" for name, value in STORED.items())
    body = {"error": {"code": 400, "message": f"the record is invalid as stored: {held}"}}
    return 400, json.dumps(body).encode()


def test_a_server_error_repeating_stored_secrets_shows_none_of_them(
    emulator: EmulatorHandle, write: Write
) -> None:
    path: Path = write("org.yaml", MANIFEST)
    apply_ok(cli_for(emulator, **STORED), path)
    with tampering(emulator, on("PATCH", r"/orgs/org_acme/", _echo_of_what_is_stored)) as url:
        env = cli_env(emulator, DOCSYNC_API_URL=url, **WRITTEN)
        result = invoke(env, "apply", path, "--auto-approve")
    output = result.stdout + result.stderr
    assert result.exit_code == 1, output
    assert "the record is invalid as stored" in output, output
    shown = [value for value in [*STORED.values(), *WRITTEN.values()] if value in output]
    assert not shown, output
    assert "(sensitive)" in output, output

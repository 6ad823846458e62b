"""What the CLI prints: hints that hold, -v on every networked command, no noise."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import ACME, Run, run_process
from tests.emulator_harness import EmulatorHandle


def test_unmanaged_hint_does_not_offer_prune_for_members_and_spaces(
    cli: Run, tmp_path: Path
) -> None:
    manifest = tmp_path / "m.yaml"
    manifest.write_text("organization: org_acme\nmembers:\n  - {email: ada@acme.example}\n")
    result = cli("plan", manifest)
    assert result.exit_code == 0, result.output
    assert 'member["lin@acme.example"]' in result.stdout
    # Members and spaces are never pruned: telling the user to list them under prune: is wrong.
    assert "state: absent" in result.stdout


def test_export_verbose_reports_the_requests(emulator: EmulatorHandle) -> None:
    env = {"DOCSYNC_API_URL": emulator.url, "DOCSYNC_TOKEN": "tok_ada"}
    result = run_process("export", "--org", "org_acme", "-v", env=env)
    assert result.returncode == 0, result.stderr
    assert "requests (0 retries)" in result.stderr


def test_very_verbose_shows_docsync_requests_not_asyncio_noise(emulator: EmulatorHandle) -> None:
    env = {"DOCSYNC_API_URL": emulator.url, "DOCSYNC_TOKEN": "tok_ada"}
    result = run_process("plan", ACME, "-vv", env=env)
    assert result.returncode == 0, result.stderr
    assert "GET /v1/orgs" in result.stderr
    assert "selector" not in result.stderr
    assert "tok_ada" not in result.stdout + result.stderr

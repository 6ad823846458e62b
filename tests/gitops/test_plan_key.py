"""DOCSYNC_PLAN_KEY: CI plans with a read-only token and applies the reviewed plan with the apply
token, so the two jobs share a plan key instead of a token (the manifests' digest and the
secrets' markers are keyed by it)."""

from __future__ import annotations

from pathlib import Path

from tests.emulator_harness import EmulatorHandle
from tests.gitops.conftest import Cli, write

MANIFEST = """\
organization: org_acme
teams:
  - {title: Platform, members: [ada@acme.example]}
  - {title: Writers, members: [sam@acme.example]}
collections:
  - {title: Developers, description: "{{ env('DEV_DESC') }}"}
"""
#: a read-only member's token plans; the admin's applies
PLANNER = {"DOCSYNC_TOKEN": "tok_sam", "DOCSYNC_PLAN_KEY": "k-7f3a9c", "DEV_DESC": "from env"}
APPLIER = {**PLANNER, "DOCSYNC_TOKEN": "tok_ada"}


def test_a_plan_made_with_the_read_only_token_is_applied_with_the_apply_token(
    cli: Cli, acme: EmulatorHandle, in_tmp: Path
) -> None:
    write(in_tmp / "m.yaml", MANIFEST)
    planned = cli("plan", "m.yaml", "--out", "plan.json", env=PLANNER)
    assert planned.exit_code == 0, planned.output
    assert "k-7f3a9c" not in (in_tmp / "plan.json").read_text("utf-8")
    # The read-only token cannot write: the plan is applied by the other one.
    refused = cli("apply", "--plan", "plan.json", env=PLANNER)
    assert refused.exit_code == 1 and "403" in refused.output
    applied = cli("apply", "--plan", "plan.json", env=APPLIER)
    assert applied.exit_code == 0, applied.output
    assert "0 failed, 0 skipped" in applied.stdout
    assert cli("plan", "m.yaml", "--detailed-exitcode", env=APPLIER).exit_code == 0


def test_without_the_shared_plan_key_the_other_token_is_refused(
    cli: Cli, acme: EmulatorHandle, in_tmp: Path
) -> None:
    write(in_tmp / "m.yaml", MANIFEST)
    assert cli("plan", "m.yaml", "--out", "plan.json", env=PLANNER).exit_code == 0
    other_key = {**APPLIER, "DOCSYNC_PLAN_KEY": "k-another"}
    for env in (other_key, {k: v for k, v in APPLIER.items() if k != "DOCSYNC_PLAN_KEY"}):
        refused = cli("apply", "--plan", "plan.json", env=env)
        assert refused.exit_code == 1, refused.output
        assert "DOCSYNC_PLAN_KEY when set, else DOCSYNC_TOKEN" in refused.stderr
        assert "k-7f3a9c" not in refused.output and "k-another" not in refused.output

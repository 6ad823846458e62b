"""The Python API (docs/python-api.md) end to end against the emulator: a script loads
examples/acme, plans, applies and plans again (empty); errors are docsync's types: a manifest
mistake is ManifestError (located), a policy's deny is PolicyDenied, a plan made stale by a
change since is refused by apply (ApplyRefused) with nothing changed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import docsync
from tests.emulator_harness import EmulatorHandle
from tests.kit import CERT, ORG, REPO, TOKEN, Write, listed

ACME = REPO / "examples" / "acme"

SCRIPT = """
import json, sys
import docsync

url, token = sys.argv[1], sys.argv[2]
manifests = docsync.load(["examples/acme"], variables={"organization": "org_acme"})
plan = docsync.plan(manifests, api_url=url, token=token)
result = docsync.apply(plan, api_url=url, token=token)
again = docsync.plan(manifests, api_url=url, token=token)
print(json.dumps({
    "files": manifests.files,
    "has_changes": plan.has_changes,
    "summary": plan.summary,
    "first": plan.actions[0].key,
    "json_actions": len(json.loads(plan.to_json())["actions"]),
    "markdown": plan.to_markdown().splitlines()[0],
    "done": len(result.done), "failed": result.failed, "skipped": result.skipped,
    "ok": result.ok, "team_id": [o.id for o in result.done if o.address == 'team["Platform"]'],
    "again": again.has_changes, "again_actions": again.actions,
}))
"""


@pytest.mark.slow
def test_a_script_plans_applies_and_converges_the_acme_example(emulator: EmulatorHandle) -> None:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("DOCSYNC_")}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, emulator.url, TOKEN],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**environ, "SAML_CERT": CERT},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["files"] == [
        f"examples/acme/{n}.yaml" for n in ("content", "org", "sites", "teams")
    ]
    assert said["has_changes"] is True
    assert said["summary"] == "24 to create, 3 to update, 1 to reorder, 1 to publish, 0 to delete"
    assert said["first"] == 'create team["Platform"]'
    assert said["json_actions"] == said["done"] == 29
    assert said["markdown"] == "### docsync plan for Acme (org_acme)"
    assert (said["failed"], said["skipped"], said["ok"]) == ([], [], True)
    platform = {t["title"]: t["id"] for t in listed(emulator, f"{ORG}/teams")}["Platform"]
    assert said["team_id"] == [platform]
    assert (said["again"], said["again_actions"]) == (False, [])


def test_a_manifest_mistake_is_a_located_manifest_error(write: Write) -> None:
    path = write("m.yaml", "organization: org_acme\nteams:\n  - {title: A, colour: red}\n")
    with pytest.raises(docsync.ManifestError) as raised:
        docsync.load(path)
    (problem,) = raised.value.problems
    assert str(problem) == f"{path}:3:16: teams[0].colour: unknown field 'colour'"
    assert isinstance(raised.value, docsync.DocsyncError)


def test_a_deny_rule_raises_policy_denied(emulator: EmulatorHandle) -> None:
    manifests = docsync.load([ACME, REPO / "examples" / "policies"], environ={"SAML_CERT": CERT})
    with pytest.raises(docsync.PolicyDenied) as raised:
        docsync.plan(manifests, api_url=emulator.url, token=TOKEN)
    (violation,) = raised.value.violations
    assert (violation.rule, violation.action) == (
        "public-sites-reviewed",
        'create site["Developer Docs"]',
    )
    assert violation.location == f"{ACME}/sites.yaml:5:5"


def test_apply_refuses_a_plan_the_organization_moved_away_from(
    emulator: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    path = write("teams.yaml", "organization: org_acme\nteams:\n  - {title: Platform}\n")
    plan = docsync.plan(docsync.load(path), api_url=emulator.url, token=TOKEN)
    with emulator.client() as client:
        client.put(f"{ORG}/teams", json={"title": "Platform"}).raise_for_status()
    with pytest.raises(docsync.ApplyRefused, match="the organization changed since"):
        docsync.apply(plan, api_url=emulator.url, token=TOKEN)
    assert [t["title"] for t in listed(emulator, f"{ORG}/teams")] == ["Platform"]


def test_a_rotated_secret_is_sent_by_a_plan_made_with_resend_secrets(
    emulator: EmulatorHandle, write: Write
) -> None:
    path = write(
        "sources.yaml",
        "organization: org_acme\nsites:\n  - title: Docs\n    contextConnections:\n"
        "      - {label: Issues, connector: builtin:github-issues, setupSettings: "
        "{repository: acme/docs, token: \"{{ env('GH_TOKEN') }}\"}}\n",
    )
    loaded = docsync.load(path, environ={"GH_TOKEN": "first"})
    first = docsync.plan(loaded, api_url=emulator.url, token=TOKEN)
    assert docsync.apply(first, api_url=emulator.url, token=TOKEN).ok
    rotated = docsync.load(path, environ={"GH_TOKEN": "rotated"})
    assert not docsync.plan(rotated, api_url=emulator.url, token=TOKEN).has_changes
    plan = docsync.plan(rotated, api_url=emulator.url, token=TOKEN, resend_secrets=True)
    assert plan.summary == "0 to create, 1 to update, 0 to delete"
    assert docsync.apply(plan, api_url=emulator.url, token=TOKEN).ok
    (site,) = [s for s in listed(emulator, f"{ORG}/sites") if s["title"] == "Docs"]
    (held,) = listed(emulator, f"{ORG}/sites/{site['id']}/context-connections")
    assert emulator.stored("site-context-connection", held["id"])["setupSettings"] == {
        "repository": "acme/docs",
        "token": "rotated",
    }


def test_the_documented_errors_are_docsync_s_public_errors(emulator: EmulatorHandle) -> None:
    """docs/python-api.md's table of errors lists each error the Python API exports, and the
    functions raise none it does not list: a wrong token is `docsync.Unauthorized`, an empty
    API URL a `docsync.ConfigError` (the table had neither)."""
    text = (REPO / "docs" / "python-api.md").read_text("utf-8").split("## Errors", 1)[1]
    documented = set(re.findall(r"^\| `docsync\.(\w+)` \|", text, re.M))
    if "Every error is a `docsync.DocsyncError`" in text:
        documented.add("DocsyncError")
    exported = {
        name
        for name in docsync.__all__
        if isinstance(getattr(docsync, name), type)
        and issubclass(getattr(docsync, name), BaseException)
    }
    assert documented == exported
    manifests = docsync.load([ACME], variables={"organization": "org_acme"})
    with pytest.raises(docsync.Unauthorized):
        docsync.plan(manifests, api_url=emulator.url, token="tok_nobody")
    with pytest.raises(docsync.ConfigError, match=r"^api_url is empty"):
        docsync.plan(manifests, api_url="", token=TOKEN)

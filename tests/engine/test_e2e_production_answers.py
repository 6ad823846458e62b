"""Production as it answers (docs/emulator.md): what production sends beyond its document is
read, planned and exported, not refused. Against an emulator serving `--contract production`,
whose answers are checked against production's document with the observed behaviours
(`tests/contract/observed.py`) and nothing else forgiven."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from tests.contract.plugin import TALLY
from tests.emulator_harness import SEED, EmulatorHandle
from tests.kit import Write, cli_for, listed
from tests.tamper import on, tampering

#: a space synced from GitHub through the older integration, as production answers it
SYNCED = {
    "id": "space_api",
    "organization": "org_acme",
    "title": "API v3",
    "gitSync": {
        "installationProvider": "github",
        "integration": "github",
        "url": "https://github.com/acme/api-docs",
    },
}


def seeded(*spaces: dict[str, Any]) -> dict[str, Any]:
    seed: dict[str, Any] = yaml.safe_load(Path(SEED).read_text("utf-8"))
    seed["spaces"] = [*seed.get("spaces", []), *spaces]
    return seed


def test_a_space_synced_through_the_integration_is_read_planned_and_exported(
    production: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    production.reset(seeded(SYNCED))
    docsync = cli_for(production)
    with production.client() as client:
        answered = client.get("/v1/spaces/space_api").json()
    assert "installationId" not in answered["gitSync"]
    assert answered["urls"]["location"] == "/spaces/space_api"
    manifest = write(
        "content.yaml", "organization: org_acme\nspaces: [{title: API v3, emoji: '1f680'}]\n"
    )
    applied = docsync("apply", manifest, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert "synced with github through the github integration (legacy Git Sync" in applied.stdout
    out = tmp_path / "export"
    exported = docsync("export", "--org", "org_acme", "--out", out)
    assert exported.exit_code == 0, exported.output
    assert (
        'space["API v3"]: synced with github through the github integration (legacy Git Sync, '
        "not an installation): left as it is"
    ) in exported.stderr
    assert "gitSync" not in (out / "content.yaml").read_text("utf-8")
    planned = docsync("plan", out, "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output


def test_gitsync_written_on_a_space_synced_through_the_integration_is_refused_located(
    production: EmulatorHandle, write: Write
) -> None:
    production.reset(seeded(SYNCED))
    manifest = write(
        "content.yaml",
        "organization: org_acme\nspaces:\n  - title: API v3\n"
        "    gitSync: {provider: github, providerConfiguration: {repositoryId: 1}}\n",
    )
    planned = cli_for(production)("plan", manifest)
    assert planned.exit_code == 1, planned.output
    assert f"{manifest}:4:14: spaces[0].gitSync: this space is synced with github through an " in (
        planned.stderr
    )
    assert "leave `gitSync` out here" in planned.stderr
    assert production.stats()["requests"].get("POST /v1/git/installations") is None


CUSTOMIZED = """\
organization: org_acme
sites:
  - title: Docs
    customization:
      pdf: {enabled: false}
      git: {showEditLink: false}
      pageActions: {markdown: false, mcp: true}
"""


def test_production_customization_switches_are_manifest_keys(
    production: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    """`pdf`, `git.showEditLink` and the page actions' switches, which production answers and
    its document lacks: applied, planned empty, exported and planned empty again."""
    docsync = cli_for(production)
    manifest = write("sites.yaml", CUSTOMIZED)
    applied = docsync("apply", manifest, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    [site] = listed(production, "/v1/orgs/org_acme/sites")
    with production.client() as client:
        live = client.get(f"/v1/orgs/org_acme/sites/{site['id']}/customization").json()
    assert live["pdf"] == {"enabled": False} and live["git"] == {"showEditLink": False}
    assert live["pageActions"] == {"externalAI": True, "markdown": False, "mcp": True}
    assert docsync("plan", manifest, "--detailed-exitcode").exit_code == 0
    out = tmp_path / "export"
    assert docsync("export", "--org", "org_acme", "--out", out).exit_code == 0
    assert docsync("validate", out).exit_code == 0
    assert docsync("plan", out, "--detailed-exitcode").exit_code == 0


def test_a_customization_field_docsync_does_not_know_is_carried_never_exported(
    production: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    """Production answers a field docsync does not know: export leaves it out and says so, and
    an apply writes it back as it was read (the merge starts from the live object)."""
    docsync = cli_for(production)
    manifest = write("sites.yaml", CUSTOMIZED)
    assert docsync("apply", manifest, "--auto-approve").exit_code == 0

    def with_more(body: bytes) -> bytes:
        return json.dumps({**json.loads(body), "aiSearch": {"enabled": True}}).encode()

    with tampering(production, on("GET", r"/customization$", with_more)) as url:
        run = cli_for(production, DOCSYNC_API_URL=url)
        out = tmp_path / "export"
        exported = run("export", "--org", "org_acme", "--out", out)
        changed = write("sites.yaml", CUSTOMIZED.replace("markdown: false", "markdown: true"))
        applied = run("apply", changed, "--auto-approve", "-vv")
    assert exported.exit_code == 0, exported.output
    assert "aiSearch" not in (out / "sites.yaml").read_text("utf-8")
    assert "aiSearch: fields docsync does not know, left as they are" in exported.stderr
    assert applied.exit_code == 0, applied.output
    # the PUT carried what was read: production's own field, which its document lacks
    refused = TALLY.expected()
    assert refused and all(v.field == "aiSearch" for v in refused), refused


def test_a_move_resent_after_its_answer_was_lost_and_refused_409_is_done(
    production: EmulatorHandle, write: Write
) -> None:
    """The move is carried out and its answer lost; the resend finds nothing to change, which
    production answers 409: read back, the space is where it should be, so the move is done."""
    docsync = cli_for(production)
    content = "organization: org_acme\ncollections: [{title: Dev}]\nspaces: [{title: Guides}]\n"
    assert docsync("apply", write("content.yaml", content), "--auto-approve").exit_code == 0
    moved = write(
        "content.yaml",
        content.replace("{title: Guides}", "{title: Guides, collection: Dev, was: Guides}"),
    )
    production.set_faults(rules=[{"method": "POST", "path": "/move$", "drop": True, "count": 1}])
    applied = docsync("apply", moved, "--auto-approve")
    stats = production.stats()["requests"]
    production.set_faults()
    assert applied.exit_code == 0, applied.output
    assert "1 done, 0 failed, 0 skipped" in applied.stdout, applied.stdout
    assert sum(n for r, n in stats.items() if "move" in r) == 2, sorted(stats)
    assert docsync("plan", moved, "--detailed-exitcode").exit_code == 0


ROOT_SPACES = """\
organization: org_acme
spaces: [{title: Guides}, {title: Api}, {title: Changelog}]
sites:
  - title: Docs
    siteSpaces:
{items}"""


def _root_spaces(*paths: str) -> str:
    items = "".join(f"      - {{space: {p.capitalize()}, path: {p}}}\n" for p in paths)
    return ROOT_SPACES.replace("{items}", items)


def test_the_section_production_wraps_root_site_spaces_in_is_adopted(
    production: EmulatorHandle, write: Write
) -> None:
    """Production puts the site spaces of a site without sections in a section named after
    the site: the manifest's root site spaces are planned in it, converge in one apply, and the
    next plan is empty; added and reordered, they converge again."""
    docsync = cli_for(production)
    manifest = write("site.yaml", _root_spaces("guides", "api"))
    applied = docsync("apply", manifest, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    [site] = listed(production, "/v1/orgs/org_acme/sites")
    with production.client() as client:
        structure = client.get(f"/v1/orgs/org_acme/sites/{site['id']}/structure").json()
    [wrapper] = structure["structure"]
    assert structure["type"] == "sections" and wrapper["title"] == "Docs"
    assert [s["path"] for s in wrapper["siteSpaces"]] == ["guides", "api"]
    assert docsync("plan", manifest, "--detailed-exitcode").exit_code == 0
    changed = write("site.yaml", _root_spaces("changelog", "api", "guides"))
    again = docsync("apply", changed, "--auto-approve")
    assert again.exit_code == 0, again.output
    assert "0 to delete" in again.stdout and "- delete" not in again.stdout, again.stdout
    planned = docsync("plan", changed, "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output
    with production.client() as client:
        structure = client.get(f"/v1/orgs/org_acme/sites/{site['id']}/structure").json()
    [wrapper] = structure["structure"]
    assert [s["path"] for s in wrapper["siteSpaces"]] == ["changelog", "api", "guides"]


def test_a_site_renamed_renames_the_section_production_wrapped_its_root_site_spaces_in(
    production: EmulatorHandle, write: Write
) -> None:
    """Production names its wrapper section after the site when it makes it and keeps that
    title when the site is renamed: the plan's rename says it renames the section too, the
    apply does (a saved plan as well), and the next plan is empty instead of deleting the
    section to make its site spaces again."""
    docsync = cli_for(production)
    applied = docsync("apply", write("site.yaml", _root_spaces("guides", "api")), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    renamed = _root_spaces("guides", "api").replace("title: Docs", "title: Handbook\n    was: Docs")
    manifest = write("site.yaml", renamed)
    saved = manifest.parent / "plan.json"
    planned = docsync("plan", manifest, "--out", saved)
    assert planned.exit_code == 0, planned.output
    assert "is renamed with it" in planned.stdout and "- delete" not in planned.stdout
    again = docsync("apply", "--plan", saved)
    assert again.exit_code == 0 and "1 done, 0 failed" in again.stdout, again.output
    [site] = listed(production, "/v1/orgs/org_acme/sites")
    with production.client() as client:
        structure = client.get(f"/v1/orgs/org_acme/sites/{site['id']}/structure").json()
    [wrapper] = structure["structure"]
    assert site["title"] == wrapper["title"] == "Handbook"
    assert [s["path"] for s in wrapper["siteSpaces"]] == ["guides", "api"]
    settled = docsync("plan", manifest, "--detailed-exitcode")
    assert settled.exit_code == 0, settled.output
    dropped = write("site.yaml", _root_spaces("guides", "api").replace("Docs", "Handbook"))
    assert docsync("plan", dropped, "--detailed-exitcode").exit_code == 0

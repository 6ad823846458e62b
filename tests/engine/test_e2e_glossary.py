"""The translations glossary end to end, against both contracts: three terms applied from a saved
plan, the next plan empty; changed and shrunk in one batch request of the fewest operations;
exported, and the export plans empty."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.kit import (
    ORG,
    EmulatorHandle,
    Write,
    apply,
    assert_converged,
    cli_for,
    export_plans_empty,
    listed,
    requests_between,
)

GLOSSARY = "/v1/orgs/{organizationId}/translations-glossary"
FIRST = """\
organization: org_acme
translationsGlossary:
  keyLanguage: en
  entries:
    - {en: Workspace, fr: Espace de travail, de: Arbeitsbereich}
    - {en: Site, fr: Site, de: Website}
    - {en: Change request, fr: Demande de modification}
"""
CHANGED = """\
organization: org_acme
translationsGlossary:
  keyLanguage: en
  entries:
    - {en: Workspace, fr: Espace de travail, de: Arbeitsbereich}
    - {en: Site, fr: Site web, de: Website}
    - {en: Space, fr: Espace}
"""


def live(emulator: EmulatorHandle) -> dict[str, dict[str, str]]:
    """The glossary as the API holds it: each entry's terms, by its English one."""
    entries = [item["translations"] for item in listed(emulator, f"{ORG}/translations-glossary")]
    return {entry["en"]: entry for entry in entries}


def test_a_glossary_applies_from_a_saved_plan_changes_in_one_batch_and_exports(
    either_contract: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    docsync = cli_for(either_contract)
    manifest = write("glossary.yaml", FIRST)
    saved = tmp_path / "plan.json"
    planned = docsync("plan", manifest, "--out", saved)
    assert planned.exit_code == 0, planned.output
    assert "~ update translationsGlossary" in planned.stdout
    before = either_contract.stats()
    applied = docsync("apply", "--plan", saved, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert requests_between(before, either_contract.stats())[f"PUT {GLOSSARY}"] == 1
    assert_converged(docsync, manifest)
    assert set(live(either_contract)) == {"Workspace", "Site", "Change request"}

    # One term changes, one goes, one comes: one batch of an update, a delete and an insert.
    manifest = write("glossary.yaml", CHANGED)
    planned = docsync("plan", manifest)
    assert '- entries["Change request"]:' in planned.stdout
    assert "+ entries.Space:" in planned.stdout
    assert '~ entries.Site.fr: "Site" -> "Site web"' in planned.stdout
    assert 'LOSS: deletes 1 entry ("Change request")' in planned.stdout
    assert "update translationsGlossary (destructive)" in planned.stdout.split("careful look")[1]
    assert "Workspace" not in planned.stdout  # unchanged: not shown
    before = either_contract.stats()
    apply(docsync, manifest)
    written = requests_between(before, either_contract.stats())
    assert written[f"PUT {GLOSSARY}"] == 1
    assert_converged(docsync, manifest)
    now = live(either_contract)
    assert set(now) == {"Workspace", "Site", "Space"}
    assert now["Site"]["fr"] == "Site web"

    _, content = export_plans_empty(docsync, tmp_path / "export", "content.yaml")
    exported = yaml.safe_load(content)["translationsGlossary"]
    assert exported["keyLanguage"] == "en"
    assert [e["en"] for e in exported["entries"]] == ["Site", "Space", "Workspace"]

"""Localized navigation, drafts and what readers see, end to end against both contracts: a site
of sections in a group, localized titles and descriptions on sections, the group and a link,
site spaces with their own title, hidden, in draft and with a home page. Applied from a saved
plan, the next plan empty; a German title changed and a Spanish one added as one line a
language, in one PATCH; a language the manifest does not write kept; a language written null
removed; exported, and the export plans empty."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from tests.kit import (
    ORG,
    EmulatorHandle,
    Write,
    apply,
    assert_converged,
    cli_for,
    export_plans_empty,
    id_of,
    requests_between,
    site_part,
)

SECTION = "PATCH /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}"
GROUP = "PATCH /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}"
SPACES = """\
organization: org_acme
spaces:
  - {title: Guides EN}
  - {title: Guides DE}
  - {title: API}
"""
FIRST = (
    SPACES
    + """\
sites:
  - title: Docs
    sections:
      - title: Guides
        localizedTitle: {de: Anleitungen, fr: Guides}
        localizedDescription: {de: Konzepte und Tutorials}
        draft: false
        siteSpaces:
          - {space: Guides EN, path: en, default: true, pageId: page-start}
          - {space: Guides DE, path: de, title: Deutsch, hidden: true}
      - title: API
        draft: true
        siteSpaces: [{space: API, path: api, draft: true}]
    sectionGroups:
      - {title: Products, localizedTitle: {de: Produkte, fr: Produits}, sections: [Guides]}
    externalLinks:
      - title: Status
        url: https://status.acme.example
        localizedTitle: {de: Statusseite}
        localizedDescription: {de: Betriebsstatus}
        draft: true
"""
)
#: the German title changed, a Spanish one added, French not written (kept); the group's French
#: title written null (removed); the site space shown, live, with the space's first page
CHANGED = (
    FIRST.replace(
        "localizedTitle: {de: Anleitungen, fr: Guides}",
        "localizedTitle: {de: Leitfäden, es: Guías}",
    )
    .replace("localizedTitle: {de: Produkte, fr: Produits}", "localizedTitle: {fr: null}")
    .replace("title: Deutsch, hidden: true}", "title: Deutsch, hidden: false}")
)


def structure(emulator: EmulatorHandle) -> dict[str, Any]:
    """The site's structure read, by title: every section, group and link, and each site space
    by path."""
    found: dict[str, Any] = {}
    for item in site_part(emulator, "Docs", "structure")["structure"]:
        found[item["title"]] = item
        for inner in item.get("children") or []:
            found[inner["title"]] = inner
    for section in [i for i in found.values() if i["object"] == "site-section"]:
        for site_space in section["siteSpaces"]:
            found[site_space["path"]] = site_space
    return found


def test_localized_navigation_and_drafts_apply_change_by_language_and_export(
    either_contract: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    docsync = cli_for(either_contract)
    manifest = write("site.yaml", FIRST)
    saved = tmp_path / "plan.json"
    planned = docsync("plan", manifest, "--out", saved)
    assert planned.exit_code == 0, planned.output
    applied = docsync("apply", "--plan", saved, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert_converged(docsync, manifest)
    live = structure(either_contract)
    assert live["Guides"]["localizedTitle"] == {"de": "Anleitungen", "fr": "Guides"}
    assert live["Guides"]["localizedDescription"] == {"de": "Konzepte und Tutorials"}
    assert (live["Guides"]["draft"], live["API"]["draft"]) == (False, True)
    assert live["Products"]["localizedTitle"] == {"de": "Produkte", "fr": "Produits"}
    assert live["Status"]["localizedTitle"] == {"de": "Statusseite"}
    assert live["Status"]["localizedDescription"] == {"de": "Betriebsstatus"}
    assert live["Status"]["draft"] is True
    assert (live["de"]["title"], live["de"]["hidden"]) == ("Deutsch", True)
    assert live["en"]["pageId"] == "page-start"
    assert live["api"]["draft"] is True

    # Another hand sets an Italian title: no manifest writes Italian, so it stays.
    section = id_of(either_contract, "sites", "title", "Docs")
    sections = f"{ORG}/sites/{section}/sections"
    with either_contract.client() as client:
        guides = live["Guides"]["id"]
        titles = {**live["Guides"]["localizedTitle"], "it": "Guide"}
        client.patch(f"{sections}/{guides}", json={"localizedTitle": titles}).raise_for_status()
    assert_converged(docsync, manifest)

    manifest = write("site.yaml", CHANGED)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    out = planned.stdout
    assert '~ localizedTitle.de = "Anleitungen" -> "Leitfäden"' in out, out
    assert '~ localizedTitle.es = null -> "Guías"' in out, out
    assert '~ localizedTitle.fr = "Produits" -> null' in out, out
    assert "~ hidden" in out and "true -> false" in out, out
    assert "localizedTitle.it" not in out and 'localizedTitle.de = "Produkte"' not in out
    before = either_contract.stats()
    apply(docsync, manifest)
    written = requests_between(before, either_contract.stats())
    assert (written[SECTION], written[GROUP]) == (1, 1), written
    assert_converged(docsync, manifest)
    live = structure(either_contract)
    assert live["Guides"]["localizedTitle"] == {
        "de": "Leitfäden",
        "fr": "Guides",
        "it": "Guide",
        "es": "Guías",
    }
    assert live["Products"]["localizedTitle"] == {"de": "Produkte"}
    assert live["de"]["hidden"] is False

    _, sites = export_plans_empty(docsync, tmp_path / "export", "sites.yaml")
    site = yaml.safe_load(sites)["sites"][0]
    exported = {s["title"]: s for s in site["sections"]}
    assert exported["Guides"]["localizedTitle"]["it"] == "Guide"
    assert exported["API"]["draft"] is True and "draft" not in exported["Guides"]
    by_path = {ss["path"]: ss for s in site["sections"] for ss in s["siteSpaces"]}
    assert by_path["de"]["title"] == "Deutsch" and "hidden" not in by_path["de"]
    assert "title" not in by_path["en"] and by_path["en"]["pageId"] == "page-start"
    assert site["sectionGroups"][0]["localizedTitle"] == {"de": "Produkte"}
    assert site["externalLinks"][0]["draft"] is True


def test_a_site_space_title_production_cannot_change_is_a_located_problem(
    docsync: Any, write: Write
) -> None:
    manifest = write("site.yaml", FIRST)
    apply(docsync, manifest)
    renamed = write("site.yaml", FIRST.replace("title: Deutsch", "title: German"))
    planned = docsync("plan", renamed)
    assert planned.exit_code == 1
    assert "site.yaml:15:" in planned.output, planned.output
    assert "cannot change a site space's title once it is made" in planned.output
    assert "'Deutsch'" in planned.output

    first = FIRST.replace(
        "siteSpaces: [{space: API, path: api, draft: true}]",
        "siteSpaces: [{space: API, path: api, title: Reference}]",
    )
    new = write("site.yaml", first.replace("title: API\n", "title: Reference\n"))
    planned = docsync("plan", new)
    assert planned.exit_code == 1
    assert "the first site space of a new section is made by the section's create" in (
        planned.output
    )

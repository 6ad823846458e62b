"""A site space's customization override end to end against the emulator: applied with the site
space it belongs to (created in the same run), converged, shown field by field at its path, a
field written null falling back to the site's value, `customization: null` removing the override,
and export planning empty."""

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
    cli_for,
    id_of,
    requests_between,
    site_part,
)

OVERRIDE = "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization"
HEAD = """\
organization: org_acme
spaces:
  - {title: Guides}
  - {title: Guides v1}
sites:
  - title: Developer Docs
    customization:
      styling: {theme: bold}
    sections:
      - title: Guides
        siteSpaces:
          - {space: Guides, path: latest}
          - space: Guides v1
            path: v1
"""
FIRST = HEAD + (
    '            customization: {styling: {theme: muted, primaryColor: {light: "#0B5FFF"}}, '
    "trademark: {enabled: false}}\n"
)
CHANGED = HEAD + (
    '            customization: {styling: {theme: null, primaryColor: {light: "#0B5FFF"}}, '
    "trademark: {enabled: false}}\n"
)
REMOVED = HEAD + "            customization: null\n"


def site_space_customization(emulator: EmulatorHandle, path: str) -> dict[str, Any]:
    spaces = site_part(emulator, "Developer Docs", "site-spaces")["items"]
    [space] = [s for s in spaces if s["path"] == path]
    found: dict[str, Any] = site_part(
        emulator, "Developer Docs", f"site-spaces/{space['id']}/customization"
    )
    return found


def test_site_space_override_apply_change_remove_and_export(
    emulator: EmulatorHandle, docsync: Docsync, write: Write, tmp_path: Path
) -> None:
    manifest = write("docs.yaml", FIRST)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    where = 'site["Developer Docs"].section["Guides"].site_space["v1"].customization'
    assert f"update {where}" in planned.stdout, planned.stdout
    apply(docsync, manifest)
    before = emulator.stats()
    assert_converged(docsync, manifest)
    # Read only for the site space whose entry writes it (not `latest`).
    assert requests_between(before, emulator.stats())[f"GET {OVERRIDE}"] == 1
    v1 = site_space_customization(emulator, "v1")
    assert v1["styling"]["theme"] == "muted"
    assert v1["styling"]["primaryColor"] == {"light": "#0B5FFF", "dark": "#346DDB"}
    assert v1["trademark"] == {"enabled": False}
    latest = site_space_customization(emulator, "latest")
    assert latest["styling"]["theme"] == "bold"  # the site's, not overridden
    assert latest["trademark"] == {"enabled": True}

    # null on a field unsets its override: the site's value shows again.
    manifest = write("docs.yaml", CHANGED)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    assert 'customization.styling.theme: "muted" -> "bold"' in planned.stdout, planned.stdout
    assert "primaryColor" not in planned.stdout and "trademark" not in planned.stdout
    before = emulator.stats()
    apply(docsync, manifest)
    assert requests_between(before, emulator.stats())[f"PATCH {OVERRIDE}"] == 1
    assert_converged(docsync, manifest)
    assert site_space_customization(emulator, "v1")["styling"]["theme"] == "bold"

    # Export writes the override (where the site space differs from its site).
    before = emulator.stats()
    exported = docsync("export", "--org", "org_acme", "--out", tmp_path / "export")
    assert exported.exit_code == 0, exported.output
    assert requests_between(before, emulator.stats())[f"GET {OVERRIDE}"] == 2  # every one
    sites = (tmp_path / "export" / "sites.yaml").read_text(encoding="utf-8")
    assert sites.count("customization:") == 2 and "'#0B5FFF'" in sites, sites
    assert_converged(docsync, tmp_path / "export")

    # customization: null removes the override.
    manifest = write("docs.yaml", REMOVED)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    assert f"update {where}" in planned.stdout, planned.stdout
    before = emulator.stats()
    apply(docsync, manifest)
    assert requests_between(before, emulator.stats())[f"DELETE {OVERRIDE}"] == 1
    assert_converged(docsync, manifest)
    v1 = site_space_customization(emulator, "v1")
    assert v1["styling"]["primaryColor"] == {"light": "#346DDB", "dark": "#346DDB"}
    assert v1["trademark"] == {"enabled": True}
    site = id_of(emulator, "sites", "title", "Developer Docs")
    with emulator.client() as client:
        live = client.get(f"{ORG}/sites/{site}/customization").json()
    assert {k: v for k, v in v1.items() if k != "updatedAt"} == {
        k: v for k, v in live.items() if k != "updatedAt"
    }


GROUPED = "    sectionGroups:\n      - {title: Learn, sections: [Guides]}\n"


def test_an_override_in_a_grouped_section_is_read_removed_and_exported(
    either_contract: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    """The structure read shows a group's sections twice (`sections` and `children`): the
    override is read where the live tree is built, so it converges, `null` removes it and
    export writes it, whatever group the section stands in."""
    docsync = cli_for(either_contract)
    manifest = write("docs.yaml", FIRST.replace("    sections:\n", GROUPED + "    sections:\n"))
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    exported = docsync("export", "--org", "org_acme", "--out", tmp_path / "export")
    assert exported.exit_code == 0, exported.output
    assert "'#0B5FFF'" in (tmp_path / "export" / "sites.yaml").read_text(encoding="utf-8")
    assert_converged(docsync, tmp_path / "export")
    removed = write("docs.yaml", REMOVED.replace("    sections:\n", GROUPED + "    sections:\n"))
    planned = docsync("plan", removed)
    assert 'site_space["v1"].customization' in planned.stdout, planned.stdout
    apply(docsync, removed)
    assert_converged(docsync, removed)


GROUPED_WITH_A_LINK = """\
organization: org_acme
spaces: [{title: Guides}, {title: Guides v1}]
sites:
  - title: Developer Docs
    customization: {styling: {theme: clean}}
    sections:
      - title: Guides
        siteSpaces:
          - {space: Guides, path: latest}
          - {space: Guides v1, path: v1, customization: {styling: {theme: muted}}}
    sectionGroups:
      - {title: Learn, sections: [Guides]}
    externalLinks:
      - {title: Forum, url: "https://forum.acme.example", group: Learn}
"""


def test_an_override_in_a_group_that_holds_a_link_is_read_where_the_plan_looks(
    docsync: Docsync, write: Write
) -> None:
    """A group's structure lists its sections twice (`sections`, and `children` with its
    links): the override read is carried by both copies, so the next plan sees it."""
    manifest = write("grouped.yaml", GROUPED_WITH_A_LINK)
    apply(docsync, manifest)
    assert_converged(docsync, manifest)


def test_an_override_moved_to_a_new_path_is_read_where_the_plan_matches_it(
    docsync: Docsync, write: Write
) -> None:
    """A site space written at a new path takes the live one publishing its space (the plan's
    `matched_by`): its override is read there too, so `customization: null` removes it in the
    same apply (it was compared with the site's settings, and the next plan removed it)."""
    apply(docsync, write("docs.yaml", FIRST))
    moved = FIRST.split("          - {space: Guides, path: latest}\n")
    manifest = write(
        "docs.yaml",
        moved[0].replace("          - space: Guides v1\n            path: v1\n", "")
        + "          - {space: Guides, path: latest}\n"
        + "          - {space: Guides v1, path: older, customization: null}\n",
    )
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    assert "customization.trademark.enabled: false -> true" in planned.stdout, planned.stdout
    apply(docsync, manifest)
    assert_converged(docsync, manifest)


def test_an_override_in_a_section_renamed_with_was_is_read_under_its_old_title(
    docsync: Docsync, write: Write
) -> None:
    """A section renamed with `was:` holds its live site spaces under its old title: their
    overrides are read there, so `customization: null` removes one in the same apply (the
    section's site spaces were compared with nothing, and the next plan removed it)."""
    apply(docsync, write("docs.yaml", FIRST))
    renamed = REMOVED.replace(
        "      - title: Guides\n", "      - title: Handbook\n        was: Guides\n"
    )
    manifest = write("docs.yaml", renamed)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    assert "customization.trademark.enabled: false -> true" in planned.stdout, planned.stdout
    apply(docsync, manifest)
    assert_converged(docsync, manifest)

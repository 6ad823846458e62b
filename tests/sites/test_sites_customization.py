"""A site's customization end to end against the emulator: the written fields applied and
converged, fields not written left as they are (a change made in the app survives), the plan
showing each changed field at its path, one PUT of the whole object, and export planning empty."""

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
    export_plans_empty,
    id_of,
    requests_between,
    site_part,
)

CUSTOMIZATION = "/v1/orgs/{organizationId}/sites/{siteId}/customization"
HEAD = """\
organization: org_acme
spaces:
  - {title: Guides}
sites:
  - title: Developer Docs
    siteSpaces: [{space: Guides, path: guides}]
    customization:
      trademark: {enabled: false}
"""
FIRST = HEAD + '      styling: {theme: bold, primaryColor: {light: "#0B5FFF", dark: "#4C8DFF"}}\n'
CHANGED = HEAD + '      styling: {theme: bold, primaryColor: {light: "#123456", dark: "#4C8DFF"}}\n'


def live_customization(emulator: EmulatorHandle, title: str) -> dict[str, Any]:
    found: dict[str, Any] = site_part(emulator, title, "customization")
    return found


def test_customization_apply_converge_change_and_export(
    emulator: EmulatorHandle, docsync: Docsync, write: Write, tmp_path: Path
) -> None:
    manifest = write("docs.yaml", FIRST)
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    first = live_customization(emulator, "Developer Docs")
    assert first["styling"]["theme"] == "bold"
    assert first["styling"]["primaryColor"] == {"light": "#0B5FFF", "dark": "#4C8DFF"}
    assert first["trademark"] == {"enabled": False}
    assert first["styling"]["corners"] == "rounded"  # production's default, not written
    # A field changed in the app that the manifest does not write stays as it is.
    site = id_of(emulator, "sites", "title", "Developer Docs")
    by_hand = {k: v for k, v in first.items() if k != "updatedAt"} | {"feedback": {"enabled": True}}
    with emulator.client() as client:
        client.put(f"{ORG}/sites/{site}/customization", json=by_hand).raise_for_status()
    assert_converged(docsync, manifest)
    manifest = write("docs.yaml", CHANGED)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    assert 'update site["Developer Docs"].customization' in planned.stdout
    assert 'customization.styling.primaryColor.light: "#0B5FFF" -> "#123456"' in planned.stdout, (
        planned.stdout
    )
    assert "dark" not in planned.stdout and "trademark" not in planned.stdout
    before = emulator.stats()
    apply(docsync, manifest)
    written = requests_between(before, emulator.stats())
    assert written[f"PUT {CUSTOMIZATION}"] == 1
    assert_converged(docsync, manifest)
    now = live_customization(emulator, "Developer Docs")
    assert now["styling"]["primaryColor"] == {"light": "#123456", "dark": "#4C8DFF"}
    assert now["feedback"] == {"enabled": True}
    _, sites = export_plans_empty(docsync, tmp_path / "export", "sites.yaml")
    assert "customization:" in sites and "'#123456'" in sites

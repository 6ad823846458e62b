"""A site's share links end to end against the emulator: apply, converge, read back, change,
export, and no link's URL in any output, plan file or export."""

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
    listed,
    requests_between,
)

SHARE_LINKS = "/v1/orgs/{organizationId}/sites/{siteId}/share-links"
HEAD = """\
organization: org_acme
spaces:
  - {title: Guides}
sites:
  - title: Developer Docs
    siteSpaces: [{space: Guides, path: guides}]
"""
FIRST = """\
    shareLinks:
      - {name: Partner preview}
      - {name: Agency, active: false}
"""
CHANGED = """\
    shareLinks:
      - {name: Partner preview, active: false}
      - {name: Reviewers}
"""


def live_links(emulator: EmulatorHandle, title: str) -> list[dict[str, Any]]:
    """The site's share links as the API holds them, URLs included."""
    site = id_of(emulator, "sites", "title", title)
    return listed(emulator, f"{ORG}/sites/{site}/share-links")


def secrets_of(links: list[dict[str, Any]]) -> list[str]:
    """Each link's URL and the key at its end."""
    urls = [str(link["urls"]["published"]) for link in links]
    return urls + [url.rsplit("/", 1)[1] for url in urls]


def test_share_links_apply_converge_change_and_export(
    emulator: EmulatorHandle, docsync: Docsync, write: Write, tmp_path: Path
) -> None:
    manifest = write("docs.yaml", HEAD + FIRST)
    outputs = [apply(docsync, manifest)]
    outputs.append(assert_converged(docsync, manifest).output)
    first = live_links(emulator, "Developer Docs")
    assert sorted((link["name"], link["active"]) for link in first) == [
        ("Agency", False),
        ("Partner preview", True),
    ]
    # Deactivate one, delete one, add one: one apply converges and keeps the kept link's URL.
    manifest = write("docs.yaml", HEAD + CHANGED)
    planned = docsync("plan", manifest, "--out", tmp_path / "plan.json")
    assert planned.exit_code == 0, planned.output
    assert 'update site["Developer Docs"].shareLinks' in planned.stdout
    assert '- shareLinks[name="Agency"]' in planned.stdout
    assert '+ shareLinks[name="Reviewers"]' in planned.stdout
    assert 'shareLinks[name="Partner preview"].active: true -> false' in planned.stdout
    outputs += [planned.output, docsync("plan", manifest, "--format", "json").output]
    before = emulator.stats()
    outputs.append(apply(docsync, manifest, "-vv"))
    written = requests_between(before, emulator.stats())
    assert written[f"POST {SHARE_LINKS}"] == 1
    assert written[f"PATCH {SHARE_LINKS}/{{shareLinkId}}"] == 1
    assert written[f"DELETE {SHARE_LINKS}/{{shareLinkId}}"] == 1
    outputs.append(assert_converged(docsync, manifest).output)
    now = live_links(emulator, "Developer Docs")
    assert sorted((link["name"], link["active"]) for link in now) == [
        ("Partner preview", False),
        ("Reviewers", True),
    ]
    kept = next(link for link in first if link["name"] == "Partner preview")
    assert kept["urls"] == next(link for link in now if link["id"] == kept["id"])["urls"]
    exported, sites = export_plans_empty(docsync, tmp_path / "export", "sites.yaml")
    outputs.append(exported.output)
    assert "name: Reviewers" in sites and "active: false" in sites
    files = [p.read_text(encoding="utf-8") for p in tmp_path.rglob("*") if p.is_file()]
    for secret in secrets_of(first + now):
        for blob in outputs + files:
            assert secret not in blob, f"a share link's URL leaked: {blob[:200]}"


def test_share_links_not_written_are_neither_read_nor_touched(
    emulator: EmulatorHandle, docsync: Docsync, write: Write
) -> None:
    apply(docsync, write("docs.yaml", HEAD + FIRST))
    before = emulator.stats()
    assert_converged(docsync, write("docs.yaml", HEAD))
    assert requests_between(before, emulator.stats())[f"GET {SHARE_LINKS}"] == 0
    assert len(live_links(emulator, "Developer Docs")) == 2

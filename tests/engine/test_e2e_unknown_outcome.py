"""Writes whose answer is lost after the server carried them out: one apply still converges,
and nothing is made twice. Each rule drops the answer of the first matching write."""

from __future__ import annotations

from typing import Any

from tests.emulator_harness import EmulatorHandle
from tests.engine.conftest import Docsync, Write, apply_ok, assert_converged, listed
from tests.engine.faultkit import ORG, duplicates

SITES = """\
organization: org_acme
teams: [{title: Platform}]
spaces: [{title: Guides}, {title: Runbooks}, {title: API Reference}]
sites:
  - title: Docs
    sections:
      - title: Guides
        siteSpaces: [{space: Guides, path: latest}, {space: Runbooks, path: ops}]
      - title: API
        siteSpaces: [{space: API Reference, path: reference}]
    sectionGroups:
      - {title: Learn, sections: [Guides]}
  - title: Handbook
    siteSpaces: [{space: Internal Handbook, path: handbook}]
"""

# The second apply: a site space goes, a section joins the group, a section is renamed.
CHANGED = """\
organization: org_acme
teams: [{title: Platform}]
spaces: [{title: Guides}, {title: Runbooks}, {title: API Reference}]
sites:
  - title: Docs
    sections:
      - title: Guides
        siteSpaces: [{space: Guides, path: latest}]
      - title: API
        siteSpaces: [{space: API Reference, path: api-reference}]
    sectionGroups:
      - {title: Learn, sections: [Guides, API]}
  - title: Handbook
    siteSpaces: [{space: Internal Handbook, path: handbook}]
"""


def drop(method: str, path: str, count: int = 1) -> dict[str, Any]:
    return {"method": method, "path": path, "drop": True, "count": count}


def test_creates_of_every_kind_adopted_after_a_lost_answer(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    path = write("sites.yaml", SITES)
    rules = [
        drop("PUT", "/teams$"),
        drop("POST", "/spaces$"),
        drop("POST", "/sites$"),
        drop("POST", "/sites/[^/]+/sections$"),
        drop("POST", "/site-spaces$", 2),
        drop("POST", "/section-groups$"),
        drop("PATCH", "/site-spaces/[^/]+$"),
    ]
    emulator.set_faults(rules=rules)
    result = apply_ok(docsync, path)
    assert emulator.stats()["faults"].get("drop") == 8, result.output
    assert "0 failed" in result.stdout
    emulator.set_faults()
    assert_converged(docsync, path)
    assert duplicates(emulator) == []


def test_deletes_updates_and_group_adds_after_a_lost_answer(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    apply_ok(docsync, write("sites.yaml", SITES))
    rules = [
        drop("DELETE", "/site-spaces/[^/]+$"),
        drop("PATCH", "/site-spaces/[^/]+$"),
        drop("PATCH", "/sections/[^/]+$"),  # a section into its group: siteSectionGroupId
    ]
    emulator.set_faults(rules=rules)
    changed = write("sites.yaml", CHANGED)
    result = apply_ok(docsync, changed)
    assert emulator.stats()["faults"].get("drop") == 3, result.output
    emulator.set_faults()
    assert_converged(docsync, changed)
    assert duplicates(emulator) == []


def test_a_section_left_at_the_path_the_api_chose_is_adopted(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    """As after a crash between a section's create and its site space's path change."""
    head = "organization: org_acme\nspaces: [{title: Guides}]\nsites:\n  - title: Docs\n"
    apply_ok(docsync, write("site.yaml", head))
    (site,) = [s["id"] for s in listed(emulator, f"{ORG}/sites") if s["title"] == "Docs"]
    (space,) = [s["id"] for s in listed(emulator, f"{ORG}/spaces") if s["title"] == "Guides"]
    with emulator.client() as client:
        made = client.post(f"{ORG}/sites/{site}/sections", json={"spaceId": space, "title": "Gs"})
    assert made.status_code == 201, made.text
    assert made.json()["siteSpaces"][0]["path"] != "latest"
    wanted = write(
        "site.yaml",
        head + "    sections:\n      - title: Gs\n"
        "        siteSpaces: [{space: Guides, path: latest}]\n",
    )
    planned = docsync("plan", wanted)
    assert "Plan: 0 to create, 1 to update, 0 to delete." in planned.stdout, planned.output
    apply_ok(docsync, wanted)
    assert_converged(docsync, wanted)

"""A site's external links end to end against the emulator: created, placed among the sections
where the manifest writes them, changed, moved and deleted in one apply each, and exported."""

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

LINKS = "/v1/orgs/{organizationId}/sites/{siteId}/external-links"
SORT = "PATCH /v1/orgs/{organizationId}/sites/{siteId}/structure/sort"
HEAD = """\
organization: org_acme
spaces:
  - {title: Guides}
  - {title: Reference}
sites:
  - title: Developer Docs
    sections:
      - {title: Guides, siteSpaces: [{space: Guides, path: guides}]}
      - {title: Reference, siteSpaces: [{space: Reference, path: reference}]}
"""
FIRST = """\
    externalLinks:
      - {title: Status, url: "https://status.acme.example", after: Guides}
      - {title: Home, url: "https://acme.example", description: The company site}
"""
CHANGED = """\
    externalLinks:
      - {title: Blog, url: "https://blog.acme.example", after: Guides}
      - {title: Status, url: "https://status.acme.example/now", after: Reference}
"""


def root(emulator: EmulatorHandle, title: str) -> list[tuple[str, str]]:
    """The site's root level as the API shows it: (object, title) in order."""
    items: list[dict[str, Any]] = site_part(emulator, title, "structure")["structure"]
    return [(str(i["object"]), str(i["title"])) for i in items]


def test_links_apply_in_place_move_change_and_export(
    emulator: EmulatorHandle, docsync: Docsync, write: Write, tmp_path: Path
) -> None:
    manifest = write("docs.yaml", HEAD + FIRST)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    assert 'create site["Developer Docs"].external_link["Status"]' in planned.stdout
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    link, section = "site-external-link", "site-section"
    assert root(emulator, "Developer Docs") == [
        (link, "Home"),
        (section, "Guides"),
        (link, "Status"),
        (section, "Reference"),
    ]
    # Home goes, Status changes and moves to the end, Blog comes after Guides: one apply.
    manifest = write("docs.yaml", HEAD + CHANGED)
    planned = docsync("plan", manifest, "--format", "markdown")
    assert planned.exit_code == 0, planned.output
    assert 'link "Status" -> https://status.acme.example/now' in planned.stdout
    before = emulator.stats()
    apply(docsync, manifest)
    written = requests_between(before, emulator.stats())
    assert written[f"POST {LINKS}"] == 1
    assert written[f"PATCH {LINKS}/{{siteExternalLinkId}}"] == 1
    assert written[f"DELETE {LINKS}/{{siteExternalLinkId}}"] == 1
    assert written[SORT] <= 2  # Blog after Guides, Status after Reference
    assert_converged(docsync, manifest)
    assert root(emulator, "Developer Docs") == [
        (section, "Guides"),
        (link, "Blog"),
        (section, "Reference"),
        (link, "Status"),
    ]
    _, sites = export_plans_empty(docsync, tmp_path / "export", "sites.yaml")
    assert "externalLinks:" in sites and "after: Reference" in sites


def test_links_not_written_stay_while_sections_move(
    emulator: EmulatorHandle, docsync: Docsync, write: Write
) -> None:
    apply(docsync, write("docs.yaml", HEAD + FIRST))
    guides = "      - {title: Guides, siteSpaces: [{space: Guides, path: guides}]}\n"
    swapped = HEAD.replace(guides, "") + guides  # Reference first, links not written
    manifest = write("docs.yaml", swapped)
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    order = [title for _, title in root(emulator, "Developer Docs")]
    assert sorted(order) == ["Guides", "Home", "Reference", "Status"]
    assert order.index("Reference") < order.index("Guides")


def test_a_link_create_whose_answer_is_lost_is_adopted_not_duplicated(
    emulator: EmulatorHandle, docsync: Docsync, write: Write
) -> None:
    manifest = write("docs.yaml", HEAD + FIRST)
    rule = {"method": "POST", "path": "/external-links$", "drop": True, "count": 1}
    emulator.set_faults(rules=[rule])
    before = emulator.stats()
    apply(docsync, manifest)
    assert emulator.stats()["faults"].get("drop") == 1
    emulator.set_faults()
    # Status (its answer lost, then found in one structure read) and Home: never sent twice.
    assert requests_between(before, emulator.stats())[f"POST {LINKS}"] == 2
    assert_converged(docsync, manifest)
    titles = [title for _, title in root(emulator, "Developer Docs")]
    assert titles == ["Home", "Guides", "Status", "Reference"]


def test_a_new_site_with_a_link_among_new_sections_applies_in_one_go(
    docsync: Docsync, write: Write
) -> None:
    """The link waits for the sections even when they wait longer (their space, in a new
    collection, comes first): one apply, one at a time as with any parallelism."""
    manifest = write(
        "docs.yaml",
        """\
organization: org_acme
collections: [{title: Dev}]
spaces: [{title: Guides, collection: Dev}]
sites:
  - title: Docs
    sections: [{title: Guides, path: guides, siteSpaces: [{space: Guides, path: latest}]}]
    externalLinks: [{title: Status page, url: "https://status.acme.example", after: Guides}]
""",
    )
    applied = docsync("apply", manifest, "--auto-approve", "--parallelism", "1")
    assert applied.exit_code == 0, applied.output
    assert_converged(docsync, manifest)


GROUPED_HEAD = (
    HEAD
    + """\
    sectionGroups:
      - {title: More, sections: [Reference]}
"""
)
IN_GROUP = """\
    externalLinks:
      - {title: Home, url: "https://acme.example", after: Guides, icon: house}
      - title: Status
        url: "https://status.acme.example"
        group: More
        after: Reference
        condition: visitor.claims.beta
"""


def group_children(emulator: EmulatorHandle, title: str) -> list[tuple[str, str]]:
    """The children of the site's one group as the API shows them: (object, title) in order."""
    site = id_of(emulator, "sites", "title", "Developer Docs")
    with emulator.client() as client:
        response = client.get(f"{ORG}/sites/{site}/structure")
    response.raise_for_status()
    (group,) = [i for i in response.json()["structure"] if i["title"] == title]
    return [(str(c["object"]), str(c["title"])) for c in group["children"]]


def test_links_in_a_group_apply_move_in_and_out_and_export(
    emulator: EmulatorHandle, docsync: Docsync, write: Write, tmp_path: Path
) -> None:
    manifest = write("docs.yaml", GROUPED_HEAD + IN_GROUP)
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    link, section = "site-external-link", "site-section"
    assert root(emulator, "Developer Docs") == [
        (section, "Guides"),
        (link, "Home"),
        ("site-section-group", "More"),
    ]
    assert group_children(emulator, "More") == [(section, "Reference"), (link, "Status")]
    # Home moves into the group, first: one PATCH of its parent, one sort inside the group.
    into = IN_GROUP.replace("after: Guides, icon: house", "group: More, icon: null")
    manifest = write("docs.yaml", GROUPED_HEAD + into)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    assert '~ group = null -> site["Developer Docs"].section_group["More"]' in planned.stdout
    before = emulator.stats()
    apply(docsync, manifest)
    written = requests_between(before, emulator.stats())
    assert written[f"PATCH {LINKS}/{{siteExternalLinkId}}"] == 1
    assert written.get(f"POST {LINKS}", 0) == 0
    assert written[SORT] == 1
    assert_converged(docsync, manifest)
    assert group_children(emulator, "More") == [
        (link, "Home"),
        (section, "Reference"),
        (link, "Status"),
    ]
    _, sites = export_plans_empty(docsync, tmp_path / "export", "sites.yaml")
    assert "group: More" in sites and "after: Reference" in sites
    # And back to the root, after Guides.
    manifest = write("docs.yaml", GROUPED_HEAD + IN_GROUP)
    before = emulator.stats()
    apply(docsync, manifest)
    written = requests_between(before, emulator.stats())
    assert written[f"PATCH {LINKS}/{{siteExternalLinkId}}"] == 1
    assert_converged(docsync, manifest)
    assert root(emulator, "Developer Docs")[1] == (link, "Home")
    assert group_children(emulator, "More") == [(section, "Reference"), (link, "Status")]


def test_links_go_with_the_sections_when_the_site_takes_root_site_spaces(
    emulator: EmulatorHandle, docsync: Docsync, write: Write
) -> None:
    """A site rewritten with `siteSpaces` at its root: its links (at the root and in a group)
    are of the old layout and go with its sections and groups. They stayed, and the API refused
    the first root site space of a site that still had them (one apply failed, every time)."""
    apply(docsync, write("docs.yaml", GROUPED_HEAD + IN_GROUP))
    flat = HEAD.split("    sections:")[0] + "    siteSpaces: [{space: Guides, path: guides}]\n"
    manifest = write("docs.yaml", flat)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    for link in ("Home", "Status"):
        assert f'delete site["Developer Docs"].external_link["{link}"]' in planned.stdout
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    assert root(emulator, "Developer Docs") == [("site-space", "Guides")]

"""Regressions of the site kinds: each test drives the CLI against the emulator and failed
before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.kit import (
    Docsync,
    Write,
    apply,
    converged,
    export_plans_empty,
    id_of,
    listed,
    site_part,
)
from tests.sites.kit import ORG, SitesRun, changed, site_of

SCHEMA = """    adaptiveSchema:
      type: object
      additionalProperties: false
      properties:
        customer: {type: boolean, description: A paying customer}
"""


def test_adaptive_schema_null_is_refused_not_a_perpetual_diff(
    docsync: Docsync, write: Write, emulator: EmulatorHandle
) -> None:
    """The API cannot remove a site's adaptive schema (GET and PUT only): `adaptiveSchema: null`
    planned an update that did nothing, forever."""
    site = "organization: org_acme\nsites:\n  - title: Docs\n"
    path = write("a.yaml", site + SCHEMA)
    apply(docsync, path)
    converged(docsync, path)
    result = docsync("plan", write("b.yaml", site + "    adaptiveSchema: null\n"))
    assert result.exit_code == 1, result.output
    assert "adaptiveSchema" in result.output and "cannot be removed" in result.output


def test_pinned_site_takes_the_title_of_another_site(
    docsync: Docsync, write: Write, emulator: EmulatorHandle
) -> None:
    """Site Ay (pinned) is renamed to the title of site Bee, which the manifest prunes. The
    structure read went to Bee (first title match), so Ay's live tree looked empty and the plan
    created Ay's sections again: the API refused the duplicate paths."""
    one = """organization: org_acme
sites:
  - title: Bee
  - title: Ay
    sections:
      - title: Guides
        path: guides
        siteSpaces: [{space: Internal Handbook, path: v1}]
"""
    apply(docsync, write("a.yaml", one))
    site_a = id_of(emulator, "sites", "title", "Ay")
    two = one.replace("  - title: Bee\n", "").replace("title: Ay", f"title: Bee\n    id: {site_a}")
    path = write("b.yaml", "prune: [sites]\n" + two)
    result = docsync("plan", path)
    assert result.exit_code == 0, result.output
    assert "+ create" not in result.stdout, result.output
    out = apply(docsync, path, "--force")
    assert "0 to create, 1 to update, 1 to delete" in out
    converged(docsync, path)


def test_pruning_the_default_site_without_settings_is_a_plan_problem(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    """The organization's defaultContent names a site that `prune: [sites]` would delete: the
    plan says so instead of the apply failing half-way on the API's 409."""
    first = write(
        "one.yaml",
        "organization: org_acme\nsettings: {defaultContent: {site: Old}}\n"
        "sites: [{title: Old}, {title: Kept}]\n",
    )
    apply(docsync, first)
    second = write("two.yaml", "organization: org_acme\nprune: [sites]\nsites: [{title: Kept}]\n")
    result = docsync("plan", second)
    assert result.exit_code == 1, result.output
    assert 'site["Old"] cannot be deleted: settings still refers to it' in result.stderr


def test_a_section_title_that_changes_hands_applies_in_order(sites: SitesRun) -> None:
    """Guides is renamed (pinned) to API, the title of a section the manifest drops, and takes
    its path; a new Guides takes Guides' path and a site space at the path the rename drops.
    One address named a live item that goes and an entry that comes, twice: the plan was
    refused with a dependency cycle. Now the deletes go first, and the API accepts the order."""
    spaces = [{"title": "Guides"}, {"title": "Runbooks"}]
    first = {
        "organization": "org_acme",
        "spaces": spaces,
        "sites": [
            {
                "title": "Docs",
                "sections": [
                    {
                        "title": "Guides",
                        "path": "guides",
                        "siteSpaces": [
                            {"space": "Guides", "path": "v1"},
                            {"space": "Runbooks", "path": "v2"},
                        ],
                    },
                    {
                        "title": "API",
                        "path": "api",
                        "siteSpaces": [{"space": "Runbooks", "path": "v1"}],
                    },
                ],
            }
        ],
    }
    sites.apply(first)
    guides = next(s for s in sites.structure("Docs")["structure"] if s["title"] == "Guides")
    second = changed(first)
    site_of(second, "Docs")["sections"] = [
        {
            "id": guides["id"],
            "title": "API",
            "path": "api",
            "siteSpaces": [{"space": "Runbooks", "path": "v2"}],
        },
        {"title": "Guides", "path": "guides", "siteSpaces": [{"space": "Guides", "path": "v1"}]},
    ]
    sites.apply(second)
    site = changed(site_of(second, "Docs"))
    del site["sections"][0]["id"]
    sites.assert_structure(site)
    renamed = next(s for s in sites.structure("Docs")["structure"] if s["title"] == "API")
    assert renamed["id"] == guides["id"], "the pinned section is renamed, not made anew"
    sites.assert_converged(second)


def test_deleting_a_space_a_site_publishes_is_a_located_problem_when_no_site_is_written(
    docsync: Docsync, write: Write, emulator: EmulatorHandle
) -> None:
    """The API deletes a space a site publishes and leaves the site pointing at it. Sites were
    not read when the manifest writes none, so the plan deleted it: now every site's structure
    is read for a plan that deletes a space, and the delete is refused where it is written."""
    one = """organization: org_acme
spaces: [{title: Going}]
sites:
  - title: Docs
    sections:
      - title: Guides
        path: guides
        siteSpaces: [{space: Going, path: v1}]
"""
    apply(docsync, write("a.yaml", one))
    path = write("b.yaml", "organization: org_acme\nspaces: [{title: Going, state: absent}]\n")
    result = docsync("plan", path)
    assert result.exit_code == 1, result.output
    assert (
        f'{path}:2:10: space["Going"] cannot be deleted: '
        'site["Docs"].section["Guides"].site_space["v1"] still refers to it (id '
    ) in result.stderr
    assert 'write site["Docs"]\'s structure without it, or delete site["Docs"]' in result.stderr
    fixed = "    sections:\n      - title: Guides\n        path: guides\n"
    fixed += "        siteSpaces: [{space: Internal Handbook, path: v2}]\n"
    both = write("c.yaml", path.read_text() + "sites:\n  - title: Docs\n" + fixed)
    apply(docsync, both)
    converged(docsync, both)


def test_a_space_goes_with_the_site_that_publishes_it_in_one_plan(
    docsync: Docsync, write: Write
) -> None:
    """The site's delete takes its site spaces: the space it published may go in the same plan,
    after it."""
    one = """organization: org_acme
spaces: [{title: Going}]
sites:
  - title: Docs
    siteSpaces: [{space: Going, path: v1}]
"""
    apply(docsync, write("a.yaml", one))
    gone = "organization: org_acme\nspaces: [{title: Going, state: absent}]\n"
    gone += "sites: [{title: Docs, state: absent}]\n"
    both = write("b.yaml", gone)
    apply(docsync, both)
    converged(docsync, both)


def test_two_live_sections_sharing_a_title_are_both_deleted_each_by_its_own_action(
    docsync: Docsync, write: Write, emulator: EmulatorHandle
) -> None:
    """The API lets two sections of a site share a title; when the manifest drops that title,
    each one's delete is its own action (its address carries its id), and both go."""
    site = """organization: org_acme
spaces: [{title: Kept}, {title: Other}]
sites:
  - title: Docs
    sections:
      - {title: Guides, path: guides, siteSpaces: [{space: Kept, path: v1}]}
"""
    path = write("a.yaml", site + "      - {title: Twin, siteSpaces: [{space: Other, path: v1}]}\n")
    apply(docsync, path)
    docs = id_of(emulator, "sites", "title", "Docs")
    other = id_of(emulator, "spaces", "title", "Other")
    with emulator.client() as client:
        made = client.post(f"{ORG}/sites/{docs}/sections", json={"spaceId": other, "title": "Twin"})
    made.raise_for_status()
    result = docsync("plan", write("b.yaml", site))
    assert result.exit_code == 0, result.output
    twin = 'site["Docs"].section["Twin"]'
    actions = result.stdout.split("\nNeeds a careful look")[0]  # each delete listed there too
    deletes = [line for line in actions.splitlines() if f"delete {twin}(id " in line]
    assert len(deletes) == 2, result.output
    assert f"{twin}(id {made.json()['id']})" in result.stdout
    out = apply(docsync, write("b.yaml", site))
    assert "2 to delete" in out, out
    converged(docsync, write("b.yaml", site))


BOX = """organization: org_acme
collections: [{title: Box}]
spaces: [{title: Going, collection: Box}, {title: Other, collection: Box}, {title: Stays}]
sites:
  - title: Docs
    sections:
      - {title: Guides, path: guides, siteSpaces: [{space: Going, path: v1}]}
      - {title: Kept, path: kept, siteSpaces: [{space: Stays, path: v1}]}
"""
#: Box deleted with its spaces (the emulator, like a careful API, refuses a collection that
#: still holds live spaces: 409)
BOX_GONE = """organization: org_acme
collections: [{title: Box, state: absent}]
spaces:
  - {title: Going, collection: Box, state: absent}
  - {title: Other, collection: Box, state: absent}
"""


@pytest.mark.parametrize("site", ["structure without it", "deleted"])
def test_a_collection_whose_space_a_site_publishes_goes_only_with_that_site_space(
    docsync: Docsync, write: Write, emulator: EmulatorHandle, site: str
) -> None:
    """Deleting a collection means deleting its spaces first, in the same plan; one a site
    publishes is refused, located, until the site's structure drops it or the site goes too.
    Then the collection goes after its spaces, and the next plan, whose entries still name the
    collection they deleted with it, is empty."""
    apply(docsync, write("a.yaml", BOX))
    alone = write("b.yaml", "organization: org_acme\ncollections: [{title: Box, state: absent}]\n")
    result = docsync("plan", alone)
    assert result.exit_code == 1, result.output
    assert f'{alone}:2:15: collection["Box"] cannot be deleted: space["Box/Going"]' in result.stderr
    published = write("c.yaml", BOX_GONE)
    result = docsync("plan", published)
    assert result.exit_code == 1, result.output
    assert (
        f'{published}:4:5: space["Box/Going"] cannot be deleted: '
        'site["Docs"].section["Guides"].site_space["v1"] still refers to it'
    ) in result.stderr
    assert 'space["Box/Other"] cannot be deleted' not in result.stderr
    if site == "deleted":
        text = BOX_GONE + "sites: [{title: Docs, state: absent}]\n"
    else:
        text = BOX_GONE + "sites:\n  - title: Docs\n    sections:\n" + BOX.splitlines(True)[-1]
    both = write("d.yaml", text)
    apply(docsync, both)
    converged(docsync, both)
    assert "Box" not in {c["title"] for c in listed(emulator, f"{ORG}/collections")}
    spaces = {s["title"] for s in listed(emulator, f"{ORG}/spaces")}
    assert "Stays" in spaces and not {"Going", "Other"} & spaces


def test_an_empty_group_stays_where_it_stands_and_its_export_plans_empty(
    docsync: Docsync, write: Write, emulator: EmulatorHandle, tmp_path: Path
) -> None:
    """A group left empty before another section (its only section gone while the manifest
    did not write groups) could not be exported: an empty group was always planned last, so
    the export's plan moved it. It now stays where it stands; a new one still goes last."""
    head = "organization: org_acme\nsites:\n  - title: Docs\n    sections:\n"
    guides = "      - {title: Guides, siteSpaces: [{space: Internal Handbook, path: g}]}\n"
    ops = "      - {title: Ops, siteSpaces: [{space: Internal Handbook, path: o}]}\n"
    learn = "    sectionGroups: [{title: Learn, sections: [Guides]}]\n"
    apply(docsync, write("a.yaml", head + guides + learn))
    apply(docsync, write("b.yaml", head + ops))  # Guides goes: Learn stays first, empty
    export_plans_empty(docsync, tmp_path / "export", "sites.yaml")
    groups = "    sectionGroups: [{title: Learn, sections: []}, {title: More, sections: []}]\n"
    both = write("c.yaml", head + ops + groups)
    apply(docsync, both)
    converged(docsync, both)
    root = site_part(emulator, "Docs", "structure")["structure"]
    assert [item["title"] for item in root] == ["Learn", "Ops", "More"]

"""One change at a time to the two-site example: each applies, then plans empty, and the live
structure is exactly what the changed manifest asks for."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kit import progress_lines
from tests.sites.kit import SITE, SORT, Doc, SitesRun, changed, load, site_of

DOCS = "Developer Docs"


def built(sites: SitesRun) -> Doc:
    manifest = load("two-sites.yaml")
    sites.apply(manifest)
    return manifest


def section(site: Doc, title: str) -> Doc:
    found: Doc = next(s for s in site["sections"] if s["title"] == title)
    return found


def live_section(sites: SitesRun, title: str, site: str = DOCS) -> Doc:
    structure = sites.structure(site)["structure"]
    every = [s for item in structure for s in item.get("sections", [item])]
    found: Doc = next(s for s in every if s["title"] == title)
    return found


def converge(sites: SitesRun, manifest: Doc) -> Any:
    """Apply, plan empty, structure of every site == manifest; returns the apply's result."""
    result = sites.apply(manifest)
    sites.assert_converged(manifest)
    for site in manifest["sites"]:
        sites.assert_structure(site)
    return result


def test_reorder_sections_and_site_spaces(sites: SitesRun) -> None:
    manifest = changed(built(sites))
    docs = site_of(manifest, DOCS)
    start, api, ops, notes = docs["sections"]
    docs["sections"] = [notes, api, start, ops]  # API before Getting Started inside Learn
    api["siteSpaces"].reverse()
    handbook = site_of(manifest, "Handbook")
    handbook["siteSpaces"] = handbook["siteSpaces"][1:] + handbook["siteSpaces"][:1]
    plan = sites.plan(manifest)
    assert plan.exit_code == 2, plan.output
    assert "reorder" in plan.stdout and "create" not in plan.stdout.split("Plan:")[0]
    before = sites.stats()
    converge(sites, manifest)
    # Root [Learn, Run, Release Notes] -> [Release Notes, Learn, Run]: 1 move; in Learn: 1;
    # API's [reference, sdk, internal] reversed: 2; Handbook's rotation: 1.
    assert sites.stats()[SORT] - before[SORT] == 5


def test_move_a_section_to_another_group(sites: SitesRun) -> None:
    manifest = changed(built(sites))
    docs = site_of(manifest, DOCS)
    moved_id = live_section(sites, "API")["id"]
    learn, run = docs["sectionGroups"]
    learn["sections"] = ["Getting Started"]
    run["sections"] = ["API", "Operations"]
    before = sites.stats()
    converge(sites, manifest)
    assert live_section(sites, "API")["id"] == moved_id
    writes = {k: n for k, n in (sites.stats() - before).items() if not k.startswith("GET")}
    # Production's way, one PATCH of the section's siteSectionGroupId (in last), then one move
    # ahead of Operations; no membership endpoint of the description, no stop at the root.
    assert writes == {f"PATCH {SITE}/sections/{{siteSectionId}}": 1, SORT: 1}, writes


def test_swap_the_space_behind_a_site_space_is_an_update(sites: SitesRun) -> None:
    manifest = changed(built(sites))
    old = live_section(sites, "API")["siteSpaces"][0]
    section(site_of(manifest, DOCS), "API")["siteSpaces"][0]["space"] = "Changelog"
    plan = sites.plan(manifest)
    assert "0 to create, 1 to update, 0 to delete" in plan.stdout, plan.output
    assert 'update site["Developer Docs"].section["API"].site_space["reference"]' in plan.stdout
    converge(sites, manifest)
    new = live_section(sites, "API")["siteSpaces"][0]
    assert new["id"] == old["id"] and new["space"]["title"] == "Changelog"
    assert new["path"] == old["path"] == "reference"


def test_rename_a_section_through_a_pinned_id(sites: SitesRun) -> None:
    manifest = changed(built(sites))
    ops_id = live_section(sites, "Operations")["id"]
    docs = site_of(manifest, DOCS)
    ops = section(docs, "Operations")
    ops |= {"id": ops_id, "title": "Operations Center"}
    docs["sectionGroups"][1]["sections"] = ["Operations Center"]
    plan = sites.plan(manifest)
    assert "0 to create, 1 to update, 0 to delete" in plan.stdout, plan.output
    assert '# was site["Developer Docs"].section["Operations"]' in plan.stdout
    converge(sites, manifest)
    renamed = live_section(sites, "Operations Center")
    assert renamed["id"] == ops_id and len(renamed["siteSpaces"]) == 2


def test_remove_a_section_deletes_it_with_its_site_spaces(sites: SitesRun) -> None:
    manifest = changed(built(sites))
    docs = site_of(manifest, DOCS)
    docs["sections"] = [s for s in docs["sections"] if s["title"] != "API"]
    docs["sectionGroups"][0]["sections"] = ["Getting Started"]
    plan = sites.plan(manifest)
    assert "0 to create, 0 to update, 1 to delete" in plan.stdout, plan.output
    assert 'delete site["Developer Docs"].section["API"]' in plan.stdout
    converge(sites, manifest)


def test_change_defaults(sites: SitesRun) -> None:
    manifest = changed(built(sites))
    docs = site_of(manifest, DOCS)
    section(docs, "Getting Started")["default"] = False
    api = section(docs, "API")
    api["default"] = True
    api["siteSpaces"][0]["default"] = True  # reference, instead of sdk
    del api["siteSpaces"][1]["default"]
    handbook = site_of(manifest, "Handbook")
    handbook["siteSpaces"][0]["default"] = True  # handbook, instead of guides
    del handbook["siteSpaces"][1]["default"]
    converge(sites, manifest)
    assert live_section(sites, "API")["default"] is True
    assert live_section(sites, "Getting Started")["default"] is False


def test_unpublish_is_flagged_as_an_audience_change(sites: SitesRun) -> None:
    manifest = changed(built(sites))
    site_of(manifest, DOCS)["published"] = False
    plan = sites.plan(manifest)
    assert 'unpublish site["Developer Docs"]' in plan.stdout, plan.output
    assert "AUDIENCE CHANGE" in plan.stdout
    converge(sites, manifest)
    assert sites.site(DOCS)["published"] is False


def test_visibility_to_share_link_is_flagged(sites: SitesRun) -> None:
    manifest = changed(built(sites))
    site_of(manifest, DOCS)["visibility"] = "share-link"
    plan = sites.plan(manifest)
    assert '~ visibility = "public" -> "share-link"' in plan.stdout, plan.output
    assert "AUDIENCE CHANGE" in plan.stdout
    converge(sites, manifest)
    assert sites.site(DOCS)["visibility"] == "share-link"
    site_of(manifest, DOCS)["visibility"] = "unlisted"
    plan = sites.plan(manifest)
    assert "AUDIENCE CHANGE" not in plan.stdout, plan.output


def test_proxy_null_removes_the_proxy(sites: SitesRun) -> None:
    manifest = changed(built(sites))
    site_of(manifest, DOCS)["proxy"] = None
    plan = sites.plan(manifest)
    assert "0 to create, 1 to update, 0 to delete" in plan.stdout, plan.output
    converge(sites, manifest)
    assert "proxy" not in sites.site(DOCS)


def test_condition_null_removes_and_absent_leaves_alone(sites: SitesRun) -> None:
    manifest = changed(built(sites))
    docs = site_of(manifest, DOCS)
    section(docs, "Operations")["condition"] = None
    del section(docs, "API")["siteSpaces"][2]["condition"]
    plan = sites.plan(manifest)
    assert "0 to create, 1 to update, 0 to delete" in plan.stdout, plan.output
    converge(sites, manifest)
    assert "condition" not in live_section(sites, "Operations")
    internal = live_section(sites, "API")["siteSpaces"][2]
    assert internal["condition"] == "visitor.claims.customer"


def test_a_section_takes_the_path_of_a_removed_one(sites: SitesRun) -> None:
    manifest = changed(built(sites))
    docs = site_of(manifest, DOCS)
    docs["sections"] = [s for s in docs["sections"] if s["title"] != "Release Notes"]
    section(docs, "Getting Started")["path"] = "releases"
    result = converge(sites, manifest)
    done = [line.split("  (")[0].split(None, 1)[1] for line in progress_lines(result)]
    # The delete frees the path first; deletes otherwise wait for everything else.
    assert done == [
        'delete site["Developer Docs"].section["Release Notes"]',
        'update site["Developer Docs"].section["Getting Started"]',
    ]


@pytest.mark.parametrize(
    "paths",
    [
        {"Getting Started": "api", "API": "start"},
        {"Getting Started": "ops", "API": "start", "Operations": "api"},
    ],
)
def test_sections_hand_their_paths_round(sites: SitesRun, paths: dict[str, str]) -> None:
    manifest = changed(built(sites))
    docs = site_of(manifest, DOCS)
    ids = {title: live_section(sites, title)["id"] for title in paths}
    for title, path in paths.items():
        section(docs, title)["path"] = path
    plan = sites.plan(manifest)
    assert "paths handed round" in plan.stdout, plan.output
    converge(sites, manifest)
    assert {title: live_section(sites, title)["id"] for title in paths} == ids

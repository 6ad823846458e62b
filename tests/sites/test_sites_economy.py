"""Request economy: a plan reads one structure per managed site, a reorder moves only what is
out of place, and the structure comparison of these tests is strict."""

from __future__ import annotations

import re

import pytest

from tests.sites.kit import SORT, STRUCTURE, Doc, SitesRun, changed, load, site_of

TITLES = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"]


def flat_site(order: list[str]) -> Doc:
    """A site of six ungrouped sections, each over the seeded Internal Handbook space."""
    return {
        "organization": "org_acme",
        "sites": [
            {
                "title": "Flat",
                "sections": [
                    {
                        "title": title,
                        "path": title.lower(),
                        "siteSpaces": [{"space": "Internal Handbook", "path": "handbook"}],
                    }
                    for title in order
                ],
            }
        ],
    }


def test_a_plan_reads_one_structure_per_managed_site(sites: SitesRun) -> None:
    manifest = load("two-sites.yaml")
    sites.apply(manifest)
    before = sites.stats()
    sites.assert_converged(manifest)
    reads = sites.stats() - before
    assert reads[STRUCTURE] == 2
    per_item = [r for r in reads if "/sections" in r or "/site-spaces" in r or "/section-gr" in r]
    assert per_item == [], per_item
    assert not [r for r in reads if not r.startswith("GET ")], "a plan only reads"


def test_a_converged_apply_writes_nothing(sites: SitesRun) -> None:
    manifest = load("two-sites.yaml")
    sites.apply(manifest)
    before = sites.stats()
    result = sites.apply(manifest)
    assert "No changes" in result.stdout
    assert not [r for r in sites.stats() - before if not r.startswith("GET ")]


@pytest.mark.parametrize(
    ("order", "moves"),
    [
        (["Zeta", "Alpha", "Beta", "Gamma", "Delta", "Epsilon"], 1),  # last to first
        (["Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Alpha"], 1),  # first to last
        (["Alpha", "Gamma", "Beta", "Delta", "Zeta", "Epsilon"], 2),  # two swaps
        (list(reversed(TITLES)), 5),
    ],
)
def test_a_reorder_moves_only_what_is_out_of_place(
    sites: SitesRun, order: list[str], moves: int
) -> None:
    sites.apply(flat_site(TITLES))
    wanted = flat_site(order)
    plan = sites.plan(wanted)
    moved = re.findall(
        r'^ +~ site\["Flat"\]\.section\["\w+"\] += .+ -> (?:first|after .+)$', plan.stdout, re.M
    )
    assert len(moved) == moves, plan.output
    before = sites.stats()
    sites.apply(wanted)
    assert (sites.stats() - before)[SORT] == moves
    sites.assert_converged(wanted)
    sites.assert_structure(wanted["sites"][0])


def test_the_structure_comparison_is_strict(sites: SitesRun) -> None:
    manifest = load("two-sites.yaml")
    sites.apply(manifest)
    docs = site_of(manifest, "Developer Docs")
    variants = []
    for change in ("order", "path", "default", "group", "space", "extra"):
        other = changed(docs)
        if change == "order":
            other["sections"].reverse()
        elif change == "path":
            other["sections"][0]["siteSpaces"][1]["path"] = "elsewhere"
        elif change == "default":
            other["sections"][1]["siteSpaces"][0]["default"] = True
            other["sections"][1]["siteSpaces"][1]["default"] = False
        elif change == "group":
            other["sectionGroups"][1]["sections"] = ["Operations", "Release Notes"]
        elif change == "space":
            other["sections"][3]["siteSpaces"][0]["space"] = "Guides"
        else:
            other["sections"][3]["siteSpaces"].append({"space": "SDK", "path": "sdk"})
        variants.append(other)
    for other in variants:
        with pytest.raises(AssertionError):
            sites.assert_structure(other)

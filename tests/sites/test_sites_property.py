"""Property: from any site tree T1 to any other T2, one apply reaches T2 exactly (structure, plan
empty) and moves no more items than are out of place."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.depth import examples
from tests.emulator_harness import EmulatorHandle
from tests.sites.kit import SORT, Doc, SitesRun, expected_shape, placed

TITLES = ("Alpha", "Beta", "Gamma", "Delta")
PATHS = ("v1", "v2", "v3")
SPACES = ("Internal Handbook", "Guides", "API Reference", "Runbooks")
GROUPS = ("Learn", "Run")
#: absent (left alone), null (removed) or a value
CONDITIONS: tuple[Any, ...] = ("absent", None, "visitor.claims.beta")


def _default(draw: st.DrawFn, items: list[Doc]) -> None:
    """Names one item (or none) of a level as its default."""
    index = draw(st.none() | st.integers(0, len(items) - 1))
    if index is not None:
        items[index]["default"] = True


@st.composite
def site_spaces(draw: st.DrawFn) -> list[Doc]:
    paths = draw(st.lists(st.sampled_from(PATHS), min_size=1, max_size=3, unique=True))
    items = []
    for path in paths:
        item: Doc = {"space": draw(st.sampled_from(SPACES)), "path": path}
        condition = draw(st.sampled_from(CONDITIONS))
        if condition != "absent":
            item["condition"] = condition
        items.append(item)
    _default(draw, items)
    return items


@st.composite
def site_trees(draw: st.DrawFn) -> Doc:
    """A site of 1-4 sections (random order, titles from a small alphabet), each with 1-3 site
    spaces, random defaults, and sections in 0-2 groups (a group may be empty)."""
    titles = draw(st.lists(st.sampled_from(TITLES), min_size=1, max_size=4, unique=True))
    sections: list[Doc] = [
        {"title": t, "path": t.lower(), "siteSpaces": draw(site_spaces())} for t in titles
    ]
    _default(draw, sections)
    site: Doc = {"title": "Tree", "sections": sections}
    membership = [draw(st.sampled_from((None, *GROUPS))) for _ in titles]
    declared = draw(st.permutations([g for g in GROUPS if g in membership or draw(st.booleans())]))
    # Always written (if empty), so that it is exact: unwritten, live groups are left alone.
    # A group lists its sections in any order: the `sections` list gives the order.
    site["sectionGroups"] = [
        {
            "title": g,
            "sections": draw(
                st.permutations([t for t, m in zip(titles, membership, strict=True) if m == g])
            ),
        }
        for g in declared
    ]
    return site


@st.composite
def sites_of_either_kind(draw: st.DrawFn) -> Doc:
    """Mostly sites with sections; now and then one with site spaces at its root."""
    if draw(st.integers(0, 5)) == 0:
        return {"title": "Tree", "siteSpaces": draw(site_spaces())}
    return draw(site_trees())


def manifest(site: Doc) -> Doc:
    spaces = [{"title": s} for s in SPACES if s != "Internal Handbook"]
    return {"organization": "org_acme", "spaces": spaces, "sites": [site]}


def levels(site: Doc) -> dict[str, list[str]]:
    """Every level of a site's expected structure: its items' keys in order."""
    shape = expected_shape(site)
    if "siteSpaces" in shape:
        return {"root": [f"site space {s['path']}" for s in shape["siteSpaces"]]}
    out: dict[str, list[str]] = {"root": []}
    for item in placed(shape)[0]["sections"]:  # an empty group stays where it stands
        if "group" in item:
            out["root"].append(f"group {item['group']}")
            out[f"group {item['group']}"] = [s["title"] for s in item["sections"]]
            members = item["sections"]
        else:
            out["root"].append(f"section {item['title']}")
            members = [item]
        for section in members:
            out[f"section {section['title']}"] = [s["path"] for s in section["siteSpaces"]]
    return out


def out_of_place(before: Doc, after: Doc) -> int:
    """Items of `after` not at the index they had in `before`'s list of the same level (new
    items included): those at the same index already form a run in the desired order."""
    old = levels(before)
    count = 0
    for name, items in levels(after).items():
        previous = old.get(name, [])
        count += sum(1 for i, key in enumerate(items) if i >= len(previous) or previous[i] != key)
    return count


@pytest.mark.slow
@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(first=sites_of_either_kind(), second=sites_of_either_kind())
def test_any_tree_to_any_tree(
    emulator: EmulatorHandle, tmp_path: Path, first: Doc, second: Doc
) -> None:
    emulator.reset()
    sites = SitesRun(emulator, tmp_path)
    sites.apply(manifest(first))
    sites.assert_structure(first)
    before = sites.stats()
    sites.apply(manifest(second), "--force")  # T2 may delete most of T1: past the safety rail
    sorts = (sites.stats() - before)[SORT]
    sites.assert_structure(second)
    sites.assert_converged(manifest(second))
    assert sorts <= out_of_place(first, second)


#: a site space's override: left alone, removed, or set (a value production and the emulator take)
OVERRIDES: tuple[Any, ...] = (
    "absent",
    None,
    {"trademark": {"enabled": False}},
    {"trademark": {"enabled": True}, "pagination": {"enabled": False}},
)


@st.composite
def overridden(draw: st.DrawFn) -> Doc:
    """A site tree (groups included) whose site spaces may override the site's customization."""
    site = draw(sites_of_either_kind())
    levels = (
        [site["siteSpaces"]]
        if "siteSpaces" in site
        else [s["siteSpaces"] for s in site["sections"]]
    )
    for level in levels:
        for item in level:
            override = draw(st.sampled_from(OVERRIDES))
            if override != "absent":
                item["customization"] = override
    return site


@pytest.mark.slow
@settings(
    max_examples=examples(15),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(site=overridden())
def test_overrides_converge_and_export_wherever_their_section_stands(
    emulator: EmulatorHandle, tmp_path_factory: pytest.TempPathFactory, site: Doc
) -> None:
    """Apply then plan is empty, and export then plan is empty, with a site space's override
    in a section at the root or in a group, or at a site's root."""
    emulator.reset()
    tmp = tmp_path_factory.mktemp("overrides")
    sites = SitesRun(emulator, tmp)
    sites.apply(manifest(site))
    sites.assert_converged(manifest(site))
    exported = sites.cli("export", "--org", "org_acme", "--out", tmp / "export")
    assert exported.exit_code == 0, exported.output
    replanned = sites.cli("plan", tmp / "export", "--detailed-exitcode")
    assert replanned.exit_code == 0, replanned.output

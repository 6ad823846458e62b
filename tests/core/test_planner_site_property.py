"""Property, without HTTP: every valid site manifest against any live structure plans, or is
refused with located problems; never a dependency cycle. Small alphabets of titles and paths,
ids pinned to live items (renames) and entries marked absent make the same address stand for a
live item that goes and an entry that comes (`test_planner_site_kinds.py` keeps the shapes)."""

from __future__ import annotations

from typing import Any

import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from docsync.core.errors import PlanProblems
from tests.core import plankit as k
from tests.depth import examples

TITLES = ("Alpha", "Beta", "Gamma")
SECTION_PATHS = ("a", "b", "c")
PATHS = ("p", "q", "r")
SPACES = {"sp1": "Guides", "sp2": "API"}
GROUPS = ("Learn", "Run")

Doc = dict[str, Any]


class Ids:
    """Fresh live ids."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"


@st.composite
def live_site_spaces(draw: st.DrawFn, ids: Ids) -> list[Doc]:
    paths = draw(st.lists(st.sampled_from(PATHS), min_size=1, max_size=2, unique=True))
    return [
        k.site_space(ids("ss"), draw(st.sampled_from(sorted(SPACES))), path, i == 0)
        for i, path in enumerate(paths)
    ]


@st.composite
def live_structures(draw: st.DrawFn) -> Doc:
    """A site of sections (some in a group) or, now and then, of root site spaces."""
    ids = Ids()
    if draw(st.integers(0, 5)) == 0:
        return {"type": "siteSpaces", "structure": draw(live_site_spaces(ids))}
    titles = draw(st.lists(st.sampled_from(TITLES), max_size=3, unique=True))
    paths = draw(st.permutations(SECTION_PATHS))
    sections = [
        k.section(ids("sec"), t, *draw(live_site_spaces(ids)), path=p, default=i == 0)
        for i, (t, p) in enumerate(zip(titles, paths, strict=False))
    ]
    grouped = draw(st.sets(st.sampled_from(range(len(sections))))) if sections else set()
    root: list[Doc] = [s for i, s in enumerate(sections) if i not in grouped]
    if grouped:
        held = [sections[i] for i in sorted(grouped)]
        root.insert(draw(st.integers(0, len(root))), k.group(ids("g"), GROUPS[0], *held))
    return {"type": "sections", "structure": root}


def _live_items(structure: Doc) -> tuple[dict[str, Doc], list[str]]:
    """The live sections by id, and the ids of the root site spaces."""
    sections: dict[str, Doc] = {}
    for item in structure["structure"]:
        for section in item.get("sections", [item]):
            if section.get("object") == "site-section":
                sections[section["id"]] = section
    root = [i["id"] for i in structure["structure"] if "object" not in i]
    return sections, root


@st.composite
def pins(draw: st.DrawFn, ids: list[str], count: int) -> list[str | None]:
    """For each of `count` entries, a live id it pins (each id at most once) or None."""
    chosen = draw(st.permutations(ids))
    return [chosen[i] if i < len(chosen) and draw(st.booleans()) else None for i in range(count)]


@st.composite
def site_space_entries(draw: st.DrawFn, live_spaces: list[str], new: bool) -> list[Doc]:
    paths = draw(
        st.lists(st.sampled_from(PATHS), min_size=1 if new else 0, max_size=2, unique=True)
    )
    pinned = draw(pins(live_spaces, len(paths)))
    entries: list[Doc] = []
    for path, pin in zip(paths, pinned, strict=True):
        entry: Doc = {"id": pin} if pin else {}
        if not new and draw(st.integers(0, 4)) == 0:
            entries.append(entry | {"path": path, "state": "absent"})
            continue
        entry |= {"space": draw(st.sampled_from(sorted(SPACES.values()))), "path": path}
        entries.append(entry)
    if entries and draw(st.booleans()):
        present = [e for e in entries if e.get("state") != "absent"]
        if present:
            draw(st.sampled_from(present))["default"] = True
    return entries


@st.composite
def manifest_sites(draw: st.DrawFn, structure: Doc) -> Doc:
    live_sections, root_spaces = _live_items(structure)
    if draw(st.integers(0, 5)) == 0:
        return {"title": "Docs", "siteSpaces": draw(site_space_entries(root_spaces, new=False))}
    titles = draw(st.lists(st.sampled_from(TITLES), max_size=3, unique=True))
    pinned = draw(pins(sorted(live_sections), len(titles)))
    by_title = {s["title"]: s for s in live_sections.values()}
    paths = draw(st.permutations(SECTION_PATHS))
    sections: list[Doc] = []
    for title, pin, path in zip(titles, pinned, paths, strict=False):
        entry: Doc = {"title": title} | ({"id": pin} if pin else {})
        if draw(st.integers(0, 4)) == 0:
            sections.append(entry | {"state": "absent"})
            continue
        if draw(st.booleans()):
            entry["path"] = path
        # Site spaces pin ids of the live section the entry matches (another's: a problem).
        matched = live_sections[pin] if pin else by_title.get(title)
        own = [s["id"] for s in matched["siteSpaces"]] if matched else []
        entry["siteSpaces"] = draw(site_space_entries(own, new=matched is None))
        sections.append(entry)
    present = [s for s in sections if s.get("state") != "absent"]
    if present and draw(st.booleans()):
        draw(st.sampled_from(present))["default"] = True
    site: Doc = {"title": "Docs", "sections": sections}
    if draw(st.booleans()):
        # A section is in one group at most (`validate` refuses it in two).
        free = [s["title"] for s in present]
        site["sectionGroups"] = []
        for g in draw(st.lists(st.sampled_from(GROUPS), unique=True)) if present else []:
            held = draw(st.lists(st.sampled_from(free), unique=True)) if free else []
            free = [t for t in free if t not in held]
            site["sectionGroups"].append({"title": g, "sections": held})
    return site


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    structure = draw(live_structures())
    site = draw(manifest_sites(structure))
    if draw(st.integers(0, 6)) == 0:
        site = {"id": "s1", **site, "title": "Renamed"}
    manifest = {"spaces": [{"title": t} for t in SPACES.values()], "sites": [site]}
    live_site = k.site("s1", "Docs", []) | {"_structure": structure}
    spaces = [{"id": i, "title": t} for i, t in SPACES.items()]
    return yaml.safe_dump(manifest, sort_keys=False), {"space": spaces, "site": [live_site]}


#: the smallest shape Hypothesis found refused with a cycle: Alpha is deleted by a pinned absent
#: entry written first, Beta renamed (pinned) to Alpha
RENAMED_TO_A_DELETED_TITLE = (
    "sites:\n  - title: Docs\n    sections:\n"
    "      - {id: sec2, title: Gone, state: absent}\n"
    "      - {id: sec1, title: Alpha, siteSpaces: []}\n",
    {
        "site": [
            k.site(
                "s1",
                "Docs",
                [
                    k.section("sec1", "Beta", k.site_space("ss1", "sp1", "p", True), path="a"),
                    k.section("sec2", "Alpha", k.site_space("ss2", "sp1", "p", True), path="b"),
                ],
            )
        ]
    },
)


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow])
@given(cases())
@example(RENAMED_TO_A_DELETED_TITLE)
def test_every_site_manifest_plans_without_a_cycle(case: tuple[str, dict[str, Any]]) -> None:
    manifest, live = case
    try:
        k.plan(manifest, live)
    except PlanProblems as refused:
        assert "cycle" not in str(refused), refused

"""A site's children planned by their own kinds' hooks through the one list planner, without
HTTP: each case is a manifest and a live site in, the actions (or problems) the hooks make out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from docsync.core.context import PlanContext, ref
from docsync.core.graph import link
from docsync.core.model import Action
from docsync.kinds.catalogue import CATALOGUE, KINDS, kind_named
from docsync.kinds.lists import NOT_WRITTEN
from docsync.kinds.nested.kind import NestedKind, every_nested_kind
from docsync.kinds.nested.payloads import DefaultVia, GroupMembership, PathStep, child
from tests.core import plankit as k

GUIDES = {"id": "sp1", "title": "Guides"}
API = {"id": "sp2", "title": "API"}
SITE = 'site["Docs"]'
GUIDES_SECTION = f'{SITE}.section["Guides"]'
API_SECTION = f'{SITE}.section["API"]'
DOCS = k.site(
    "s1",
    "Docs",
    [
        k.section(
            "sec1",
            "Guides",
            k.site_space("ss1", "sp1", "guides", True),
            k.site_space("ss3", "sp2", "more"),
            default=True,
        ),
        k.section("sec2", "API", k.site_space("ss2", "sp2", "api", True)),
    ],
)
GROUPED = k.site(
    "s1",
    "Docs",
    [
        k.group(
            "g1",
            "A",
            k.section("sec1", "Guides", k.site_space("ss1", "sp1", "guides", True)),
            k.section("sec2", "API", k.site_space("ss2", "sp2", "api", True)),
        ),
    ],
)
LIVE: dict[str, Any] = {"space": [GUIDES, API], "site": [DOCS]}


def sections(*entries: str) -> str:
    return "sites:\n  - title: Docs\n    sections:\n" + "".join(f"      - {e}\n" for e in entries)


GUIDES_AS_IS = (
    "{title: Guides, default: true, siteSpaces: [{space: Guides, path: guides}, "
    "{space: API, path: more}]}"
)
API_AS_IS = "{title: API, siteSpaces: [{space: API, path: api}]}"


def at(ctx: PlanContext, verb: str, address: str) -> Action:
    return next(a for a in ctx.actions if a.verb == verb and a.address == address)


def stale_section(ctx: PlanContext) -> None:
    assert any("sections[0].id: no section with id 'gone'" in p for p in ctx.problems)
    assert not [a for a in ctx.actions if a.verb == "create"], "a stale pin is never created"


def stale_site_space(ctx: PlanContext) -> None:
    message = f"siteSpaces[2].id: no site space with id 'gone' in {GUIDES_SECTION}"
    assert any(message in p for p in ctx.problems), ctx.problems
    assert not [a for a in ctx.actions if a.verb == "create"], "a stale pin is never created"


def default_through_section(ctx: PlanContext) -> None:
    moved = at(ctx, "update", f'{GUIDES_SECTION}.site_space["more"]')
    assert child(moved).default_via == DefaultVia("section", ref(GUIDES_SECTION))
    assert child(moved).section == ref(GUIDES_SECTION)


def default_through_site(ctx: PlanContext) -> None:
    moved = at(ctx, "update", API_SECTION)
    assert child(moved).default_via == DefaultVia("site")
    assert child(moved).section is None


def root_space_default_through_site(ctx: PlanContext) -> None:
    made = at(ctx, "create", f'{SITE}.site_space["guides"]')
    assert child(made).default_via == DefaultVia("site") and child(made).section is None


def handover(ctx: PlanContext) -> None:
    """ss3 takes the path ss1 lets go of: it waits for that delete, which goes first."""
    taker = at(ctx, "update", f'{GUIDES_SECTION}.site_space["guides"]')
    freed = at(ctx, "delete", f'{GUIDES_SECTION}.site_space["guides"]')
    assert freed.key in taker.depends_on
    assert taker.key not in freed.depends_on and freed.notes == [NOT_WRITTEN]


def handover_in_renamed_site(ctx: PlanContext) -> None:
    """A renamed site's root site spaces: ss2 leaves path d before ss1 takes it."""
    site = 'site["Renamed"]'
    taker, holder = (
        at(ctx, "update", f'{site}.site_space["d"]'),
        at(ctx, "update", f'{site}.site_space["c"]'),
    )
    assert holder.key in taker.depends_on and taker.key not in holder.depends_on


def swap(ctx: PlanContext) -> None:
    """Two sections trading paths: one request does it through a temporary path."""
    first, second = at(ctx, "update", GUIDES_SECTION), at(ctx, "update", API_SECTION)
    assert child(first).paths == [
        PathStep("sec1", "docsync-swap-sec1"),
        PathStep("sec2", "guides"),
        PathStep("sec1", "api"),
    ]
    assert first.key in second.depends_on
    assert "path" not in child(first).fields and "path" not in child(second).fields


def exact_list(ctx: PlanContext) -> None:
    deleted = at(ctx, "delete", API_SECTION)
    assert deleted.notes == [NOT_WRITTEN] and deleted.live_id == "sec2"
    own = [a.key for a in ctx.actions if a.verb != "delete" and a.kind != "site"]
    assert set(own) <= set(deleted.depends_on), "deletes wait for the rest of the site"


def group_move(ctx: PlanContext) -> None:
    """API leaves group A for the new group B: B's create carries it, A does not remove it."""
    made = at(ctx, "create", f'{SITE}.section_group["B"]')
    assert child(made).fields["sections"] == [ref(API_SECTION)]
    left = at(ctx, "update", f'{SITE}.section_group["A"]')
    assert child(left).membership == GroupMembership(add=[], remove=[])


def switch(ctx: PlanContext) -> None:
    """Root site spaces replace sections: the sections go first, then the new layout."""
    gone = [a for a in ctx.actions if a.verb == "delete"]
    assert [a.address for a in gone] == [GUIDES_SECTION, API_SECTION]
    assert all(
        a.notes == ["the site now has siteSpaces: the old structure goes first"] for a in gone
    )
    made = at(ctx, "create", f'{SITE}.site_space["guides"]')
    assert {a.key for a in gone} <= set(made.depends_on)


def no_switch(ctx: PlanContext) -> None:
    """Only live sections make a site a sections site: its empty groups are left alone."""
    assert not [a for a in ctx.actions if a.verb == "delete"]
    assert at(ctx, "create", f'{SITE}.site_space["guides"]')


def old_title_taken(ctx: PlanContext) -> None:
    """Guides is renamed (pinned), a new Guides takes its title with a site space at the path
    the renamed one drops: that site space's delete goes first (one address names one item at
    a time: the graph's edge), then the new one is made."""
    assert not link(ctx.actions, ctx.live, set(ctx.known_ids.values()))
    left = at(ctx, "delete", f'{GUIDES_SECTION}.site_space["guides"]')
    made = at(ctx, "create", f'{GUIDES_SECTION}.site_space["guides"]')
    assert left.key in made.depends_on and made.key not in left.depends_on


def link_after_sections(ctx: PlanContext) -> None:
    """A new site's link is made once its sections are: the API refuses a link in a site
    without sections."""
    link = at(ctx, "create", f'{SITE}.external_link["Status"]')
    made = {at(ctx, "create", GUIDES_SECTION).key, at(ctx, "create", API_SECTION).key}
    assert made <= set(link.depends_on)


CASES: list[tuple[str, str, dict[str, Any], Callable[[PlanContext], None]]] = [
    (
        "a new site's external link waits for its sections",
        sections(
            "{title: Guides, siteSpaces: [{space: Guides, path: guides}]}",
            "{title: API, siteSpaces: [{space: API, path: api}]}",
        )
        + '    externalLinks: [{title: Status, url: "https://status.acme.example", after: API}]\n',
        {"space": [GUIDES, API]},
        link_after_sections,
    ),
    (
        "stale pinned section",
        sections("{id: gone, title: New, siteSpaces: [{space: Guides, path: new}]}"),
        LIVE,
        stale_section,
    ),
    (
        "stale pinned site space",
        sections(
            "{title: Guides, siteSpaces: [{space: Guides, path: guides}, {space: API, path: more},"
            " {id: gone, space: API, path: x}]}",
            API_AS_IS,
        ),
        LIVE,
        stale_site_space,
    ),
    (
        "a section's default site space moves through the section",
        sections(
            "{title: Guides, siteSpaces: [{space: Guides, path: guides}, "
            "{space: API, path: more, default: true}]}",
            API_AS_IS,
        ),
        LIVE,
        default_through_section,
    ),
    (
        "the default section moves through the site",
        sections(
            "{title: Guides, siteSpaces: [{space: Guides, path: guides}]}",
            "{title: API, default: true, siteSpaces: [{space: API, path: api}]}",
        ),
        LIVE,
        default_through_site,
    ),
    (
        "a root site space's default is the site's",
        "sites:\n  - {title: Docs, siteSpaces: [{space: Guides, path: guides, default: true}]}",
        {"space": [GUIDES, API]},
        root_space_default_through_site,
    ),
    (
        "a path handed over from a deleted site space",
        sections(
            "{title: Guides, siteSpaces: [{id: ss3, space: API, path: guides, default: true}]}",
            API_AS_IS,
        ),
        LIVE,
        handover,
    ),
    (
        "a path handed over in a renamed site",
        "sites:\n  - id: s1\n    title: Renamed\n    siteSpaces:\n"
        "      - {id: ss1, space: Guides, path: d}\n      - {id: ss2, space: API, path: c}\n",
        {
            "space": [GUIDES, API],
            "site": [
                k.root_spaces_site(
                    "s1",
                    "Docs",
                    k.site_space("ss1", "sp1", "a", True),
                    k.site_space("ss2", "sp2", "d"),
                )
            ],
        },
        handover_in_renamed_site,
    ),
    (
        "two sections swap paths",
        sections(
            GUIDES_AS_IS.replace("{title: Guides,", "{title: Guides, path: api,"),
            API_AS_IS.replace("{title: API,", "{title: API, path: guides,"),
        ),
        LIVE,
        swap,
    ),
    (
        "root site spaces on a site of empty groups",
        "sites:\n  - {title: Docs, siteSpaces: [{space: Guides, path: guides}]}",
        {"space": [GUIDES, API], "site": [k.site("s1", "Docs", [k.group("g1", "A")])]},
        no_switch,
    ),
    (
        "a renamed section's old title taken by a new one",
        sections(
            "{id: sec1, title: Renamed, siteSpaces: [{space: API, path: more}]}",
            "{title: Guides, siteSpaces: [{space: Guides, path: guides}]}",
            API_AS_IS,
        ),
        LIVE,
        old_title_taken,
    ),
    ("an exact list deletes what is not written", sections(GUIDES_AS_IS), LIVE, exact_list),
    (
        "a section moves to a new group",
        "sites:\n  - title: Docs\n    sectionGroups:\n"
        "      - {title: A, sections: [Guides]}\n      - {title: B, sections: [API]}\n",
        {"space": [GUIDES, API], "site": [GROUPED]},
        group_move,
    ),
    (
        "sections switched for root site spaces",
        "sites:\n  - {title: Docs, siteSpaces: [{space: Guides, path: guides}]}",
        LIVE,
        switch,
    ),
]


@pytest.mark.parametrize(
    ("manifest", "live", "check"), [pytest.param(m, lv, c, id=n) for n, m, lv, c in CASES]
)
def test_site_children_planned_by_their_kinds(
    manifest: str, live: dict[str, Any], check: Callable[[PlanContext], None]
) -> None:
    check(k.attempt(manifest, live))


def test_every_nested_kind_has_the_hooks_the_site_driver_calls() -> None:
    # A part (a grant, a site's share links) is planned by its parent's kind, not the driver.
    nested = [kind_named(d.name) for d in CATALOGUE if d.nested and not (d.mapped or d.part)]
    assert nested
    assert {k.name for k in every_nested_kind(KINDS)} == {k.name for k in nested}, (
        "a kind no walk reaches"
    )
    layouts, pointers = set(), []
    for kind in nested:
        assert isinstance(kind, NestedKind), f"{kind.name} is planned by no driver"
        own = type(kind)
        assert own.export is not NestedKind.export, f"{kind.name}: how it is exported"
        assert own.line is not NestedKind.line, f"{kind.name}: how the plan draws it"
        assert kind.route("create").path and kind.pointer_type, (
            f"{kind.name}: where it is written and read"
        )
        assert own.execute is not NestedKind.execute, f"{kind.name}: how it is created"
        pointers.append(kind.pointer_type)
        if kind.declaration.paths_unique:
            assert "path" in {f.name for f in kind.fields}, kind.name
        if kind.leads:
            layouts.add(kind.layout)
    assert len(set(pointers)) == len(pointers), "two kinds read from the same structure items"
    assert None not in layouts and len(layouts) == 2, "a site's two layouts, each led by a kind"


#: Guides holds a site space at a path the API section's holds too (the driver once keyed both
#: under the address the rename gives them, and chose the wrong one)
SHARED_PATH = k.site(
    "s1",
    "Docs",
    [
        k.section(
            "sec1",
            "Guides",
            k.site_space("ss1", "sp1", "v1", True),
            k.site_space("ss3", "sp2", "v2"),
        ),
        k.section("sec2", "API", k.site_space("ss2", "sp2", "v1", True)),
    ],
)

#: Shapes where one address names a live item that goes and an entry that comes: the plan is
#: ordered (the delete first, as one address names one item at a time), never a cycle.
#: (name, manifest, live, (what goes first, what follows) pairs)
ADDRESS_TAKEN: list[tuple[str, str, dict[str, Any], list[tuple[str, str]]]] = [
    (
        "a section renamed to the title of one deleted by a pinned absent entry written first",
        sections(
            "{id: sec2, title: Gone, state: absent}",
            "{id: sec1, title: API, siteSpaces: [{space: Guides, path: guides}]}",
        ),
        LIVE,
        [(f"delete {API_SECTION}", f"update {API_SECTION}")],
    ),
    (
        "a renamed section's old title taken by a new section, the rename taking a deleted one's",
        sections(
            "{id: sec1, title: API, path: api, siteSpaces: [{space: API, path: v2}]}",
            "{title: Guides, path: guides, siteSpaces: [{space: Guides, path: v1}]}",
        ),
        {"space": [GUIDES, API], "site": [SHARED_PATH]},
        [
            (f"delete {API_SECTION}", f"update {API_SECTION}"),
            (
                f'delete {GUIDES_SECTION}.site_space["v1"]',
                f'create {GUIDES_SECTION}.site_space["v1"]',
            ),
            (f"update {API_SECTION}", f"create {GUIDES_SECTION}"),
        ],
    ),
    (
        "a new section with the title of a section a pinned absent entry deletes",
        sections(
            "{id: sec2, title: Gone, state: absent}",
            GUIDES_AS_IS,
            "{title: API, siteSpaces: [{space: API, path: api}]}",
        ),
        LIVE,
        [(f"delete {API_SECTION}", f"create {API_SECTION}")],
    ),
    (
        "a root site space renamed by its pin to the path of one deleted",
        "sites:\n  - title: Docs\n    siteSpaces:\n"
        "      - {id: ss2, path: old, state: absent}\n      - {id: ss1, space: Guides, path: b}\n",
        {
            "space": [GUIDES, API],
            "site": [
                k.root_spaces_site(
                    "s1",
                    "Docs",
                    k.site_space("ss1", "sp1", "a", True),
                    k.site_space("ss2", "sp2", "b"),
                )
            ],
        },
        [(f'delete {SITE}.site_space["b"]', f'update {SITE}.site_space["b"]')],
    ),
]


@pytest.mark.parametrize(
    ("manifest", "live", "pairs"), [pytest.param(m, lv, p, id=n) for n, m, lv, p in ADDRESS_TAKEN]
)
def test_an_address_that_changes_hands_is_ordered_not_a_cycle(
    manifest: str, live: dict[str, Any], pairs: list[tuple[str, str]]
) -> None:
    ordered = k.steps(k.plan(manifest, live))
    for first, then in pairs:
        assert ordered.index(first) < ordered.index(then), ordered


PATH_KEPT = [
    (
        "a section takes the live path of one whose entry writes none",
        sections(
            GUIDES_AS_IS,
            "{title: API, path: guides, siteSpaces: [{space: API, path: api}]}",
        ),
        "sections[1].path: path 'guides' is held by the live section 'Guides' (id sec1), whose "
        "entry (at ",
    ),
    (
        "a site space takes the live path of one pinned by id, its entry writing none",
        sections(
            "{title: Guides, default: true, siteSpaces: [{id: ss1, space: Guides}, "
            "{id: ss3, space: API, path: guides}]}",
            "{title: API, siteSpaces: [{space: API, path: api}]}",
        ),
        "sections[0].siteSpaces[1].path: path 'guides' is held by the live site space 'guides' "
        "(id ss1), whose entry (at ",
    ),
]


@pytest.mark.parametrize(
    ("manifest", "located"), [pytest.param(m, p, id=n) for n, m, p in PATH_KEPT]
)
def test_a_path_another_item_keeps_is_a_located_problem_not_a_refused_apply(
    manifest: str, located: str
) -> None:
    problems = k.attempt(manifest, LIVE).problems
    assert len(problems) == 1, problems
    assert located in problems[0]
    assert problems[0].endswith(
        "writes no `path`, so it keeps it (the API refuses a path twice in a level): write a new "
        "`path` there to free it"
    )


def test_a_path_freed_by_its_holder_s_new_path_is_handed_over() -> None:
    manifest = sections(
        GUIDES_AS_IS.replace("{title: Guides, ", "{title: Guides, path: docs, "),
        "{title: API, path: guides, siteSpaces: [{space: API, path: api}]}",
    )
    ctx = k.attempt(manifest, LIVE)
    assert ctx.problems == []
    take = next(a for a in ctx.actions if a.address == API_SECTION)
    assert take.depends_on == [f"update {GUIDES_SECTION}"]


def test_an_entry_no_key_matches_falls_back_only_to_what_no_entry_s_key_takes() -> None:
    """The one reconciler matches by key first, then by `matched_by`: a site space written at a
    new path takes a live one publishing its space only when no entry keeps that one by its
    path. The new `latest` took the live `v1` (first in the list), whose entry then made a new
    `v1`, and the override the live one had stayed on the item the manifest calls `latest`."""
    live = {
        "space": [GUIDES],
        "site": [
            k.site("s1", "Docs", [k.section("sec1", "Guides", k.site_space("v", "sp1", "v1"))])
        ],
    }
    manifest = (
        "sites:\n  - title: Docs\n    sections:\n      - title: Guides\n        siteSpaces:\n"
        "          - {space: Guides, path: latest}\n          - {space: Guides, path: v1}\n"
    )
    plan = k.plan(manifest, live)
    assert k.steps(plan) == [
        f'create {GUIDES_SECTION}.site_space["latest"]',
        f"reorder {SITE}",  # written before v1
    ]

"""A site's external links, planned without HTTP: matched by title (or pinned id) among the
root's links, placed among the sections where `after` says, with the fewest moves."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.core.errors import PlanProblems
from docsync.kinds.nested.payloads import Reorder, child
from docsync.manifest.problems import ManifestError
from docsync.render.pictures import structures
from tests.core import plankit as k

SPACES = [{"id": "sp1", "title": "Guides"}, {"id": "sp2", "title": "API"}]
STATUS = {
    "object": "site-external-link",
    "id": "l1",
    "title": "Status",
    "url": "https://status.acme.example",
    "draft": False,
}
GUIDES = k.section("sec1", "Guides", k.site_space("ss1", "sp1", "guides", True), default=True)
API = k.section("sec2", "API", k.site_space("ss2", "sp2", "api", True))
SECTIONS = (
    "sites:\n  - title: Docs\n    sections:\n"
    "      - {title: Guides, siteSpaces: [{space: Guides, path: guides}]}\n"
    "      - {title: API, siteSpaces: [{space: API, path: api}]}\n"
)


def live(*root: dict[str, Any]) -> dict[str, Any]:
    return {"space": SPACES, "site": [k.site("s1", "Docs", list(root))]}


def links(*entries: str) -> str:
    return SECTIONS + "    externalLinks:\n" + "".join(f"      - {e}\n" for e in entries)


STATUS_AFTER_GUIDES = '{title: Status, url: "https://status.acme.example", after: Guides}'


def test_a_link_in_place_plans_nothing() -> None:
    result = k.plan(links(STATUS_AFTER_GUIDES), live(GUIDES, STATUS, API))
    assert k.steps(result) == []


def test_a_link_out_of_place_is_one_move_of_the_root_level() -> None:
    result = k.plan(links(STATUS_AFTER_GUIDES), live(STATUS, GUIDES, API))
    assert k.steps(result) == ['reorder site["Docs"]']
    (reorder,) = result.actions
    assert isinstance(reorder.payload, Reorder)
    (level,) = reorder.payload.levels
    site = 'site["Docs"]'
    assert level.desired == [
        f'{site}.section["Guides"]',
        f'{site}.external_link["Status"]',
        f'{site}.section["API"]',
    ]
    assert level.kinds[f'{site}.external_link["Status"]'] == "external_link"
    assert len(reorder.changes) == 1  # one item moves: the link


def test_without_after_a_link_goes_first() -> None:
    first = '{title: Status, url: "https://status.acme.example"}'
    assert k.steps(k.plan(links(first), live(STATUS, GUIDES, API))) == []
    assert k.steps(k.plan(links(first), live(GUIDES, STATUS, API))) == ['reorder site["Docs"]']


def test_links_are_created_updated_deleted_and_renamed_through_their_id() -> None:
    old = STATUS | {"id": "l2", "title": "Old"}
    manifest = links(
        '{id: l1, title: Health, url: "https://health.acme.example", after: Guides}',
        '{title: Blog, url: "https://blog.acme.example", after: API}',
    )
    steps = k.steps(k.plan(manifest, live(GUIDES, STATUS, API, old)))
    site = 'site["Docs"]'
    assert f'update {site}.external_link["Health"]' in steps
    assert f'create {site}.external_link["Blog"]' in steps
    assert f'delete {site}.external_link["Old"]' in steps
    assert not [s for s in steps if "Status" in s]


def test_links_not_written_are_left_alone() -> None:
    result = k.plan(SECTIONS, live(STATUS, GUIDES, API))
    assert k.steps(result) == []


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        (
            # The group is not written: its sections are known only live.
            links(
                '{title: Status, url: "https://status.acme.example", group: More, after: Nowhere}'
            ),
            "externalLinks[0].after: no section of its group titled 'Nowhere'",
        ),
        (
            links('{title: Status, url: "https://status.acme.example", group: Mroe}'),
            "externalLinks[0].group: no section group titled 'Mroe' in this site (did you "
            "mean 'More'?)",
        ),
        (links("{title: Status, after: Guides}"), "an external link needs `url`"),
        (
            # Placed among sections the entry does not write (with root `siteSpaces`,
            # `validate` refuses them: tests/manifest/test_manifest_section_groups.py).
            'sites:\n  - title: Docs\n    externalLinks: [{title: Status, url: "https://status.acme.example"}]\n',
            "external links stand among a site's sections",
        ),
    ],
)
def test_link_problems_are_located(manifest: str, message: str) -> None:
    with pytest.raises(PlanProblems) as raised:
        k.plan(manifest, live(GUIDES, k.group("g1", "More", API)))
    assert message in str(raised.value)


def test_the_structure_picture_shows_links_where_they_stand_and_go() -> None:
    result = k.plan(links(STATUS_AFTER_GUIDES), live(STATUS, GUIDES, API))
    (picture,) = structures(result)
    link = '  link "Status" -> https://status.acme.example'
    assert [line for line in picture.before if "link" in line or "section" in line] == [
        link,
        '  section "Guides"  /guides  (default)',
        '  section "API"  /api',
    ]
    assert [line for line in picture.after if "link" in line or "section" in line] == [
        '  section "Guides"  (default)',
        link,
        '  section "API"',
    ]
    # Not written: a link stays after the nearest item before it that stays.
    renamed = SECTIONS.replace("Guides, siteSpaces", "Start, siteSpaces")
    unwritten = k.plan(renamed, live(API, GUIDES, STATUS))
    (picture,) = structures(unwritten)
    assert [line for line in picture.after if "link" in line or "section" in line] == [
        '  section "Start"  (default)',
        '  section "API"',
        link,
    ]


SITE = 'site["Docs"]'
MORE = f'{SITE}.section_group["More"]'
GROUPED = SECTIONS + "    sectionGroups: [{title: More, sections: [API]}]\n"
IN_MORE = '{title: Status, url: "https://status.acme.example", group: More, after: API}'


def grouped(*links: dict[str, Any]) -> dict[str, Any]:
    """A live site: Guides at the root, then group More holding API and `links`."""
    inside = [API, *(link | {"sectionGroup": "g1"} for link in links)]
    more = k.group("g1", "More", API) | {"children": inside}
    return live(GUIDES, more)


def in_group(*entries: str) -> str:
    return GROUPED + "    externalLinks:\n" + "".join(f"      - {e}\n" for e in entries)


def test_a_link_in_its_group_in_place_plans_nothing_and_reads_where_it_stands() -> None:
    assert k.steps(k.plan(in_group(IN_MORE), grouped(STATUS))) == []
    # Written at the root, the link leaves its group: one update of its group.
    at_root = STATUS_AFTER_GUIDES
    result = k.plan(in_group(at_root), grouped(STATUS))
    (update,) = [a for a in result.actions if a.verb == "update"]
    (change,) = update.changes
    assert (change.field, change.before, change.after) == ("group", MORE, None)
    assert child(update).fields == {"group": None}


def test_a_link_created_in_a_group_carries_it_and_waits_for_a_new_group() -> None:
    manifest = (
        in_group(IN_MORE)
        .replace("title: More", "title: Extra")
        .replace("group: More", "group: Extra")
    )
    result = k.plan(manifest, live(GUIDES, API))
    actions = {a.address: a for a in result.actions}
    link = actions[f'{SITE}.external_link["Status"]']
    extra = actions[f'{SITE}.section_group["Extra"]']
    assert link.verb == "create" and extra.verb == "create"
    assert child(link).fields["group"] == {"$ref": extra.address}
    assert extra.key in link.depends_on


def test_a_link_moving_into_a_group_is_one_update_and_the_groups_order() -> None:
    first = '{title: Status, url: "https://status.acme.example", group: More}'
    result = k.plan(in_group(first), live(STATUS, GUIDES, k.group("g1", "More", API)))
    assert k.steps(result) == [
        f'update {SITE}.external_link["Status"]',
        f"reorder {SITE}",
    ]
    reorder = result.actions[-1]
    assert isinstance(reorder.payload, Reorder)
    (level,) = [lv for lv in reorder.payload.levels if lv.container == MORE]
    assert level.desired == [f'{SITE}.external_link["Status"]', f'{SITE}.section["API"]']


def test_links_offline_name_their_group_and_a_place_of_their_level() -> None:
    cases = [
        (
            '{title: Status, url: "https://status.acme.example", group: Mroe}',
            "externalLinks[0].group: 'Mroe' names no section group of this site; did you "
            "mean 'More'?",
        ),
        (
            '{title: Status, url: "https://status.acme.example", after: Guide}',
            "externalLinks[0].after: 'Guide' names no root section or group of this site; did "
            "you mean 'Guides'?",
        ),
        (
            # API stands in the group: a root link cannot follow it.
            '{title: Status, url: "https://status.acme.example", after: API}',
            "'API' names no root section or group of this site",
        ),
        (
            '{title: Status, url: "https://status.acme.example", group: More, after: Guides}',
            "'Guides' names no section of group 'More' of this site",
        ),
    ]
    for entry, message in cases:
        with pytest.raises(ManifestError) as raised:
            k.load(in_group(entry))
        assert message in str(raised.value), entry
    k.load(in_group(IN_MORE, '{title: Home, url: "https://acme.example", after: More}'))

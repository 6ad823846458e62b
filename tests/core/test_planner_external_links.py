"""A site's external links, planned without HTTP: matched by title (or pinned id) among the
root's links, placed among the sections where `after` says, with the fewest moves."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.core.errors import PlanProblems
from docsync.core.payloads import Reorder
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
            links('{title: Status, url: "https://status.acme.example", after: Nowhere}'),
            "externalLinks[0].after: no root section or group titled 'Nowhere'",
        ),
        (links("{title: Status, after: Guides}"), "an external link needs `url`"),
        (
            "sites:\n  - title: Docs\n    siteSpaces: [{space: Guides, path: guides}]\n"
            '    externalLinks: [{title: Status, url: "https://status.acme.example"}]\n',
            "external links stand among a site's sections",
        ),
    ],
)
def test_link_problems_are_located(manifest: str, message: str) -> None:
    with pytest.raises(PlanProblems) as raised:
        k.plan(manifest, live(GUIDES, API))
    assert message in str(raised.value)


def test_the_structure_picture_shows_links_where_they_stand_and_go() -> None:
    result = k.plan(links(STATUS_AFTER_GUIDES), live(STATUS, GUIDES, API))
    (picture,) = result.structures
    link = '  link "Status" -> https://status.acme.example'
    assert [line for line in picture["before"] if "link" in line or "section" in line] == [
        link,
        '  section "Guides"  /guides  (default)',
        '  section "API"  /api',
    ]
    assert [line for line in picture["after"] if "link" in line or "section" in line] == [
        '  section "Guides"  (default)',
        link,
        '  section "API"',
    ]
    # Not written: a link stays after the nearest item before it that stays.
    renamed = SECTIONS.replace("Guides, siteSpaces", "Start, siteSpaces")
    unwritten = k.plan(renamed, live(API, GUIDES, STATUS))
    (picture,) = unwritten.structures
    assert [line for line in picture["after"] if "link" in line or "section" in line] == [
        '  section "Start"  (default)',
        '  section "API"',
        link,
    ]

"""The fields of a site's children production's requests take, planned without HTTP: localized
texts language by language (`Field.keyed`: only the languages written are managed, each one a
line of the plan; a language written null removes it; a link's whole map written null removes
every language; the request carries the live map with the written languages merged in; the
keys and limits production's schemas give checked offline), and a site space's home page sent
again with a new space, which production's PATCH would drop."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.core.model import FieldChange
from docsync.kinds.nested.payloads import ChildChange, child
from docsync.manifest import ManifestError
from tests.core import plankit as k

SPACE = {"id": "sp1", "title": "Guides"}
GUIDES = 'site["Docs"].section["Guides"]'
STATUS = 'site["Docs"].external_link["Status"]'
TITLES = {"de": "Anleitungen", "fr": "Guides", "it": "Guide"}


def live(**section: Any) -> dict[str, Any]:
    """A site of one section (its fields `section`) and one external link titled in German."""
    link = {
        "object": "site-external-link",
        "id": "l1",
        "title": "Status",
        "url": "https://status.acme.example",
        "localizedTitle": {"de": "Status", "fr": "État"},
        "draft": False,
    }
    guides = k.section("sec1", "Guides", k.site_space("ss1", "sp1", "guides", True), **section)
    return {"space": [SPACE], "site": [k.site("s1", "Docs", [link, guides])]}  # a link first


def manifest(section: str = "", link: str = "") -> str:
    return f"""\
sites:
  - title: Docs
    sections:
      - {{title: Guides, siteSpaces: [{{space: Guides, path: guides}}]{section}}}
    externalLinks:
      - {{title: Status, url: "https://status.acme.example"{link}}}
"""


def changes(plan: Any, address: str) -> list[tuple[str, Any, Any]]:
    [action] = [a for a in plan.actions if a.address == address]
    return [(c.field, c.before, c.after) for c in action.changes if isinstance(c, FieldChange)]


def test_each_language_written_is_a_line_and_the_request_carries_the_merged_map() -> None:
    written = ", localizedTitle: {de: Leitfäden, fr: null, es: Guías}"
    plan = k.plan(manifest(written), live(localizedTitle=TITLES))
    assert changes(plan, GUIDES) == [
        ("localizedTitle.de", "Anleitungen", "Leitfäden"),
        ("localizedTitle.fr", "Guides", None),
        ("localizedTitle.es", None, "Guías"),
    ]
    [action] = [a for a in plan.actions if a.address == GUIDES]
    # Italian is not written: kept, and sent back as it is; French is removed.
    assert child(action).fields == {
        "localizedTitle": {"de": "Leitfäden", "it": "Guide", "es": "Guías"}
    }


def test_languages_as_they_are_plan_nothing_whatever_else_is_live() -> None:
    for written in (", localizedTitle: {de: Anleitungen}", ", localizedTitle: {es: null}", ""):
        assert k.plan(manifest(written), live(localizedTitle=TITLES)).actions == []
    # production answers `{}` for none; the description's mode leaves the field out
    assert k.plan(manifest(", localizedTitle: {de: null}"), live()).actions == []
    assert k.plan(manifest(", localizedTitle: {de: null}"), live(localizedTitle={})).actions == []


def test_a_links_map_written_null_removes_every_language() -> None:
    plan = k.plan(manifest(link=", localizedTitle: null"), live())
    assert changes(plan, STATUS) == [
        ("localizedTitle.de", "Status", None),
        ("localizedTitle.fr", "État", None),
    ]
    [action] = plan.actions
    assert child(action).fields == {"localizedTitle": {}}


def test_a_new_item_is_created_with_its_languages_and_none_written_null() -> None:
    text = manifest(", localizedDescription: {de: Konzepte, fr: null}, draft: true")
    text = text.replace("title: Guides,", "title: Reference,")
    plan = k.plan(text, live())
    made = next(a for a in plan.actions if a.verb == "create" and "Reference" in a.address)
    assert [(c.field, c.after) for c in made.changes if c.field != "title"] == [
        ("localizedDescription.de", "Konzepte"),
        ("draft", True),
    ]
    payload = made.payload
    assert isinstance(payload, ChildChange)
    assert payload.fields["localizedDescription"] == {"de": "Konzepte"}


@pytest.mark.parametrize(
    ("written", "message"),
    [
        (", localizedTitle: {xx: Titel}", "localizedTitle.xx"),
        (", localizedTitle: {de: " + "x" * 129 + "}", "at most 128 characters"),
        (", localizedDescription: {de: " + "x" * 257 + "}", "at most 256 characters"),
        (", localizedTitle: null", "localizedTitle"),  # production's section PATCH takes none
    ],
)
def test_validate_refuses_what_production_refuses(written: str, message: str) -> None:
    with pytest.raises(ManifestError) as refused:
        k.load(manifest(written))
    assert message in str(refused.value), str(refused.value)


def test_a_home_page_goes_with_the_new_space_that_would_drop_it() -> None:
    page = {"id": "ss1", "space": {"id": "sp1"}, "path": "guides", "pageId": "p1"}
    items = live()
    items["space"].append({"id": "sp2", "title": "API"})
    items["site"][0]["_structure"]["structure"][1]["siteSpaces"] = [page | {"default": True}]
    written = manifest().replace(
        "{space: Guides, path: guides}", "{space: API, path: guides, pageId: p1}"
    )
    [action] = k.plan(written, items).actions
    assert [c.field for c in action.changes] == ["space"]  # the page is as it was
    assert child(action).fields == {"space": {"$ref": 'space["API"]'}, "pageId": "p1"}
    assert "its pageId is sent again: a new space drops the home page" in action.notes

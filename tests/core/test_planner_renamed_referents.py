"""A rename and whatever names the renamed item plan as one change, for every kind that names
a renamable one (derived from the declarations: a reference field, `Field.ref`, or a key that
names a resource, `Declaration.key_names`): the manifest renames the item with `was:` and the
other entry names it by its new name. The plan is the rename's update and nothing else of the
naming kind: never a delete and a create of one live item, which run at once (the delete wins,
and the create fails), nor an update that moves it to where it is."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.kinds.catalogue import CATALOGUE
from tests.core import plankit as k
from tests.core.test_planner_external_links import API, GUIDES, STATUS
from tests.core.test_planner_external_links import SPACES as SITE_SPACES

SAML = {
    "id": "p1",
    "label": "Okta",
    "ssoURL": "https://okta.acme.example/sso",
    "entityID": "urn:acme",
    "defaultTeam": {"id": "t1"},
}
SAML_ENTRY = '{label: Okta, ssoURL: "https://okta.acme.example/sso", entityID: urn:acme, '
GROUPED = k.group("g1", "More", API) | {"children": [API, STATUS | {"sectionGroup": "g1"}]}
SITE_SECTIONS = (
    "sites:\n  - title: Docs\n    sections:\n"
    "      - {title: Guides, siteSpaces: [{space: Guides, path: guides}]}\n"
    "      - {title: API, siteSpaces: [{space: API, path: api}]}\n"
)
INSTALLED = {
    "id": "i1",
    "name": "google-analytics",
    "configuration": {"tracking_id": "G-1"},
    "_integration_sites": [{"site": "s1", "configuration": {}}],
    "_integration_spaces": [{"space": "sp1", "configuration": {}}],
}
SCHEMAS = {"google-analytics": {"account": {}, "site": {}, "space": {}}}


def _collection(ident: str, title: str, parent: str | None = None, **more: Any) -> Any:
    return {"id": ident, "title": title, **({"parent": parent} if parent else {}), **more}


#: (kind, what names, the renamable kind named) -> (manifest, live items (the organization's
#: own under `organization`), the plan's steps)
CASES: dict[tuple[str, str, str], tuple[str, dict[str, Any], list[str]]] = {
    ("saml", "defaultTeam", "team"): (
        f"teams: [{{title: Authors, was: Writers}}]\nsaml: [{SAML_ENTRY}defaultTeam: Authors}}]",
        {"team": [{"id": "t1", "title": "Writers"}], "saml": [SAML]},
        ['update team["Authors"]'],
    ),
    ("collection", "parent", "collection"): (
        "collections: [{title: Devs, was: Dev}, {title: Internal, parent: Devs}]",
        {"collection": [_collection("c1", "Dev"), _collection("c2", "Internal", "c1")]},
        ['update collection["Devs"]'],
    ),
    ("space", "collection", "collection"): (
        "collections: [{title: Devs, was: Dev}]\nspaces: [{title: Guides, collection: Devs}]",
        {
            "collection": [_collection("c1", "Dev")],
            "space": [{"id": "sp1", "title": "Guides", "parent": "c1"}],
        },
        ['update collection["Devs"]'],
    ),
    ("translation", "space", "space"): (
        "spaces: [{title: Manuals, was: Guides}]\ntranslations: [{space: Manuals, language: fr}]",
        {
            "space": [{"id": "sp1", "title": "Guides"}],
            "translation": [
                {"id": "tr1", "language": "fr", "source": {"space": "sp1", "language": "en"}}
            ],
        },
        ['update space["Manuals"]'],
    ),
    ("site_space", "space", "space"): (
        "spaces: [{title: Manuals, was: Guides}]\nsites:\n  - title: Docs\n    sections:\n"
        "      - {title: Guides, siteSpaces: [{space: Manuals, path: guides}]}\n",
        {"space": [{"id": "sp1", "title": "Guides"}], "site": [k.site("s1", "Docs", [GUIDES])]},
        ['update space["Manuals"]'],
    ),
    ("section_group", "sections", "section"): (
        SITE_SECTIONS.replace("{title: API,", "{title: Reference, was: API,")
        + "    sectionGroups: [{title: More, sections: [Reference]}]\n",
        {"space": SITE_SPACES, "site": [k.site("s1", "Docs", [GUIDES, GROUPED])]},
        ['update site["Docs"].section["Reference"]'],
    ),
    ("external_link", "group", "section_group"): (
        SITE_SECTIONS
        + "    sectionGroups: [{title: Extras, was: More, sections: [API]}]\n"
        + '    externalLinks: [{title: Status, url: "https://status.acme.example", '
        "group: Extras, after: API}]\n",
        {"space": SITE_SPACES, "site": [k.site("s1", "Docs", [GUIDES, GROUPED])]},
        ['update site["Docs"].section_group["Extras"]'],
    ),
    ("settings", "defaultContent", "site"): (
        "sites: [{title: Handbook, was: Docs}]\nsettings: {defaultContent: {site: Handbook}}",
        {
            "site": [k.site("s1", "Docs", [])],
            "organization": k.ORG | {"defaultContent": {"type": "site", "site": "s1"}},
        },
        ['update site["Handbook"]'],
    ),
    ("grant", "principal", "team"): (
        "teams: [{title: Authors, was: Writers}]\n"
        "collections: [{title: Dev, permissions: {teams: {Authors: read}}}]",
        {
            "team": [{"id": "t1", "title": "Writers"}],
            "collection": [
                _collection(
                    "c1",
                    "Dev",
                    _grants={
                        "teams": [{"permission": "read", "team": {"id": "t1", "title": "Writers"}}]
                    },
                )
            ],
        },
        ['update team["Authors"]'],
    ),
    ("integration_site", "site", "site"): (
        "sites: [{title: Handbook, was: Docs}]\n"
        "integrations: [{name: google-analytics, sites: {Handbook: {}}}]",
        {"site": [k.site("s1", "Docs", [])], "integration": {"items": [INSTALLED]}},
        ['update site["Handbook"]'],
    ),
    ("site", "styleguide", "space"): (
        "spaces: [{title: House style, was: Style guide}]\n"
        "sites: [{title: Docs, styleguide: House style}]",
        {
            "space": [{"id": "sp9", "title": "Style guide", "type": "styleguide"}],
            "site": [k.site("s1", "Docs", [], styleguide={"kind": "space", "space": "sp9"})],
        },
        ['update space["House style"]'],
    ),
    ("integration_space", "space", "space"): (
        "spaces: [{title: Manuals, was: Guides}]\n"
        "integrations: [{name: google-analytics, spaces: {Manuals: {}}}]",
        {"space": [{"id": "sp1", "title": "Guides"}], "integration": {"items": [INSTALLED]}},
        ['update space["Manuals"]'],
    ),
}


def referrers() -> set[tuple[str, str, str]]:
    """Every (kind, field or key, renamable kind it names) the declarations say."""
    renamable = {d.name for d in CATALOGUE if d.renames}
    found = set()
    for declared in CATALOGUE:
        found |= {(declared.name, f.name, f.ref) for f in declared.fields if f.ref in renamable}
        found |= {(declared.name, declared.key, t) for t in declared.key_names if t in renamable}
    return found


def test_every_kind_naming_a_renamable_one_has_its_case() -> None:
    assert set(CASES) == referrers()


@pytest.mark.parametrize("case", sorted(CASES), ids="-".join)
def test_a_rename_and_what_names_it_by_its_new_name_plan_one_change(
    case: tuple[str, str, str],
) -> None:
    manifest, items, steps = CASES[case]
    items = dict(items)
    if "integration" in items:
        items["integration"] = items["integration"] | {"schemas": SCHEMAS}
    plan = k.plan(manifest, items, items.pop("organization", None))
    assert k.steps(plan) == steps
    touched = [a.live_id for a in plan.actions if a.live_id is not None]
    assert len(touched) == len(set(touched)), k.steps(plan)

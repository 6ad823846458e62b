"""Desired + live -> actions, without HTTP, for every kind (the end-to-end tests prove the HTTP
side). Each case: a manifest, the live state as the API shows it, the expected plan steps or
the expected problem."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.core.context import ref
from docsync.core.errors import PlanProblems
from docsync.kinds.nested.payloads import GroupMembership, child
from docsync.manifest import ManifestError
from docsync.render.markdown import render_markdown
from tests.core import plankit as k

GUIDES = {"id": "sp1", "title": "Guides"}


def docs_sections(*sections: str) -> str:
    """A manifest of the site Docs with these sections (YAML flow mappings)."""
    return "sites:\n  - title: Docs\n    sections:\n" + "".join(f"      - {s}\n" for s in sections)


API = {"id": "sp2", "title": "API"}
DOCS = k.site(
    "s1",
    "Docs",
    [
        k.section("sec1", "Guides", k.site_space("ss1", "sp1", "guides", True), default=True),
        k.section("sec2", "API", k.site_space("ss2", "sp2", "api", True)),
    ],
)
LIVE: dict[str, Any] = {
    "member": [
        {"id": "u1", "role": "admin", "user": {"id": "u1", "email": "ada@acme.example"}},
        {"id": "u2", "role": "read", "user": {"id": "u2", "email": "lin@acme.example"}},
    ],
    "team": [{"id": "t1", "title": "Platform"}],
    "saml": [{"id": "sa1", "label": "Okta", "ssoURL": "https://okta.example/sso"}],
    "collection": [{"id": "c1", "title": "Dev"}, {"id": "c2", "title": "Old"}],
    "space": [GUIDES | {"parent": "c1"}, API, {"id": "sp3", "title": "Notes", "parent": "c2"}],
    "openapi": [{"id": "spec", "slug": "spec", "sourceURL": "https://acme.example/o.yaml"}],
    "translation": [
        {"id": "tr1", "title": "French"},
        {"id": "tr2", "source": {"space": "sp1", "language": "en"}, "language": "fr"},
    ],
    "site": [DOCS],
    "invite_link": [{"id": "inv1", "role": "read"}, {"id": "inv2", "role": None}],
}

CASES = [
    # (name, manifest, expected steps)
    (
        "member role",
        "members: [{email: LIN@acme.example, role: edit}]",
        ['update member["lin@acme.example"]'],
    ),
    ("team rename by id", "teams: [{id: t1, title: Core}]", ['update team["Core"]']),
    ("team create", "teams: [{title: Docs}]", ['create team["Docs"]']),
    ("team prune", "prune: [teams]\nteams: []", ['delete team["Platform"]']),
    (
        "saml update",
        "saml: [{label: Okta, ssoURL: 'https://okta.example/new'}]",
        ['update saml["Okta"]'],
    ),
    (
        "collection absent",
        "collections: [{title: Old, state: absent}]\n"
        "spaces: [{title: Notes, collection: Old, state: absent}]",
        ['delete space["Old/Notes"]', 'delete collection["Old"]'],
    ),
    ("space move", "spaces: [{id: sp2, title: API, collection: Dev}]", ['update space["Dev/API"]']),
    (
        "openapi source",
        "openapi: [{slug: spec, source: {url: 'https://acme.example/p.yaml'}}]",
        ['update openapi["spec"]'],
    ),
    (
        "translation delete",
        "translations: [{title: French, state: absent}]",
        ['delete translation["French"]'],
    ),
    ("translation of a space unchanged", "translations: [{space: Guides, language: fr}]", []),
    (
        "translation into a new language",
        "translations: [{space: API, language: de}]",
        ['create translation["API:de"]'],
    ),
    (
        "translation from another source language is replaced",
        "translations: [{space: Guides, language: fr, sourceLanguage: de}]",
        ['replace translation["Dev/Guides:fr"]'],
    ),
    (
        "translation pruned by space and language",
        "prune: [translations]\ntranslations: [{title: French}]",
        ['delete translation["Dev/Guides:fr"]'],
    ),
    ("settings", "settings: {defaultContent: {site: Docs}}", ["update settings"]),
    (
        "invite links: keyed by role, null a guest link, exact",
        "inviteLinks: [{role: null}, {role: edit}]",
        ['create invite_link["edit"]', 'delete invite_link["read"]'],
    ),
    (
        "invite links: none written, every one deleted",
        "inviteLinks: []",
        ['delete invite_link["read"]', 'delete invite_link["guest"]'],
    ),
    ("site unchanged", "sites: [{title: Docs}]", []),
    (
        "section rename by id",
        docs_sections(
            "{id: sec1, title: Start, siteSpaces: [{space: Guides, path: guides, default: true}]}",
            "{title: API, siteSpaces: [{space: API, path: api}]}",
        ),
        ['update site["Docs"].section["Start"]'],
    ),
    (
        "site space added",
        docs_sections(
            "{title: Guides, siteSpaces: [{space: Guides, path: guides, default: true}, "
            "{space: API, path: more}]}",
            "{title: API, siteSpaces: [{space: API, path: api}]}",
        ),
        ['create site["Docs"].section["Guides"].site_space["more"]', 'reorder site["Docs"]'],
    ),
    (
        "exact list deletes",
        docs_sections(
            "{title: Guides, siteSpaces: [{space: Guides, path: guides, default: true}]}",
        ),
        ['delete site["Docs"].section["API"]'],
    ),
    (
        "group created in written order",
        "sites:\n  - title: Docs\n    sectionGroups: [{title: G, sections: [API, Guides]}]",
        ['create site["Docs"].section_group["G"]'],
    ),
]


@pytest.mark.parametrize(("manifest", "expected"), [pytest.param(m, e, id=n) for n, m, e in CASES])
def test_plan_steps(manifest: str, expected: list[str]) -> None:
    assert k.steps(k.plan(manifest, LIVE)) == expected


def test_a_new_translation_starts_from_the_space_language_else_english() -> None:
    live = {**LIVE, "space": [*LIVE["space"][:1], API | {"language": "ja"}, *LIVE["space"][2:]]}
    planned = k.plan(
        "translations: [{space: API, language: de}, {space: Guides, language: it}]", live
    )
    sources = {a.address: a.payload.fields["sourceLanguage"] for a in planned.actions}  # type: ignore[attr-defined]
    assert sources == {'translation["API:de"]': "ja", 'translation["Dev/Guides:it"]': "en"}


def test_a_protected_translation_is_not_replaced() -> None:
    manifest = "translations: [{space: Guides, language: fr, sourceLanguage: de, protect: true}]"
    with pytest.raises(PlanProblems, match="changes `sourceLanguage`, which forces a replace"):
        k.plan(manifest, LIVE)


PROBLEMS = [
    (
        "team pinned to a missing id",
        "teams: [{id: t_gone, title: X}]",
        "teams[0].id: no team with id 't_gone' in the organization",
    ),
    (
        "section pinned to a missing id",
        docs_sections(
            "{id: sec_gone, title: Guides, siteSpaces: [{space: Guides, path: guides}]}",
        ),
        "sites[0].sections[0].id: no section with id 'sec_gone' in site[\"Docs\"]; remove `id:`",
    ),
    (
        "site space pinned to a missing id",
        docs_sections(
            "{title: Guides, siteSpaces: [{id: ss_gone, space: Guides, path: guides}]}",
            "{title: API}",
        ),
        "sites[0].sections[0].siteSpaces[0].id: no site space with id 'ss_gone' "
        'in site["Docs"].section["Guides"]',
    ),
    (
        "group pinned to a missing id",
        "sites:\n  - title: Docs\n    sectionGroups: [{id: g_gone, title: G, sections: [API]}]",
        "sites[0].sectionGroups[0].id: no section group with id 'g_gone' in site[\"Docs\"]",
    ),
]


@pytest.mark.parametrize(
    ("manifest", "message"), [pytest.param(m, e, id=n) for n, m, e in PROBLEMS]
)
def test_a_stale_pinned_id_is_a_located_problem_never_a_create(manifest: str, message: str) -> None:
    with pytest.raises(PlanProblems) as raised:
        k.plan(manifest, LIVE)
    assert message in str(raised.value)
    assert "manifest.yaml:" in str(raised.value)


def test_a_pinned_section_found_again_is_updated_not_recreated() -> None:
    manifest = docs_sections(
        "{id: sec2, title: API}",
        "{id: sec1, title: Guides}",
    )
    steps = k.steps(k.plan(manifest, LIVE))
    assert not [s for s in steps if s.startswith(("create", "delete"))], steps


def test_replacing_the_default_site_is_refused_while_planning() -> None:
    live = {"site": [k.site("s1", "Docs", [], type="basic")]}
    organization = k.ORG | {"defaultContent": {"type": "site", "site": "s1"}}
    with pytest.raises(PlanProblems) as raised:
        k.plan("sites: [{title: Docs, type: premium}]", live, organization)
    message = str(raised.value)
    assert "manifest.yaml:" in message and 'site["Docs"] would be replaced' in message
    assert "settings refers to it" in message


def test_replacing_a_site_nothing_names_is_planned() -> None:
    live = {"site": [k.site("s1", "Docs", [], type="basic")]}
    assert k.steps(k.plan("sites: [{title: Docs, type: premium}]", live)) == [
        'replace site["Docs"]'
    ]


def test_replacing_the_default_site_waits_for_the_settings_that_let_it_go() -> None:
    """The same plan points the organization's default elsewhere: the replace's delete must
    run after that update, else the API refuses it (409) and the new site is never made."""
    live = {"site": [k.site("s1", "Docs", [], type="basic")]}
    organization = k.ORG | {"defaultContent": {"type": "site", "site": "s1"}}
    manifest = "settings: {defaultContent: null}\nsites: [{title: Docs, type: premium}]"
    plan = k.plan(manifest, live, organization)
    (replace,) = [a for a in plan.actions if a.verb == "replace"]
    assert replace.depends_on == ["update settings"]
    assert k.steps(plan) == ["update settings", 'replace site["Docs"]']


def test_an_ambiguous_space_title_offers_each_space_by_its_path() -> None:
    """Two live spaces titled Guides in two collections: `space: Guides` is ambiguous, and
    `Dev/Guides` names one (as plans do); the message offered only the ids."""
    live = {
        "collection": [{"id": "c1", "title": "Dev"}, {"id": "c2", "title": "Old"}],
        "space": [GUIDES | {"parent": "c1"}, {"id": "sp9", "title": "Guides", "parent": "c2"}],
    }
    manifest = "sites:\n  - title: Docs\n    siteSpaces: [{space: Guides, path: g}]"
    with pytest.raises(PlanProblems) as raised:
        k.plan(manifest, live)
    assert (
        "space 'Guides' is ambiguous: 'Dev/Guides' (id sp1), 'Old/Guides' (id sp9); write one "
        "of those, or an id"
    ) in str(raised.value)
    by_path = k.plan(manifest.replace("space: Guides", "space: Old/Guides"), live)
    assert 'create site["Docs"].site_space["g"]' in k.steps(by_path)


def test_group_members_are_shown_as_written_and_compared_as_a_set() -> None:
    live = {
        "space": [GUIDES, API],
        "site": [
            k.site(
                "s1",
                "Docs",
                [
                    k.group(
                        "g1",
                        "G",
                        k.section("sec1", "Guides", k.site_space("ss1", "sp1", "guides", True)),
                        k.section("sec2", "API", k.site_space("ss2", "sp2", "api", True)),
                    ),
                ],
            )
        ],
    }
    same = "sites:\n  - title: Docs\n    sectionGroups: [{title: G, sections: [API, Guides]}]"
    group = k.plan(same, live)
    assert [a for a in group.actions if a.kind == "section_group"] == []
    created = k.plan(same.replace("title: G", "title: H"), live)
    change = next(
        c
        for a in created.actions
        if a.verb == "create" and a.kind == "section_group"
        for c in a.changes
        if c.field == "sections"
    )
    assert change.after == ['site["Docs"].section["API"]', 'site["Docs"].section["Guides"]']


def test_a_section_moving_between_groups_is_one_add_and_no_remove() -> None:
    """Production moves a section with one PATCH naming its new group: the old group does not
    take it out first (that would cost a request and put it at the root for nothing)."""
    live = {
        "space": [GUIDES, API],
        "site": [
            k.site(
                "s1",
                "Docs",
                [
                    k.group(
                        "g1",
                        "A",
                        k.section("sec1", "Guides", k.site_space("ss1", "sp1", "guides", True)),
                        k.section("sec2", "API", k.site_space("ss2", "sp2", "api", True)),
                    ),
                    k.group("g2", "B"),
                ],
            )
        ],
    }
    manifest = (
        "sites:\n  - title: Docs\n    sectionGroups:\n"
        "      - {title: A, sections: [Guides]}\n      - {title: B, sections: [API]}\n"
    )
    updates = {
        a.address.rsplit(".", 1)[-1]: a
        for a in k.plan(manifest, live).actions
        if a.kind == "section_group" and a.verb == "update"
    }
    a, b = updates['section_group["A"]'], updates['section_group["B"]']
    assert child(a).membership == GroupMembership(add=[], remove=[])
    assert child(b).membership == GroupMembership(add=[ref('site["Docs"].section["API"]')])
    assert a.key not in b.depends_on and b.key not in a.depends_on
    left = manifest.replace("{title: B, sections: [API]}", "{title: B, sections: []}")
    (only,) = [a for a in k.plan(left, live).actions if a.verb == "update"]
    assert child(only).membership == GroupMembership(remove=[ref('site["Docs"].section["API"]')])


def test_a_new_site_is_ordered_by_its_creates_without_a_check() -> None:
    """A new site holds only what the apply creates, one after the other: nothing to re-read."""
    manifest = (
        "sites:\n  - title: New\n    sections:\n"
        "      - {title: Start, siteSpaces: [{space: Guides, path: a}, {space: API, path: b}]}\n"
        "      - {title: Next, siteSpaces: [{space: API, path: c}]}"
    )
    result = k.plan(manifest, {"space": [GUIDES, API]})
    assert "reorder" not in [a.verb for a in result.actions]


def test_an_order_check_is_not_shown_as_zero_changes() -> None:
    manifest = docs_sections(
        "{title: Guides, default: true, siteSpaces: [{space: Guides, path: guides}]}",
        "{title: API, siteSpaces: [{space: API, path: api}]}",
        "{title: Start, siteSpaces: [{space: Guides, path: a}]}",
    )
    result = k.plan(manifest, {"space": [GUIDES, API], "site": [DOCS]})
    assert "reorder" in [a.verb for a in result.actions]
    markdown = render_markdown(result)
    assert "(0 changes)" not in markdown
    assert "(order checked after the creates)" in markdown


def test_a_protected_site_is_never_replaced() -> None:
    live = {"site": [k.site("s1", "Docs", [], type="basic")]}
    with pytest.raises(PlanProblems, match="forces a replace, but is protected"):
        k.plan("sites: [{title: Docs, type: premium, protect: true}]", live)


def test_every_action_carries_a_typed_payload() -> None:
    from docsync.core.payloads import Fields
    from docsync.kinds.nested.parts import OnSite
    from docsync.kinds.nested.payloads import ChildChange, Level, Reorder
    from docsync.kinds.organization.team_members import TeamFields

    manifest = (
        docs_sections(
            "{title: Guides, siteSpaces: [{space: Guides, path: guides, default: true}, "
            "{space: API, path: more}]}",
            "{title: API, siteSpaces: [{space: API, path: api}]}",
        )
        + "teams: [{title: Docs, members: [ada@acme.example]}]\n"
    )
    shapes = {(a.verb, a.kind): a.payload for a in k.plan(manifest, LIVE).actions}
    team = shapes[("create", "team")]
    assert isinstance(team, TeamFields) and team.members is not None
    assert team.members.after == ["u1"] and team.fields["memberIds"] == ["u1"]
    assert (team.members.add, team.members.remove, team.members.roles) == ([], [], {})
    space = shapes[("create", "site_space")]
    assert isinstance(space, ChildChange) and isinstance(space, OnSite)
    assert space.section == {"$ref": 'site["Docs"].section["Guides"]'}
    assert space.default_via is not None and space.default_via.kind == "section"
    reorder = shapes[("reorder", "site")]
    assert isinstance(reorder, Reorder) and all(isinstance(x, Level) for x in reorder.levels)
    assert set(reorder.refs()) == {'site["Docs"]'}
    assert not isinstance(space, Fields)


def test_an_entry_that_deletes_itself_may_name_another_the_manifest_deleted() -> None:
    """A collection deleted with its spaces is gone from the API: the spaces' entries, still
    `state: absent` and naming it, plan nothing. An entry that stays (refused offline), or a
    name no entry has, is still a problem."""
    gone = "collections: [{title: Box, state: absent}]\n"
    absent = gone + "spaces: [{title: Going, collection: Box, state: absent}]\n"
    assert k.plan(absent, {"collection": [], "space": []}).actions == []
    stays = gone + "spaces: [{title: Going, collection: Box}]\n"
    with pytest.raises(ManifestError, match="names a collection that this manifest deletes"):
        k.attempt(stays, {"collection": [], "space": []})
    nowhere = "spaces: [{title: Going, collection: Box, state: absent}]\n"
    problems = k.attempt(nowhere, {"collection": [], "space": []}).problems
    assert problems and all("no collection 'Box'" in problem for problem in problems)


@pytest.mark.parametrize(
    ("email", "role", "lowered"),
    [
        ("lin@acme.example", "edit", False),  # read -> edit: raised
        ("lin@acme.example", "null", True),  # read -> a guest
        ("ada@acme.example", "create", True),  # admin -> create
        ("ada@acme.example", "read", True),
    ],
)
def test_a_member_role_lowered_is_an_audience_change(email: str, role: str, lowered: bool) -> None:
    [action] = k.plan(f"members: [{{email: {email}, role: {role}}}]", LIVE).actions
    assert action.audience_change is lowered
    assert any("lowers access" in n for n in action.notes) is lowered


def test_lowering_a_member_role_needs_a_careful_look_as_a_lowered_grant_does() -> None:
    [action] = k.plan("members: [{email: ada@acme.example, role: read}]", LIVE).actions
    assert action.audience_change
    assert action.notes == ["AUDIENCE CHANGE: lowers access: admin -> read"]
    text = render_markdown(k.plan("members: [{email: ada@acme.example, role: read}]", LIVE))
    careful = text[text.index("#### Needs a careful look") : text.index("#### Actions")]
    assert '🟠 **update** `member["ada@acme.example"]`' in careful
    assert "lowers access: admin -&gt; read" in careful

"""Renames (`was:`) and references the plan removes, without a server: a rename is one update
of the live resource, never a create; `was:` is ignored once renamed; a reference to the old
name, or to what the plan deletes, is a located problem; a delete and a create alike warn."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.core.errors import PlanProblems
from docsync.manifest.problems import ManifestError
from tests.core import plankit as k

SAML = '{label: Okta, ssoURL: "https://x.example/sso", entityID: e1, certificate: c, '
LIVE: dict[str, Any] = {
    "team": [{"id": "t1", "title": "Writers"}, {"id": "t2", "title": "Ops"}],
    "collection": [{"id": "c1", "title": "Dev"}],
    "space": [{"id": "sp1", "title": "Guides", "parent": "c1"}],
    "site": [
        k.site("s1", "Docs", [k.section("sec1", "Guides", k.site_space("ss1", "sp1", "g", True))])
    ],
}


def problems(manifest: str) -> list[str]:
    with pytest.raises(PlanProblems) as caught:
        k.plan(manifest, LIVE)
    return [p.split(": ", 1)[1] for p in caught.value.problems]


@pytest.mark.parametrize(
    ("manifest", "steps"),
    [
        ("teams: [{title: Writers2, was: Writers}]", ['update team["Writers2"]']),
        (
            "collections: [{title: Devs, was: Dev}]\n"
            "spaces: [{title: Guides2, was: Guides, collection: Devs}]",
            ['update collection["Devs"]', 'update space["Devs/Guides2"]'],
        ),
        # a space of the renamed collection, named by its new path, is the live one
        (
            "collections: [{title: Devs, was: Dev}]\nspaces: [{title: Guides, collection: Devs}]",
            ['update collection["Devs"]'],
        ),
        (
            "sites:\n  - title: Docs\n    sections:\n"
            "      - {title: Manuals, was: Guides, siteSpaces: [{space: Guides, path: g}]}",
            ['update site["Docs"].section["Manuals"]'],
        ),
        # renamed already: `was` matches nothing and changes nothing
        ("teams: [{title: Ops, was: Operations}]", []),
    ],
)
def test_a_rename_is_one_update_of_the_same_resource(manifest: str, steps: list[str]) -> None:
    plan = k.plan(manifest, LIVE)
    assert k.steps(plan) == steps
    for action in plan.actions:
        assert action.live_id is not None and action.notes[0].startswith("was ")
    # A space in a renamed collection is not moved: its parent is the same collection.
    assert all(c.field != "collection" for a in plan.actions for c in a.changes)


def test_a_space_of_a_collection_renamed_in_the_same_plan_is_deleted_by_its_new_path() -> None:
    live = {"collection": LIVE["collection"], "space": LIVE["space"]}
    manifest = (
        "collections: [{title: Devs, was: Dev}]\n"
        "spaces: [{title: Guides, collection: Devs, state: absent}]"
    )
    assert k.steps(k.plan(manifest, live)) == [
        'update collection["Devs"]',
        'delete space["Dev/Guides"]',
    ]


def test_a_name_taken_twice_is_refused_where_was_says_it() -> None:
    # Within a collection, as live (of a kind keyed by its name alone, `validate` refuses it:
    # tests/manifest/test_manifest_renames.py).
    found = problems(
        "collections: [{title: Dev}]\n"
        "spaces: [{title: Guides2, was: Dev/Guides, collection: Dev}, "
        "{title: Guides, collection: Dev}]"
    )
    assert found == [
        'spaces[0].was: space["Dev/Guides"] is taken by another entry that keeps the name '
        "'Dev/Guides': one resource cannot be both"
    ]


def test_a_reference_to_the_old_name_is_refused_with_the_new_one() -> None:
    found = problems(f"teams: [{{id: t1, title: Writers2}}]\nsaml: [{SAML}defaultTeam: Writers}}]")
    assert found == [
        'saml[0].defaultTeam: names team["Writers"], which this plan renames to '
        'team["Writers2"]: after the apply the old name names nothing; write "Writers2"'
    ]
    # Renamed with `was:`, the manifest says it alone: refused as `validate` refuses it.
    with pytest.raises(ManifestError) as caught:
        k.plan(f"teams: [{{title: Writers2, was: Writers}}]\nsaml: [{SAML}defaultTeam: Writers}}]")
    assert "saml[0].defaultTeam: 'Writers' is the old name of the team at " in str(caught.value)


def test_a_reference_to_what_the_plan_deletes_is_refused_where_it_stands() -> None:
    found = problems(
        f"prune: [teams]\nteams: [{{title: Writers}}]\nsaml: [{SAML}defaultTeam: Ops}}]"
    )
    assert found == [
        'saml[0].defaultTeam: names team["Ops"], which this plan deletes (pruned: no manifest '
        "entry, and `prune` lists teams): after the apply it would name nothing; keep it, or "
        "name another"
    ]


def test_a_delete_and_a_create_alike_look_like_a_rename() -> None:
    plan = k.plan("prune: [teams]\nteams: [{title: Writers}, {title: Operations}]", LIVE)
    assert k.steps(plan) == ['create team["Operations"]', 'delete team["Ops"]']
    assert plan.warnings == [
        'team["Ops"] is deleted and team["Operations"] created alike: this looks like a rename; '
        'write `was: "Ops"` on the entry of team["Operations"] to rename it in place (its id, '
        "and what it holds, kept)"
    ]


def test_a_collection_moving_under_one_now_below_it_waits_for_that_one_to_move_out() -> None:
    """Operators holds Internal; the manifest turns it round (found by the every-kind property
    test): Operators' move into Internal would be refused while Internal is still inside it."""
    live = {
        "collection": [
            {"id": "c1", "title": "Operators"},
            {"id": "c2", "title": "Internal", "parent": "c1"},
        ]
    }
    manifest = (
        "collections:\n"
        "  - {title: Internal, was: Operators/Internal}\n"
        "  - {title: Operators, parent: Internal, was: Operators}\n"
    )
    result = k.plan(manifest, live)
    out, into = (next(a for a in result.actions if a.live_id == i) for i in ("c2", "c1"))
    assert out.key in into.depends_on
    assert into.key not in out.depends_on

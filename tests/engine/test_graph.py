"""docsync.core.graph without a server: edges from references, parents and releases; order."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docsync.core.errors import PlanError
from docsync.core.graph import link, order
from docsync.core.model import Action, FieldChange
from docsync.core.payloads import Fields
from docsync.core.state import LiveResource, LiveState


def live_state(*resources: LiveResource) -> LiveState:
    live = LiveState({"id": "org_acme", "title": "Acme"})
    for resource in resources:
        live.add(resource)
    return live


def resource(kind: str, key: str, refs: set[str] | None = None) -> LiveResource:
    return LiveResource(kind, f"id_{key}", key, f'{kind}["{key}"]', key, {}, refs=refs or set())


def test_create_waits_for_the_create_it_refers_to() -> None:
    team = Action("create", "team", 'team["Platform"]')
    saml = Action(
        "create", "saml", 'saml["Okta"]', payload=Fields(fields={"t": {"$ref": team.address}})
    )
    assert link([saml, team], live_state()) == []
    assert saml.depends_on == [team.key]
    assert team.depends_on == []
    assert order([saml, team]) == [team, saml]


def test_reference_to_an_existing_resource_adds_no_edge() -> None:
    update = Action("update", "team", 'team["Platform"]')
    saml = Action(
        "create", "saml", 'saml["Okta"]', payload=Fields(fields={"f": {"$ref": 'team["Platform"]'}})
    )
    link([saml, update], live_state())
    assert saml.depends_on == []


def test_child_address_waits_for_its_parent_create() -> None:
    parent = Action("create", "site", 'site["Docs"]')
    child = Action("create", "section", 'site["Docs"].section["Guides"]')
    link([child, parent], live_state())
    assert child.depends_on == [parent.key]


def test_actions_on_one_address_run_in_plan_order() -> None:
    update = Action("update", "section", 'section["A"]')
    reorder = Action("reorder", "section", 'section["A"]')
    link([update, reorder], live_state())
    assert reorder.depends_on == [update.key] and update.depends_on == []


def test_delete_waits_for_the_holder_to_release() -> None:
    team = resource("team", "Platform")
    saml = resource("saml", "Okta", refs={team.address})
    delete_team = Action("delete", "team", team.address)
    delete_saml = Action("delete", "saml", saml.address)
    assert link([delete_team, delete_saml], live_state(team, saml)) == []
    assert delete_team.depends_on == [delete_saml.key]
    assert order([delete_team, delete_saml]) == [delete_saml, delete_team]


def test_delete_waits_for_an_update_that_moves_away() -> None:
    collection = resource("collection", "Old")
    space = resource("space", "Guides", refs={collection.address})
    move = Action(
        "update",
        "space",
        space.address,
        [FieldChange("collection", collection.address, 'collection["New"]', reference=True)],
    )
    delete = Action("delete", "collection", collection.address)
    assert link([delete, move], live_state(collection, space)) == []
    assert delete.depends_on == [move.key]


def test_delete_of_something_still_referred_to_is_a_problem() -> None:
    team = resource("team", "Platform")
    saml = resource("saml", "Okta", refs={team.address})
    unrelated = Action("update", "saml", saml.address, [FieldChange("defaultRole", "read", "edit")])
    delete_team = Action("delete", "team", team.address)
    problems = link([delete_team, unrelated], live_state(team, saml))
    assert problems == [
        'team["Platform"] cannot be deleted: saml["Okta"] still refers to it: change that in its '
        "entry, or delete the entry, in the same plan"
    ]
    problems = link([delete_team], live_state(team, saml))
    assert len(problems) == 1


def test_a_holder_no_entry_matches_is_named_with_the_id_to_pin() -> None:
    """A space "moved" by writing it under another collection is another space by its key: the
    old one is left, unmanaged, in the collection to delete. "change or delete that entry"
    named an entry that does not exist."""
    collection = resource("collection", "A/B")
    space = resource("space", "A/B/S1", refs={collection.address})
    delete = Action("delete", "collection", collection.address)
    (problem,) = link([delete], live_state(collection, space))
    assert problem == (
        'collection["A/B"] cannot be deleted: space["A/B/S1"] still refers to it and no entry '
        "matches it (id id_A/B/S1): write one pinning `id: id_A/B/S1` that moves or renames it, "
        "or deletes it with `state: absent`"
    )
    (problem,) = link([delete], live_state(collection, space), matched={space.id})
    assert problem.endswith(
        "still refers to it: change that in its entry, or delete the entry, in the same plan"
    )


def test_children_deleted_before_their_parent() -> None:
    parent = Action("delete", "site", 'site["Docs"]')
    child = Action("delete", "section", 'site["Docs"].section["A"]')
    other = Action("delete", "site", 'site["Docs2"]')
    link([parent, child, other], live_state())
    assert parent.depends_on == [child.key]
    assert other.depends_on == []


def test_cycle_is_a_plan_error_naming_it() -> None:
    a = Action("create", "team", 'team["A"]', depends_on=['create team["B"]'])
    b = Action("create", "team", 'team["B"]', depends_on=['create team["A"]'])
    with pytest.raises(PlanError, match=r"dependency cycle: .*team\[\"A\"\]"):
        order([a, b])


def test_order_keeps_plan_order_among_ready_actions() -> None:
    actions = [Action("create", "team", f'team["{n}"]') for n in "dcba"]
    assert order(actions) == actions


def test_unknown_dependencies_are_ignored_by_order() -> None:
    action = Action("create", "team", 'team["A"]', depends_on=['create team["gone"]'])
    assert order([action]) == [action]


@given(st.lists(st.lists(st.integers(0, 11), max_size=4), min_size=1, max_size=12))
def test_order_respects_every_edge_and_keeps_every_action(raw: list[list[int]]) -> None:
    # Edges only point to earlier actions, so the graph is acyclic by construction.
    actions = [Action("create", "team", f'team["{i}"]') for i in range(len(raw))]
    for i, deps in enumerate(raw):
        actions[i].depends_on = sorted({actions[d].key for d in deps if d < i})
    ordered = order(list(reversed(actions)))
    assert sorted(a.key for a in ordered) == sorted(a.key for a in actions)
    position = {a.key: n for n, a in enumerate(ordered)}
    for action in actions:
        for dep in action.depends_on:
            assert position[dep] < position[action.key]


def test_delete_waits_for_a_holder_that_moves_under_a_new_address() -> None:
    collection = resource("collection", "Dev/Internal")
    space = resource("space", "Dev/Internal/Runbooks", refs={collection.address})
    move = Action(
        "update",
        "space",
        'space["Dev/Runbooks"]',  # the desired address: the space is moved (pinned id)
        [FieldChange("collection", collection.address, 'collection["Dev"]', reference=True)],
        live_id=space.id,
    )
    delete = Action("delete", "collection", collection.address)
    assert link([delete, move], live_state(collection, space)) == []
    assert delete.depends_on == [move.key]

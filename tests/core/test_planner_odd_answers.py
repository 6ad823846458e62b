"""An item the API answered otherwise than its kind relies on (production's answers differ from
its document): that one resource is left out of the plan, named at its entry with the request
and the field, and so is what needs it; the rest is planned. Without HTTP: the items are checked
and set aside as the client does (`check_items(keep_odd=True)`)."""

from __future__ import annotations

from typing import Any

from docsync.api.answers import Listed, check_items, set_aside
from docsync.kinds import KINDS
from tests.core import plankit as k

TEAMS_PATH = "/v1/orgs/org_acme/teams"


def listed(kind: str, items: list[dict[str, Any]], path: str = TEAMS_PATH) -> Listed:
    """`items` as the client hands them to `kind` when it keeps odd ones aside."""
    check_items("GET", path, items, KINDS.named(kind).answer, keep_odd=True)
    return set_aside(items)


def reasons(plan: Any) -> dict[str, str]:
    return {n.address: n.why for n in plan.not_planned}


def test_an_entry_matched_to_an_odd_item_is_not_planned_and_the_others_are() -> None:
    teams = listed("team", [{"title": "Platform"}, {"id": "t2", "title": "Writers"}])
    plan = k.plan(
        "teams: [{title: Platform}, {title: Writers}, {title: Docs}]",
        {"team": teams},
    )
    assert k.steps(plan) == ['create team["Docs"]']
    why = reasons(plan)['team["Platform"]']
    assert why == (
        f"GET {TEAMS_PATH}: item 0 of the list: `id` is missing (expected an id (non-empty text))"
    )
    [left_out] = plan.not_planned
    assert left_out.location and left_out.location.endswith("manifest.yaml:2:9")


def test_an_item_whose_key_is_odd_holds_back_the_creates_of_its_list() -> None:
    """A team whose title cannot be read may be any team the manifest wants: none is created,
    and the SAML provider that names a team held back is left out with it."""
    teams = listed("team", [{"id": "t1", "title": 7}, {"id": "t2", "title": "Writers"}])
    plan = k.plan(
        "teams: [{title: Platform}, {title: Writers}]\n"
        "saml: [{label: Okta, defaultTeam: Platform}]\n",
        {"team": teams, "saml": []},
    )
    assert k.steps(plan) == []
    why = reasons(plan)
    assert why['team["Platform"]'].startswith(
        "not created: a live team in the organization whose key docsync cannot read may be it "
        f"(GET {TEAMS_PATH}: item 0 of the list: `title` must be text, got 7)"
    )
    assert why['saml["Okta"]'] == 'it needs team["Platform"], which is not planned'
    assert 'team["Writers"]' not in why


def test_an_odd_item_is_never_deleted_by_an_exact_or_pruned_list() -> None:
    teams = listed("team", [{"id": "t1", "title": ["Old"]}, {"id": "t2", "title": "Gone"}])
    plan = k.plan("prune: [teams]\nteams: []\n", {"team": teams})
    assert k.steps(plan) == ['delete team["Gone"]']
    assert reasons(plan)['team["(unreadable t1)"]'].startswith(
        f"not deleted: GET {TEAMS_PATH}: item 0 of the list: `title` must be text, got a list"
    )


def test_a_field_no_kind_uses_is_never_checked() -> None:
    """A space's `gitSync` as production answers a sync through the GitHub integration, and
    fields the document lacks: the space is read and planned as any other."""
    space = {
        "id": "sp1",
        "title": "Guides",
        "gitSync": {"installationProvider": "github", "integration": "github", "url": "x"},
        "urls": {"location": "/spaces/sp1"},
        "somethingNew": {"a": 1},
    }
    spaces = listed("space", [space], "/v1/orgs/org_acme/spaces")
    assert not spaces.odd
    plan = k.plan("spaces: [{title: Guides, emoji: '1f4d8'}]", {"space": spaces})
    assert k.steps(plan) == ['update space["Guides"]']
    assert plan.not_planned == []

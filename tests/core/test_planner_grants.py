"""Grants planned without HTTP: one action per resource, exact per principal type written,
invites grouped by role, placeholders for what the apply creates, lowered access flagged, and
what `validate` finds offline."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from docsync.core.errors import PlanProblems
from docsync.core.lockout import Lockout
from docsync.kinds.grants import Grants, Invite, lockout
from docsync.manifest import ManifestError, load_manifests
from tests.core import plankit as k

TEAMS = [{"id": "t1", "title": "Writers"}, {"id": "t2", "title": "Platform"}]
MEMBERS = [
    {"id": "u1", "role": "admin", "user": {"id": "u1", "email": "ada@acme.example"}},
    {"id": "u2", "role": "edit", "user": {"id": "u2", "email": "lin@acme.example"}},
]


def team(ident: str, title: str, role: str | None) -> dict[str, Any]:
    return {"permission": role, "team": {"id": ident, "title": title}}


def user(ident: str, email: str, role: str | None) -> dict[str, Any]:
    return {"permission": role, "user": {"id": ident, "email": email}}


def live(**grants: list[dict[str, Any]]) -> dict[str, Any]:
    collection = {"id": "c1", "title": "Developers", "_grants": grants}
    return {"team": TEAMS, "member": MEMBERS, "collection": [collection]}


def manifest(permissions: str, extra: str = "") -> str:
    return f"collections:\n  - title: Developers\n    permissions: {permissions}\n{extra}"


def the_action(plan: Any) -> tuple[Any, Grants]:
    [action] = [a for a in plan.actions if a.address.endswith(".permissions")]
    assert action.verb == "update" and isinstance(action.payload, Grants)
    return action, action.payload


def test_only_what_differs_is_written_one_invite_per_role() -> None:
    plan = k.plan(
        manifest("{teams: {Writers: edit, Platform: admin}, members: {ada@acme.example: read}}"),
        live(
            teams=[team("t1", "Writers", "read")], members=[user("u2", "lin@acme.example", "edit")]
        ),
    )
    action, payload = the_action(plan)
    assert action.address == 'collection["Developers"].permissions'
    assert payload.invites == [Invite("admin", teams=["t2"]), Invite("read", users=["u1"])]
    assert payload.changes == [("teams", "t1", "edit")]
    assert payload.removals == [("users", "u2")]
    teams, members = action.changes
    assert (teams.before, teams.after) == (
        {"Writers": "read"},
        {"Writers": "edit", "Platform": "admin"},
    )
    assert (members.before, members.after) == (
        {"lin@acme.example": "edit"},
        {"ada@acme.example": "read"},
    )
    assert action.audience_change  # lin loses access
    assert payload.requests == 4


def test_same_grants_plan_nothing_and_an_unwritten_type_is_not_managed() -> None:
    plan = k.plan(
        manifest("{teams: {Writers: read}}"),
        live(teams=[team("t1", "Writers", "read")]),
    )
    assert plan.actions == []


def test_a_raised_role_is_not_an_audience_change_and_a_lowered_one_is() -> None:
    raised, _ = the_action(
        k.plan(manifest("{teams: {Writers: admin}}"), live(teams=[team("t1", "Writers", "read")]))
    )
    lowered, _ = the_action(
        k.plan(manifest("{teams: {Writers: read}}"), live(teams=[team("t1", "Writers", "admin")]))
    )
    assert not raised.audience_change
    assert lowered.audience_change
    assert 'teams["Writers"]: admin -> read' in lowered.notes[0]


def test_an_empty_mapping_removes_every_grant_of_its_type() -> None:
    _, payload = the_action(
        k.plan(
            manifest("{members: {}}"),
            live(members=[user("u1", "ada@acme.example", "admin")], teams=[]),
        )
    )
    assert payload.removals == [("users", "u1")] and not payload.invites


def test_new_resources_and_teams_are_placeholders_the_action_waits_for() -> None:
    plan = k.plan(
        "teams:\n  - title: Support\n"
        "collections:\n  - title: Partners\n    permissions: {teams: {Support: read}}\n",
        {"team": TEAMS, "member": MEMBERS, "collection": []},
    )
    action, payload = the_action(plan)
    assert payload.resource == {"$ref": 'collection["Partners"]'}
    assert payload.invites == [Invite("read", teams=[{"$ref": 'team["Support"]'}])]
    assert set(action.depends_on) == {'create collection["Partners"]', 'create team["Support"]'}


def test_unknown_team_and_member_are_located_problems() -> None:
    with pytest.raises(PlanProblems) as raised:
        k.plan(
            manifest("{teams: {Writer: read}, members: {olga@other.example: read}}"),
            live(teams=[], members=[]),
        )
    text = str(raised.value)
    assert "no team 'Writer'" in text and "did you mean 'Writers'?" in text
    assert "olga@other.example is not a member of the organization" in text


def _guard(plan_live: dict[str, Any], me: str) -> Lockout:
    state = k.live_state(plan_live)
    state.me = me
    return Lockout.of(state)


def test_removing_the_tokens_own_grant_is_a_lockout() -> None:
    items = live(members=[user("u1", "ada@acme.example", "admin")], teams=[])
    action, _ = the_action(k.plan(manifest("{members: {}}"), items))
    guard = _guard(items, "u1")
    lockout(action, guard)
    assert guard.problems and "own user's grant" in guard.problems[0]
    other = _guard(items, "u2")
    lockout(action, other)
    assert other.problems == []


def test_validate_checks_team_names_roles_and_members_offline(tmp_path: Path) -> None:
    text = textwrap.dedent(
        """\
        organization: org_acme
        teams:
          - title: Tech Writers
        members:
          - {email: old@acme.example, state: absent}
        collections:
          - title: Developers
            permissions:
              teams: {Tech Writerz: edit}
              members: {old@acme.example: read, lin@acme.example: raed}
        """
    )
    (tmp_path / "m.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ManifestError) as raised:
        load_manifests([tmp_path / "m.yaml"])
    problems = str(raised.value)
    assert "did you mean 'Tech Writers'?" in problems
    assert "member 'old@acme.example' is removed by this manifest" in problems
    assert "permissions.members.lin@acme.example" in problems


def test_markdown_shows_each_resources_access_table() -> None:
    from docsync.render.markdown import render_markdown

    plan = k.plan(
        manifest("{teams: {Writers: edit, Platform: read}, members: {}}"),
        live(
            teams=[team("t1", "Writers", "read"), team("t2", "Platform", "read")],
            members=[user("u1", "ada@acme.example", "admin")],
        ),
    )
    text = render_markdown(plan)
    assert "| principal | before | after |" in text
    assert "| **team Writers** | **read** | **edit** |" in text
    assert "| team Platform | read | read |" in text
    assert "| **member ada@acme.example** | **admin** | **—** |" in text


def test_a_deleted_team_says_which_grants_go_with_it() -> None:
    plan = k.plan(
        "teams:\n  - {title: Platform, state: absent}\n",
        live(teams=[team("t2", "Platform", "admin")]),
    )
    [action] = plan.actions
    assert action.verb == "delete" and action.address == 'team["Platform"]'
    assert 'its grants go with it: collection["Developers"]: admin' in action.notes


def site_live(**grants: list[dict[str, Any]]) -> dict[str, Any]:
    docs = k.site("s1", "Developer Docs", [], _grants=grants)
    return {"team": TEAMS, "member": MEMBERS, "site": [docs]}


def site_manifest(permissions: str) -> str:
    return f"sites:\n  - title: Developer Docs\n    permissions: {permissions}\n"


def test_a_site_guest_is_invited_as_null_and_a_null_read_back_plans_nothing() -> None:
    action, payload = the_action(
        k.plan(site_manifest("{teams: {Writers: null}}"), site_live(teams=[]))
    )
    assert payload.invites == [Invite(None, teams=["t1"])]
    assert action.audience_change and 'teams["Writers"]: no grant -> guest' in action.notes[0]
    same = k.plan(
        site_manifest("{teams: {Writers: null}}"), site_live(teams=[team("t1", "W", None)])
    )
    assert same.actions == []


def test_a_site_grant_made_a_guest_is_removed_then_invited_and_back_is_a_patch() -> None:
    down, payload = the_action(
        k.plan(
            site_manifest("{members: {ada@acme.example: null}}"),
            site_live(members=[user("u1", "ada@acme.example", "read")]),
        )
    )
    assert payload.removals == [("users", "u1")]
    assert payload.invites == [Invite(None, users=["u1"])] and payload.changes == []
    assert any("a DELETE, then an invite as guest" in note for note in down.notes)
    assert down.audience_change
    up, payload = the_action(
        k.plan(
            site_manifest("{members: {ada@acme.example: read}}"),
            site_live(members=[user("u1", "ada@acme.example", None)]),
        )
    )
    assert payload.changes == [("users", "u1", "read")] and payload.requests == 1
    assert not up.audience_change


def test_markdown_shows_a_guest_as_guest() -> None:
    from docsync.render.markdown import render_markdown

    plan = k.plan(
        site_manifest("{teams: {Writers: null}}"), site_live(teams=[team("t1", "Writers", "edit")])
    )
    assert "| **team Writers** | **edit** | **guest** |" in render_markdown(plan)


@pytest.mark.parametrize("section", ["collections", "spaces"])
def test_validate_refuses_a_guest_on_content_and_says_why(tmp_path: Path, section: str) -> None:
    where = "\n    collection: Developers" if section == "spaces" else ""
    text = (
        f"organization: org_acme\n{section}:\n  - title: Developers{where}\n"
        "    permissions: {teams: {Writers: null}}\n"
        "sites:\n  - title: Developer Docs\n    permissions: {teams: {Writers: null}}\n"
    )
    (tmp_path / "m.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ManifestError) as raised:
        load_manifests([tmp_path / "m.yaml"])
    problems = str(raised.value).splitlines()
    [problem] = [p for p in problems if "guest" in p]
    assert f"{section}[0].permissions.teams.Writers" in problem
    assert "m.yaml:" in problem
    assert "production lists content grants only with a role" in problem
    assert "give a role here, or leave the principal out" in problem
    assert not any("sites[0]" in p for p in problems)


def _in_teams(items: dict[str, Any], *teams: str) -> dict[str, Any]:
    member = {"organization": {"id": "u1"}, "team": {"role": "member"}}
    items["team"] = [t | {"_members": [member]} if t["id"] in teams else t for t in TEAMS]
    return items


def test_a_team_grant_removed_is_a_lockout_only_when_no_other_grant_keeps_the_user() -> None:
    grants = [team("t1", "Writers", "read"), team("t2", "Platform", "edit")]
    items = _in_teams(live(teams=grants), "t1", "t2")
    action, _ = the_action(k.plan(manifest("{teams: {Platform: edit}}"), items))
    kept = _guard(items, "u1")
    lockout(action, kept)
    assert kept.problems == []  # Platform keeps ada on the collection
    items = _in_teams(live(teams=grants), "t1")
    action, _ = the_action(k.plan(manifest("{teams: {Platform: edit}}"), items))
    gone = _guard(items, "u1")
    lockout(action, gone)
    assert [
        "removes the grant of a team the API token's user is in" in p for p in gone.problems
    ] == [True]


def test_lowering_the_tokens_only_admin_grant_is_a_lockout() -> None:
    items = live(members=[user("u1", "ada@acme.example", "admin")], teams=[])
    action, _ = the_action(k.plan(manifest("{members: {ada@acme.example: read}}"), items))
    guard = _guard(items, "u1")
    lockout(action, guard)
    assert (
        guard.problems
        and "lowers the API token's user's access from admin to read" in (guard.problems[0])
    )


def test_the_rails_read_only_teams_whose_grant_goes_or_is_lowered() -> None:
    from docsync.kinds.grants import teams_losing

    grants = [team("t1", "Writers", "admin"), team("t2", "Platform", "read")]
    items = live(teams=grants)
    raised = k.plan(manifest("{teams: {Writers: admin, Platform: edit}}"), items)
    assert teams_losing(raised.actions, k.live_state(items)) == set()
    lowered = k.plan(manifest("{teams: {Writers: edit}}"), items)
    assert teams_losing(lowered.actions, k.live_state(items)) == {"t1", "t2"}

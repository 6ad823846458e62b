"""Grants planned without HTTP: one action per grant (`collection["X"].grant[team "W"]`),
exact per principal type written, one invite per (resource, role) carried by the first create
of the role, placeholders for what the apply creates, lowered access flagged, the lockout rail,
and what `validate` finds offline."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from docsync.core.errors import PlanProblems
from docsync.core.lockout import Lockout
from docsync.core.model import Action, Plan
from docsync.kinds import KINDS
from docsync.kinds.access.grant_writes import Grant, Invite
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


def grants(plan: Plan) -> dict[str, Action]:
    """The plan's grant actions by `verb address`."""
    return {a.key: a for a in plan.actions if a.kind == "grant"}


def payload(action: Action) -> Grant:
    assert isinstance(action.payload, Grant)
    return action.payload


D = 'collection["Developers"]'


def test_one_action_per_grant_and_one_invite_per_role_carried_by_its_first_create() -> None:
    plan = k.plan(
        manifest(
            "{teams: {Writers: edit, Platform: admin}, "
            "members: {ada@acme.example: admin, lin@acme.example: read}}"
        ),
        live(
            teams=[team("t1", "Writers", "read")], members=[user("u2", "lin@acme.example", "edit")]
        ),
    )
    found = grants(plan)
    assert sorted(found) == [
        f'create {D}.grant[member "ada@acme.example"]',
        f'create {D}.grant[team "Platform"]',
        f'update {D}.grant[member "lin@acme.example"]',
        f'update {D}.grant[team "Writers"]',
    ]
    platform = found[f'create {D}.grant[team "Platform"]']
    ada = found[f'create {D}.grant[member "ada@acme.example"]']
    assert payload(platform).invite == Invite("admin", teams=["t2"], users=["u1"])
    assert payload(ada).invite is None and payload(ada).requests == 0
    assert platform.key in ada.depends_on
    assert 'invited in one request with grant[team "Platform"]' in ada.notes
    writers = found[f'update {D}.grant[team "Writers"]']
    [role] = writers.changes
    assert (role.field, role.before, role.after) == ("role", "read", "edit")
    assert not writers.audience_change
    lin = found[f'update {D}.grant[member "lin@acme.example"]']
    assert lin.audience_change and "lowers access: edit -> read" in lin.notes[0]
    assert sum(payload(a).requests for a in found.values()) == 3  # 1 invite, 2 PATCH
    assert platform.location is not None and platform.location.endswith(":4:52")  # at its role


def test_same_grants_plan_nothing_and_an_unwritten_type_is_not_managed() -> None:
    plan = k.plan(
        manifest("{teams: {Writers: read}}"),
        live(
            teams=[team("t1", "Writers", "read")], members=[user("u1", "ada@acme.example", "read")]
        ),
    )
    assert plan.actions == []


def test_a_grant_not_written_is_deleted_and_flagged() -> None:
    plan = k.plan(
        manifest("{members: {}}"),
        live(members=[user("u1", "ada@acme.example", "admin")], teams=[]),
    )
    [gone] = plan.actions
    assert gone.key == f'delete {D}.grant[member "ada@acme.example"]'
    assert gone.audience_change and payload(gone).requests == 1
    assert (gone.changes[0].before, gone.changes[0].after) == ("admin", None)


def test_new_resources_and_teams_are_placeholders_the_action_waits_for() -> None:
    plan = k.plan(
        "teams:\n  - title: Support\n"
        "collections:\n  - title: Partners\n    permissions: {teams: {Support: read}}\n",
        {"team": TEAMS, "member": MEMBERS, "collection": []},
    )
    [action] = grants(plan).values()
    assert action.address == 'collection["Partners"].grant[team "Support"]'
    assert payload(action).resource == {"$ref": 'collection["Partners"]'}
    assert payload(action).invite == Invite("read", teams=[{"$ref": 'team["Support"]'}])
    assert set(action.depends_on) == {'create collection["Partners"]', 'create team["Support"]'}


def test_text_shows_each_grant_with_its_role() -> None:
    from docsync.render.text import render_plan

    plan = k.plan(manifest("{teams: {Writers: edit}}"), live(teams=[team("t1", "Writers", "read")]))
    text = render_plan(plan, color=False)
    assert f'~ update {D}.grant[team "Writers"]' in text
    assert '~ role = "read" -> "edit"' in text


def test_unknown_team_and_member_are_located_problems() -> None:
    with pytest.raises(PlanProblems) as raised:
        k.plan(
            manifest("{teams: {Writer: read}, members: {olga@other.example: read}}"),
            live(teams=[], members=[]),
        )
    text = str(raised.value)
    assert "no team 'Writer'" in text and "did you mean 'Writers'?" in text
    assert "olga@other.example is not a member of the organization" in text


def test_one_principal_written_by_id_and_by_name_names_the_other_as_written() -> None:
    with pytest.raises(PlanProblems) as raised:
        k.plan(
            manifest(
                "{teams: {t1: read, Writers: edit}, members: {u2: edit, lin@acme.example: read}}"
            ),
            live(teams=[], members=[]),
        )
    problems = str(raised.value)
    assert (
        "collections[0].permissions.members.lin@acme.example: names the same member as 'u2' "
        "(lin@acme.example), written at "
    ) in problems
    assert (
        "collections[0].permissions.teams.Writers: names the same team as 't1' (Writers), "
        "written at "
    ) in problems
    assert ":4:67; keep one" in problems  # where u2 is written (at its role)


def _guard(plan_live: dict[str, Any], me: str) -> Lockout:
    state = k.live_state(plan_live)
    state.me = me
    return Lockout(state)


def _judged(plan: Plan, guard: Lockout) -> list[str]:
    """Every kind's rail, in the catalogue's order, each with its actions (as the engine's)."""
    for kind in KINDS:
        kind.lockout([a for a in plan.actions if a.kind == kind.name], guard)
    return guard.problems


#: the token's user in the lockout tests: lin, whose organization role (edit) is not admin
LIN = "lin@acme.example"


def test_removing_the_tokens_own_grant_is_a_lockout() -> None:
    items = live(members=[user("u2", LIN, "admin")], teams=[])
    plan = k.plan(manifest("{members: {}}"), items)
    [problem] = _judged(plan, _guard(items, "u2"))
    assert problem.startswith(f'{D}.grant[member "{LIN}"]: removes')
    assert "own user's grant" in problem
    assert _judged(plan, _guard(items, "u1")) == []  # not ada's grant (and ada is an admin)


def test_an_organization_admin_is_never_refused_by_grants() -> None:
    """Production's `admin` role administers all content whatever its grants: ada (admin)
    removing her own grant or lowering her only admin grant keeps her access."""
    from docsync.engine.safety import lockout as rails

    items = live(members=[user("u1", "ada@acme.example", "admin")], teams=[])
    for written in ("{members: {}}", "{members: {ada@acme.example: read}}"):
        plan = k.plan(manifest(written), items)
        assert _judged(plan, _guard(items, "u1")) == []
    # Demoted by the same plan, she is judged as any member.
    demote = "members:\n  - {email: ada@acme.example, role: edit}\n"
    demoted = k.plan(manifest("{members: {}}", demote), items)
    state = k.live_state(items)
    state.me = "u1"
    assert any("own user's grant" in problem for problem in rails(demoted, state))


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


def test_markdown_shows_each_resources_access_table_from_its_grant_actions() -> None:
    from docsync.render.markdown import render_markdown

    plan = k.plan(
        manifest("{teams: {Writers: edit, Platform: read}, members: {}}"),
        live(
            teams=[team("t1", "Writers", "read")],
            members=[user("u1", "ada@acme.example", "admin")],
        ),
    )
    text = render_markdown(plan)
    assert f"#### Access\n\n`{D}`\n\n| principal | before | after |" in text
    assert "| team Writers | read | edit |" in text
    assert "| team Platform | — | read |" in text
    assert "| member ada@acme.example | admin | — |" in text


def test_a_deleted_team_says_which_grants_go_with_it() -> None:
    plan = k.plan(
        "teams:\n  - {title: Platform, state: absent}\n",
        live(teams=[team("t2", "Platform", "admin")]),
    )
    [action] = plan.actions
    assert action.verb == "delete" and action.address == 'team["Platform"]'
    assert 'AUDIENCE CHANGE: its grants go with it: collection["Developers"]: admin' in action.notes


def test_a_deleted_team_whose_grants_are_managed_shows_them_going_first() -> None:
    plan = k.plan(
        "teams:\n  - {title: Platform, state: absent}\n" + manifest("{teams: {}}"),
        live(teams=[team("t2", "Platform", "admin")]),
    )
    assert k.steps(plan) == [
        f'delete {D}.grant[team "Platform"]',
        'delete team["Platform"]',
    ]
    assert f'delete {D}.grant[team "Platform"]' in plan.actions[1].depends_on


def site_live(**grants: list[dict[str, Any]]) -> dict[str, Any]:
    docs = k.site("s1", "Developer Docs", [], _grants=grants)
    return {"team": TEAMS, "member": MEMBERS, "site": [docs]}


def site_manifest(permissions: str) -> str:
    return f"sites:\n  - title: Developer Docs\n    permissions: {permissions}\n"


def test_a_site_guest_is_invited_as_null_and_a_null_read_back_plans_nothing() -> None:
    [action] = k.plan(site_manifest("{teams: {Writers: null}}"), site_live(teams=[])).actions
    assert action.key == 'create site["Developer Docs"].grant[team "Writers"]'
    assert payload(action).invite == Invite(None, teams=["t1"])
    assert action.audience_change and "a guest override" in action.notes[0]
    same = k.plan(
        site_manifest("{teams: {Writers: null}}"), site_live(teams=[team("t1", "W", None)])
    )
    assert same.actions == []


def test_a_site_grant_made_a_guest_is_removed_then_invited_and_back_is_a_patch() -> None:
    [down] = k.plan(
        site_manifest("{members: {ada@acme.example: null}}"),
        site_live(members=[user("u1", "ada@acme.example", "read")]),
    ).actions
    assert down.verb == "update" and payload(down).again and payload(down).requests == 2
    assert any("a DELETE, then an invite as guest" in note for note in down.notes)
    assert down.audience_change
    [up] = k.plan(
        site_manifest("{members: {ada@acme.example: read}}"),
        site_live(members=[user("u1", "ada@acme.example", None)]),
    ).actions
    assert up.verb == "update" and not payload(up).again and payload(up).requests == 1
    assert not up.audience_change


def test_grants_made_guests_share_the_sites_guest_invite_their_deletes_first() -> None:
    live_grants = site_live(
        teams=[team("t1", "Writers", "read")], members=[user("u2", "lin@acme.example", "edit")]
    )
    plan = k.plan(
        site_manifest(
            "{teams: {Writers: null, Platform: null}, "
            "members: {lin@acme.example: null, ada@acme.example: null}}"
        ),
        live_grants,
    )
    found = grants(plan)
    s = 'site["Developer Docs"]'
    writers = found[f'update {s}.grant[team "Writers"]']
    assert payload(writers).invite == Invite(
        None, teams=["t1", "t2"], users=["u2", "u1"], deletes=[("teams", "t1"), ("users", "u2")]
    )
    assert payload(writers).requests == 3  # two DELETEs, one invite
    carried = [a for a in found.values() if a is not writers]
    assert all(payload(a).invited_by == writers.address for a in carried)
    assert all(writers.key in a.depends_on and payload(a).requests == 0 for a in carried)
    assert all('invited in one request with grant[team "Writers"]' in a.notes for a in carried)
    assert sum(payload(a).requests for a in found.values()) == 3
    # Alone, a grant made a guest is its own DELETE and invite.
    [alone] = k.plan(
        site_manifest("{teams: {Writers: null}}"), site_live(teams=[team("t1", "W", "read")])
    ).actions
    assert payload(alone).invite == Invite(None, teams=["t1"], deletes=[("teams", "t1")])
    assert payload(alone).requests == 2


def test_markdown_shows_a_guest_as_guest() -> None:
    from docsync.render.markdown import render_markdown

    plan = k.plan(
        site_manifest("{teams: {Writers: null}}"), site_live(teams=[team("t1", "Writers", "edit")])
    )
    assert "| team Writers | edit | guest |" in render_markdown(plan)


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
    member = {"organization": {"id": "u2"}, "team": {"role": "member"}}
    items["team"] = [t | {"_members": [member]} if t["id"] in teams else t for t in TEAMS]
    return items


def test_a_team_grant_removed_is_a_lockout_only_when_no_other_grant_keeps_the_user() -> None:
    both = [team("t1", "Writers", "read"), team("t2", "Platform", "edit")]
    items = _in_teams(live(teams=both), "t1", "t2")
    plan = k.plan(manifest("{teams: {Platform: edit}}"), items)
    assert _judged(plan, _guard(items, "u2")) == []  # Platform keeps lin on the collection
    items = _in_teams(live(teams=both), "t1")
    [problem] = _judged(k.plan(manifest("{teams: {Platform: edit}}"), items), _guard(items, "u2"))
    assert problem.startswith(f'{D}.grant[team "Writers"]: removes the grant of a team')
    # A grant the same plan creates for the user keeps it on the resource.
    plan = k.plan(manifest(f"{{teams: {{Platform: edit}}, members: {{{LIN}: read}}}}"), items)
    assert _judged(plan, _guard(items, "u2")) == []


def test_the_tokens_own_grant_removed_while_a_team_keeps_it_is_not_a_lockout() -> None:
    writers = [team("t1", "Writers", "read")]
    items = _in_teams(live(teams=writers, members=[user("u2", LIN, "edit")]), "t1")
    plan = k.plan(manifest("{teams: {Writers: read}, members: {}}"), items)
    assert _judged(plan, _guard(items, "u2")) == []
    # Lowered from admin while a team keeps admin: still an admin there.
    writers = [team("t1", "Writers", "admin")]
    items = _in_teams(live(teams=writers, members=[user("u2", LIN, "admin")]), "t1")
    plan = k.plan(manifest(f"{{teams: {{Writers: admin}}, members: {{{LIN}: read}}}}"), items)
    assert _judged(plan, _guard(items, "u2")) == []


def test_on_a_site_the_tokens_own_guest_override_wins_over_its_teams() -> None:
    """A site grant is an override: the user's own decides, a guest has no access."""
    grants = {"teams": [team("t1", "Writers", "edit")], "members": [user("u2", LIN, "read")]}
    items = _in_teams(site_live(**grants), "t1")
    plan = k.plan(site_manifest(f"{{teams: {{Writers: edit}}, members: {{{LIN}: null}}}}"), items)
    [problem] = _judged(plan, _guard(items, "u2"))
    assert "own user's grant" in problem
    plan = k.plan(site_manifest("{teams: {Writers: edit}, members: {}}"), items)
    assert _judged(plan, _guard(items, "u2")) == []  # its team's grant gives it access again


def test_lowering_the_tokens_only_admin_grant_is_a_lockout() -> None:
    items = live(members=[user("u2", LIN, "admin")], teams=[])
    plan = k.plan(manifest(f"{{members: {{{LIN}: read}}}}"), items)
    [problem] = _judged(plan, _guard(items, "u2"))
    assert "lowers the API token's user's access from admin to read" in problem


def _rails(plan: Plan, items: dict[str, Any], me: str = "u2") -> list[str]:
    """Every kind's lockout hooks, as the safety rails run them (a team's change included)."""
    from docsync.engine.safety import lockout as rails

    state = k.live_state(items)
    state.me = me
    return rails(plan, state)


WRITERS = "teams:\n  - title: Writers\n    members: [ada@acme.example]\n"


def test_taking_the_user_out_of_the_team_that_gives_its_only_access_is_a_lockout() -> None:
    """The collection's grants stay as they are: the team's membership, written in the same
    manifest without lin, takes away the access Writers' grant gave her."""
    items = _in_teams(live(teams=[team("t1", "Writers", "edit")]), "t1")
    plan = k.plan(WRITERS + manifest("{teams: {Writers: edit}}"), items)
    assert [a.key for a in plan.actions] == ['update team["Writers"]']
    [problem] = _rails(plan, items)
    located = 'manifest.yaml:3:5: team["Writers"]: takes the API token\'s user out of this team'
    assert located in problem  # at the team's entry
    assert f"{D} (edit) takes away its access there" in problem
    # Kept in the team, or kept by another team's grant: nothing to refuse.
    kept = WRITERS.replace("[ada@acme.example]", f"[ada@acme.example, {LIN}]")
    assert _rails(k.plan(kept + manifest("{teams: {Writers: edit}}"), items), items) == []
    both = _in_teams(
        live(teams=[team("t1", "Writers", "edit"), team("t2", "Platform", "read")]), "t1", "t2"
    )
    plan = k.plan(WRITERS + manifest("{teams: {Writers: edit, Platform: read}}"), both)
    assert _rails(plan, both) == []
    # Lowered from admin to read by leaving the admin team while another team keeps read.
    both = _in_teams(
        live(teams=[team("t1", "Writers", "admin"), team("t2", "Platform", "read")]), "t1", "t2"
    )
    plan = k.plan(WRITERS + manifest("{teams: {Writers: admin, Platform: read}}"), both)
    [problem] = _rails(plan, both)
    assert "lowers the API token's user's access from admin to read" in problem
    # Another user taken out: the rail has nothing to say.
    assert _rails(plan, both, me="u1") == []


def test_a_team_deleted_by_the_plan_gives_no_access() -> None:
    items = _in_teams(live(teams=[team("t1", "Writers", "edit")]), "t1")
    plan = k.plan("teams:\n  - {title: Writers, state: absent}\n", items)
    [problem] = _rails(plan, items)
    assert 'manifest.yaml:3:5: team["Writers"]: deletes this team, whose grant on ' in problem
    assert f"{D} (edit) takes away its access there" in problem
    items = _in_teams(live(teams=[team("t1", "Writers", "edit")]), "t2")
    assert _rails(plan, items) == []  # lin was not in Writers


def test_the_rails_read_the_teams_granted_where_a_team_the_user_leaves_holds_a_grant() -> None:
    grants = [team("t1", "Writers", "edit"), team("t2", "Platform", "read")]
    items = _in_teams(live(teams=grants), "t1")
    items["team"][1].pop("_members", None)  # Platform's members are not managed
    left = k.plan(WRITERS + manifest("{teams: {Writers: edit, Platform: read}}"), items)
    assert _for_rails(left, items) == {"t1", "t2"}
    assert _for_rails(left, items, me="u1") == set()  # ada is an organization admin
    stays = WRITERS.replace("[ada@acme.example]", f"[ada@acme.example, {LIN}]")
    kept = k.plan(stays + manifest("{teams: {Writers: edit, Platform: read}}"), items)
    assert [a.key for a in kept.actions] == ['update team["Writers"]']  # ada joins
    assert _for_rails(kept, items) == set()
    deleted = k.plan("teams:\n  - {title: Platform, state: absent}\n", live(teams=grants))
    assert _for_rails(deleted, live(teams=grants)) == {"t1", "t2"}  # was lin in Platform?


def _for_rails(plan: Plan, items: dict[str, Any], me: str | None = "u2") -> set[str]:
    from docsync.kinds.access.lockout import teams_for_rails

    state = k.live_state(items)
    state.me = me
    return teams_for_rails(plan.actions, state)


def test_the_rails_read_the_teams_granted_where_a_team_or_the_tokens_access_goes() -> None:
    grants = [team("t1", "Writers", "admin"), team("t2", "Platform", "read")]
    items = live(teams=grants, members=[user("u1", "ada@acme.example", "read")])
    others = k.plan(manifest("{teams: {Writers: admin, Platform: edit}, members: {}}"), items)
    assert _for_rails(others, items) == set()  # a raise, and another user's grant removed
    lowered = k.plan(manifest("{teams: {Writers: edit, Platform: read}}"), items)
    assert _for_rails(lowered, items) == {"t1", "t2"}  # Platform keeps its grant: read too
    removed = k.plan(manifest("{teams: {Platform: read}}"), items)
    assert _for_rails(removed, items) == {"t1", "t2"}
    assert _for_rails(removed, items, me=None) == set()  # the rail could not tell whose
    assert _for_rails(removed, items, me="u1") == set()  # ada is an organization admin
    mine = live(teams=grants, members=[user("u2", LIN, "read")])
    own = k.plan(manifest("{teams: {Writers: admin, Platform: read}, members: {}}"), mine)
    assert _for_rails(own, mine) == {"t1", "t2"}


def test_the_grant_kind_is_mapped_and_planned_by_its_resources_kinds() -> None:
    from docsync.kinds.catalogue import CATALOGUE, kind_named
    from docsync.kinds.crud import CrudKind
    from docsync.kinds.parts import held_parts

    declared = CATALOGUE.named("grant")
    grants = kind_named("grant")
    assert declared.mapped and declared.parents == ("collection", "space", "site")
    for parent in declared.parents:
        holder = kind_named(parent)
        assert isinstance(holder, CrudKind) and grants in held_parts(holder), parent
    assert all(declared not in CATALOGUE.children(parent) for parent in declared.parents)


def test_every_kind_holding_grants_names_their_routes() -> None:
    """The grant kind sends a resource's grant requests by the names its holder's routes give
    them (`GRANT_ROUTES`): a kind among the grant's parents whose routes leave one out could
    read or write no grant of its resources."""
    from docsync.kinds.access.grant_holders import GRANT_ROUTES
    from docsync.kinds.catalogue import CATALOGUE

    for parent in CATALOGUE.named("grant").parents:
        routes = CATALOGUE.named(parent).routes
        missing = sorted(set(GRANT_ROUTES) - set(routes.more if routes is not None else ()))
        assert not missing, f"{parent} holds grants: its routes must name {missing}"

"""Member roles and guards, and exact team membership reached with one batch PUT."""

from __future__ import annotations

from tests.emulator_harness import EmulatorHandle
from tests.kit import (
    Docsync,
    Write,
    apply_ok,
    assert_converged,
    listed,
    requests_between,
)

ORG = "/v1/orgs/org_acme"


def roles(emulator: EmulatorHandle) -> dict[str, str | None]:
    return {m["user"]["email"]: m["role"] for m in listed(emulator, f"{ORG}/members")}


def writes(before: dict[str, object], emulator: EmulatorHandle) -> dict[str, int]:
    made = requests_between(before, emulator.stats())  # type: ignore[arg-type]
    return {k: v for k, v in made.items() if not k.startswith("GET")}


def test_role_change_is_one_patch(docsync: Docsync, emulator: EmulatorHandle, write: Write) -> None:
    path = write(
        "m.yaml",
        "organization: org_acme\nmembers:\n"
        "  - {email: sam@acme.example, role: edit}\n"
        "  - {email: u_kim, role: read}\n"  # by user id
        "  - {email: lin@acme.example, role: edit}\n",  # unchanged
    )
    before = emulator.stats()
    result = apply_ok(docsync, path)
    assert '~ role = "read" -> "edit"' in result.stdout
    assert writes(before, emulator) == {"PATCH /v1/orgs/{organizationId}/members/{userId}": 2}
    assert roles(emulator)["sam@acme.example"] == "edit"
    assert roles(emulator)["kim@acme.example"] == "read"
    assert_converged(docsync, path)


def test_members_written_by_id_are_addressed_by_their_email(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    """`{id: <user id>, role}` as docs/manifest.md has it: each entry was addressed
    `member["None"]` (noted "was member[...]"), and two of them were a dependency cycle."""
    path = write(
        "m.yaml",
        "organization: org_acme\nmembers:\n"
        "  - {id: u_lin, role: admin}\n  - {id: u_sam, role: comment}\n",
    )
    result = apply_ok(docsync, path)
    assert 'update member["lin@acme.example"]' in result.stdout
    assert 'update member["sam@acme.example"]' in result.stdout
    assert "None" not in result.stdout and "# was" not in result.stdout
    assert roles(emulator)["lin@acme.example"] == "admin"
    assert roles(emulator)["sam@acme.example"] == "comment"
    assert_converged(docsync, path)


def test_member_not_in_the_organization_is_an_error(docsync: Docsync, write: Write) -> None:
    path = write(
        "m.yaml", "organization: org_acme\nmembers:\n  - {email: olga@other.example, role: read}\n"
    )
    result = docsync("plan", path, "--detailed-exitcode")
    assert result.exit_code == 1
    assert "olga@other.example is not a member of the organization" in result.stderr
    assert "m.yaml:3:" in result.stderr


def test_never_removes_the_tokens_own_user(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    # Lin becomes a second admin first, so that only the own-user rule can refuse.
    apply_ok(
        docsync,
        write(
            "admin.yaml",
            "organization: org_acme\nmembers: [{email: lin@acme.example, role: admin}]\n",
        ),
    )
    before = emulator.stats()
    path = write(
        "me.yaml", "organization: org_acme\nmembers: [{email: ada@acme.example, state: absent}]\n"
    )
    result = docsync("apply", path, "--auto-approve")
    assert result.exit_code == 1, result.output
    assert "API token" in result.stderr and 'member["ada@acme.example"]' in result.stderr
    assert "ada@acme.example" in roles(emulator)
    assert writes(before, emulator) == {}


def test_never_leaves_the_organization_without_an_admin(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    path = write(
        "demote.yaml", "organization: org_acme\nmembers: [{email: ada@acme.example, role: edit}]\n"
    )
    result = docsync("plan", path)
    assert result.exit_code == 1
    assert "leaves the organization without an admin" in result.stderr
    assert roles(emulator)["ada@acme.example"] == "admin"


def test_state_absent_removes_a_member(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    path = write(
        "gone.yaml", "organization: org_acme\nmembers: [{email: sam@acme.example, state: absent}]\n"
    )
    result = apply_ok(docsync, path)
    assert '- delete member["sam@acme.example"]' in result.stdout
    assert "sam@acme.example" not in roles(emulator)
    assert_converged(docsync, path)


TEAMS = """\
organization: org_acme
teams:
  - title: Platform
    members: {members}
  - title: Untouched
"""


def team_members(emulator: EmulatorHandle, title: str) -> dict[str, str]:
    (team,) = [t for t in listed(emulator, f"{ORG}/teams") if t["title"] == title]
    items = listed(emulator, f"{ORG}/teams/{team['id']}/members")
    return {m["organization"]["id"]: m["team"]["role"] for m in items}


def test_membership_update_is_one_batch_put(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    first = "[ada@acme.example, {user: lin@acme.example, role: owner}, kim@acme.example]"
    apply_ok(docsync, write("t1.yaml", TEAMS.format(members=first)))
    assert team_members(emulator, "Platform") == {
        "u_ada": "member",
        "u_lin": "owner",
        "u_kim": "member",
    }
    # Remove ada, demote lin, promote kim, add sam as owner: one PUT does all four.
    second = "[lin@acme.example, {user: kim@acme.example, role: owner}, {user: u_sam, role: owner}]"
    path = write("t2.yaml", TEAMS.format(members=second))
    before = emulator.stats()
    apply_ok(docsync, path)
    assert writes(before, emulator) == {"PUT /v1/orgs/{organizationId}/teams/{teamId}/members": 1}
    assert team_members(emulator, "Platform") == {
        "u_lin": "member",
        "u_kim": "owner",
        "u_sam": "owner",
    }
    assert_converged(docsync, path)


def test_empty_members_empties_the_team_and_absent_members_leave_it_alone(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    apply_ok(docsync, write("t1.yaml", TEAMS.format(members="[ada@acme.example]")))
    empty = write("t2.yaml", TEAMS.format(members="[]"))
    apply_ok(docsync, empty)
    assert team_members(emulator, "Platform") == {}
    assert_converged(docsync, empty)
    unmanaged = write("t3.yaml", "organization: org_acme\nteams: [{title: Platform}]\n")
    apply_ok(docsync, write("t4.yaml", TEAMS.format(members="[kim@acme.example]")))
    assert_converged(docsync, unmanaged)  # `members` not written: not compared
    assert team_members(emulator, "Platform") == {"u_kim": "member"}


def test_team_member_not_in_the_organization_is_an_error(docsync: Docsync, write: Write) -> None:
    path = write("t.yaml", TEAMS.format(members="[olga@other.example]"))
    result = docsync("plan", path)
    assert result.exit_code == 1
    assert "olga@other.example is not a member of the organization" in result.stderr


def test_emails_match_in_any_case(docsync: Docsync, emulator: EmulatorHandle, write: Write) -> None:
    """Email addresses are case-insensitive: `Ada@ACME.example` is the member ada@acme.example."""
    path = write(
        "case.yaml",
        "organization: org_acme\n"
        "members: [{email: Ada@ACME.example, role: admin}]\n"
        "teams: [{title: Case, members: [LIN@acme.example]}]\n",
    )
    apply_ok(docsync, path)
    assert team_members(emulator, "Case") == {"u_lin": "member"}
    assert_converged(docsync, path)


def test_one_member_written_by_id_and_by_email_is_named_twice(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    """The second entry was told "lin@acme.example is not a member of the organization": it
    is, and the first entry, by user id, took it."""
    path = write(
        "m.yaml",
        "organization: org_acme\nmembers:\n"
        "  - {id: u_lin, role: read}\n  - {email: LIN@acme.example, role: edit}\n",
    )
    result = docsync("plan", path)
    assert result.exit_code == 1, result.output
    assert (
        f"{path}:4:5: members[1]: lin@acme.example is written twice: the entry at {path}:3:5 "
        "names the same member by user id (u_lin); keep one"
    ) in result.stderr
    assert "not a member" not in result.stderr


def test_one_user_in_a_team_by_id_and_by_email_is_a_located_problem(
    docsync: Docsync, write: Write
) -> None:
    """Offline they are two users; live they are one, and the last role won silently."""
    path = write(
        "t.yaml",
        "organization: org_acme\nteams:\n"
        "  - title: T\n    members:\n"
        "      - u_lin\n      - {user: lin@acme.example, role: owner}\n",
    )
    result = docsync("plan", path)
    assert result.exit_code == 1, result.output
    assert (
        f"{path}:6:9: teams[0].members[1]: lin@acme.example (user id u_lin) is listed twice "
        f"in this team; first at {path}:5:9"
    ) in result.stderr

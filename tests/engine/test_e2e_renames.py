"""Renames as Terraform's `moved`, and plans that would break the next one, end to end against
both contracts: a team renamed by title while `prune` covers teams used to plan a create and a
delete ("its grants go with it"), apply cleanly, and leave the next plan failing on a grant that
names a team that is gone. Now that plan is refused, located at the grant, with the rename to
write; `was:` renames the team in place, keeping its id, members and grants, and the next plan
is empty; a reference to the old name is refused with the new one to write."""

from __future__ import annotations

from tests.kit import (
    ORG,
    EmulatorHandle,
    Write,
    apply,
    assert_converged,
    cli_for,
    id_of,
    listed,
)

BEFORE = """\
organization: org_acme
prune: [teams]
teams:
  - {title: Writers, members: [lin@acme.example]}
collections:
  - title: Developers
    permissions:
      teams: {Writers: edit}
"""


def grants(emulator: EmulatorHandle) -> dict[str, str]:
    collection = id_of(emulator, "collections", "title", "Developers")
    found = listed(emulator, f"/v1/collections/{collection}/permissions/teams")
    return {g["team"]["title"]: g["permission"] for g in found}


def test_a_renamed_team_keeps_its_id_members_and_grants(
    either_contract: EmulatorHandle, write: Write
) -> None:
    docsync = cli_for(either_contract)
    apply(docsync, write("before.yaml", BEFORE))
    team = id_of(either_contract, "teams", "title", "Writers")

    # The title changed alone: a new team and the old one pruned, its grant still named.
    retitled = write("retitled.yaml", BEFORE.replace("{title: Writers,", "{title: Writers2,"))
    refused = docsync("plan", retitled)
    assert refused.exit_code == 1, refused.output
    assert "retitled.yaml:8:24: collections[0].permissions.teams.Writers: names " in refused.stderr
    assert 'team["Writers"], which this plan deletes' in refused.stderr
    assert 'write `was: "Writers"` on the entry of team["Writers2"]' in refused.stderr
    assert docsync("apply", retitled, "--auto-approve").exit_code == 1
    assert [t["title"] for t in listed(either_contract, f"{ORG}/teams")] == ["Writers"]

    # Renamed with `was:`, the grant still naming the old title: refused, the new one said.
    renamed = BEFORE.replace("{title: Writers,", "{title: Writers2, was: Writers,")
    stale = docsync("plan", write("stale.yaml", renamed))
    assert stale.exit_code == 1, stale.output
    assert "'Writers' is the old name of the team at " in stale.stderr
    assert "which renames it (`was:`): after the apply it names nothing; write 'Writers2'" in (
        stale.stderr
    )

    # Renamed, and named by its new title: one update, the same team.
    manifest = write("renamed.yaml", renamed.replace("{Writers: edit}", "{Writers2: edit}"))
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    assert '~ update team["Writers2"]' in planned.stdout
    assert '# was team["Writers"]' in planned.stdout
    assert "1 to update, 0 to delete" in planned.stdout and "to create" in planned.stdout
    assert "Plan: 0 to create" in planned.stdout
    apply(docsync, manifest)
    assert id_of(either_contract, "teams", "title", "Writers2") == team
    assert grants(either_contract) == {"Writers2": "edit"}
    assert_converged(docsync, manifest)


def test_a_rename_written_as_a_new_entry_is_said_to_look_like_one(
    either_contract: EmulatorHandle, write: Write
) -> None:
    docsync = cli_for(either_contract)
    apply(docsync, write("before.yaml", "organization: org_acme\nteams: [{title: Ops}]\n"))
    planned = docsync(
        "plan",
        write(
            "after.yaml", "organization: org_acme\nprune: [teams]\nteams: [{title: Operations}]\n"
        ),
    )
    assert planned.exit_code == 0, planned.output
    assert 'team["Ops"] is deleted and team["Operations"] created alike: this looks like a ' in (
        planned.stdout
    )
    assert 'write `was: "Ops"`' in planned.stdout

"""Access as code end to end against the emulator: grants on two collections, a space and a
site apply, converge and equal the manifest exactly; a changed manifest (a role raised, a team
removed, all member grants removed) converges in one apply; export then plan is empty; grants
are read only where written, one list per resource and principal type."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from tests.kit import (
    ORG,
    Docsync,
    EmulatorHandle,
    Write,
    apply,
    assert_converged,
    cli_for,
    export_plans_empty,
    id_of,
    listed,
    requests_between,
)

HEAD = """\
organization: org_acme
teams:
  - {title: Writers}
  - {title: Platform}
  - {title: Support}
collections:
  - title: Developers
    permissions:
      teams: {Writers: read, Platform: admin}
      members: {lin@acme.example: edit, sam@acme.example: comment}
  - title: Partners
    permissions:
      teams: {Support: read}
spaces:
  - title: Guides
    collection: Developers
    permissions:
      teams: {Writers: edit}
      members: {kim@acme.example: review}
sites:
  - title: Developer Docs
    permissions:
      teams: {Support: read, Writers: edit}
      members: {sam@acme.example: read}
"""
#: the role of Writers raised on Developers, Platform's grant removed, every member grant gone
CHANGED = (
    HEAD.replace("teams: {Writers: read, Platform: admin}", "teams: {Writers: edit}")
    .replace("members: {lin@acme.example: edit, sam@acme.example: comment}", "members: {}")
    .replace("members: {kim@acme.example: review}", "members: {}")
    .replace("members: {sam@acme.example: read}", "members: {}")
)


def grants(emulator: EmulatorHandle, path: str) -> dict[str, dict[str, str | None]]:
    """A resource's direct grants as the API holds them: team titles and member emails."""
    teams = {g["team"]["title"]: g["permission"] for g in listed(emulator, f"{path}/teams")}
    users = {g["user"]["email"]: g["permission"] for g in listed(emulator, f"{path}/users")}
    return {"teams": teams, "members": users}


def resources(emulator: EmulatorHandle) -> dict[str, str]:
    """The permissions path of each managed resource, by name."""
    collections = {c["title"]: c["id"] for c in listed(emulator, f"{ORG}/collections")}
    return {
        "Developers": f"/v1/collections/{collections['Developers']}/permissions",
        "Partners": f"/v1/collections/{collections['Partners']}/permissions",
        "Guides": f"/v1/spaces/{id_of(emulator, 'spaces', 'title', 'Guides')}/permissions",
        "Developer Docs": (
            f"{ORG}/sites/{id_of(emulator, 'sites', 'title', 'Developer Docs')}/permissions"
        ),
    }


def live_grants(emulator: EmulatorHandle) -> dict[str, Any]:
    return {name: grants(emulator, path) for name, path in resources(emulator).items()}


def test_grants_apply_converge_change_and_export(
    either_contract: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    emulator = either_contract
    docsync = cli_for(emulator)

    manifest = write("access.yaml", HEAD)
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    assert live_grants(emulator) == {
        "Developers": {
            "teams": {"Writers": "read", "Platform": "admin"},
            "members": {"lin@acme.example": "edit", "sam@acme.example": "comment"},
        },
        "Partners": {"teams": {"Support": "read"}, "members": {}},
        "Guides": {"teams": {"Writers": "edit"}, "members": {"kim@acme.example": "review"}},
        "Developer Docs": {
            "teams": {"Support": "read", "Writers": "edit"},
            "members": {"sam@acme.example": "read"},
        },
    }

    manifest = write("access.yaml", CHANGED)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    out = planned.stdout
    assert 'update collection["Developers"].grant[team "Writers"]' in out
    assert '~ role = "read" -> "edit"' in out
    assert 'delete collection["Developers"].grant[team "Platform"]' in out
    assert 'delete collection["Developers"].grant[member "lin@acme.example"]' in out
    assert '- role = "edit"' in out
    assert "AUDIENCE CHANGE" in out
    assert "Plan: 0 to create, 1 to update, 5 to delete." in out
    before = emulator.stats()
    apply(docsync, manifest)
    written = requests_between(before, emulator.stats())
    # One PATCH (Writers), one DELETE of a team and five of members, no invite.
    assert written["PATCH /v1/collections/{collectionId}/permissions/teams/{teamId}"] == 1
    assert written["DELETE /v1/collections/{collectionId}/permissions/teams/{teamId}"] == 1
    assert written["POST /v1/collections/{collectionId}/permissions"] == 0
    assert_converged(docsync, manifest)
    assert live_grants(emulator) == {
        "Developers": {"teams": {"Writers": "edit"}, "members": {}},
        "Partners": {"teams": {"Support": "read"}, "members": {}},
        "Guides": {"teams": {"Writers": "edit"}, "members": {}},
        "Developer Docs": {"teams": {"Support": "read", "Writers": "edit"}, "members": {}},
    }

    _, content = export_plans_empty(docsync, tmp_path / "export", "content.yaml")
    assert "permissions:" in content and "Writers: edit" in content


def test_new_grants_are_one_invite_per_role_after_their_resource_and_team(
    emulator: EmulatorHandle, docsync: Docsync, write: Write
) -> None:
    before = emulator.stats()
    apply(docsync, write("access.yaml", HEAD))
    written = requests_between(before, emulator.stats())
    # Developers: read, admin, edit, comment (4); Partners: read; Guides: edit, review;
    # the site: read, edit.
    assert written["POST /v1/collections/{collectionId}/permissions"] == 5
    assert written["POST /v1/spaces/{spaceId}/permissions"] == 2
    assert written["POST /v1/orgs/{organizationId}/sites/{siteId}/permissions"] == 2


def test_grants_are_read_once_per_resource_and_principal_type_written(
    emulator: EmulatorHandle, docsync: Docsync, write: Write
) -> None:
    manifest = write("access.yaml", HEAD)
    apply(docsync, manifest)
    before = emulator.stats()
    assert_converged(docsync, manifest)
    read = requests_between(before, emulator.stats())
    assert read["GET /v1/collections/{collectionId}/permissions/teams"] == 2
    # Partners writes no members: its member grants are not read.
    assert read["GET /v1/collections/{collectionId}/permissions/users"] == 1
    assert read["GET /v1/spaces/{spaceId}/permissions/teams"] == 1
    assert read["GET /v1/spaces/{spaceId}/permissions/users"] == 1
    assert read["GET /v1/orgs/{organizationId}/sites/{siteId}/permissions/teams"] == 1
    assert read["GET /v1/orgs/{organizationId}/sites/{siteId}/permissions/users"] == 1
    # Without `permissions:`, none is read and none is touched.
    unwritten = re.sub(r"    permissions:\n(      .*\n)+", "", HEAD)
    manifest = write("access.yaml", unwritten)
    before = emulator.stats()
    assert_converged(docsync, manifest)
    read = requests_between(before, emulator.stats())
    assert not [route for route in read if "/permissions" in route]
    assert live_grants(emulator)["Partners"] == {"teams": {"Support": "read"}, "members": {}}


#: the members of one team, as the lockout rail reads them
TEAM_MEMBERS = "GET /v1/orgs/{organizationId}/teams/{teamId}/members"


def as_lin(emulator: EmulatorHandle) -> Docsync:
    """docsync run with lin's token: an organization member whose role (edit) is not admin,
    so grants decide its access (the emulator lets only admins write grants: lin plans)."""
    return cli_for(emulator, DOCSYNC_TOKEN="tok_lin")


@pytest.mark.parametrize("how", ["own grant", "team"])
def test_removing_the_tokens_own_access_is_refused_unless_forced_or_an_admin(
    emulator: EmulatorHandle, docsync: Docsync, write: Write, how: str
) -> None:
    if how == "own grant":
        first = "    permissions: {members: {lin@acme.example: admin, ada@acme.example: admin}}\n"
        then = "    permissions: {members: {}}\n"
    else:
        first = "    permissions: {teams: {Mine: edit}}\n"
        then = "    permissions: {teams: {}}\n"
    head = (
        "organization: org_acme\n"
        "teams:\n  - {title: Mine, members: [lin@acme.example, ada@acme.example]}\n"
        "collections:\n  - title: Developers\n"
    )
    apply(docsync, write("access.yaml", head + first))
    manifest = write("access.yaml", head + then)
    lin = as_lin(emulator)
    refused = lin("plan", manifest)
    assert refused.exit_code != 0
    grant = 'member "lin@acme.example"' if how == "own grant" else 'team "Mine"'
    assert f'collection["Developers"].grant[{grant}]: removes' in refused.output
    assert "may take its access away" in refused.output
    forced = lin("plan", manifest, "--force")
    assert forced.exit_code == 0, forced.output
    assert "Warning: forced past a safety rail" in forced.stderr
    # The plan takes ada's access away too, but ada is an organization admin: production's
    # admin administers all content whatever its grants, so none can lock her out, and the
    # same plan applies without --force.
    apply(docsync, manifest)
    assert_converged(docsync, manifest)


def test_taking_the_tokens_user_out_of_its_only_granted_team_is_refused_unless_forced(
    emulator: EmulatorHandle, docsync: Docsync, write: Write
) -> None:
    """lin is in team Mine only, whose grant is its only access to Developers; the grants
    stay as they are, the team's members written without lin take that access away."""
    text = (
        "organization: org_acme\n"
        "teams:\n  - {title: Mine, members: [lin@acme.example, ada@acme.example]}\n"
        "collections:\n  - {title: Developers, permissions: {teams: {Mine: edit}}}\n"
    )
    apply(docsync, write("access.yaml", text))
    manifest = write(
        "access.yaml", text.replace("[lin@acme.example, ada@acme.example]", "[ada@acme.example]")
    )
    lin = as_lin(emulator)
    refused = lin("plan", manifest)
    assert refused.exit_code != 0
    assert (
        'access.yaml:3:5: team["Mine"]: takes the API token\'s user out of this team'
        in refused.output
    )
    assert 'whose grant on collection["Developers"] (edit) takes away its access' in refused.output
    forced = lin("plan", manifest, "--force")
    assert forced.exit_code == 0, forced.output
    assert 'update team["Mine"]' in forced.stdout
    assert "Warning: forced past a safety rail" in forced.stderr
    # ada, an organization admin, is not locked out by it: the same plan applies unforced.
    apply(docsync, manifest)
    assert_converged(docsync, manifest)


def test_a_team_that_keeps_its_grant_keeps_the_tokens_user_and_is_read_once(
    emulator: EmulatorHandle, docsync: Docsync, write: Write
) -> None:
    """lin is in teams A and B, both granted on two collections; the manifest does not manage
    the teams' members. Removing A's grants leaves lin its access through B."""
    teams = "teams:\n  - {title: A}\n  - {title: B}\n  - {title: Other}\n"
    collections = (
        "collections:\n"
        "  - {title: Developers, permissions: {teams: DEVELOPERS}}\n"
        "  - {title: Partners, permissions: {teams: PARTNERS}}\n"
        "  - {title: Quiet, permissions: {teams: {Other: read}}}\n"
    )

    def manifest(developers: str, partners: str) -> Path:
        text = "organization: org_acme\n" + teams + collections
        text = text.replace("DEVELOPERS", developers).replace("PARTNERS", partners)
        return write("access.yaml", text)

    setup = manifest("{A: read, B: read}", "{A: edit, B: read}")
    setup.write_text(
        setup.read_text("utf-8")
        .replace("{title: A}", "{title: A, members: [lin@acme.example, ada@acme.example]}")
        .replace("{title: B}", "{title: B, members: [lin@acme.example]}"),
        "utf-8",
    )
    apply(docsync, setup)
    lin = as_lin(emulator)

    def planned(path: Path, *, accepted: bool, who: Docsync = lin) -> tuple[Result, int]:
        before = emulator.stats()
        result = who("plan", path)
        assert (result.exit_code == 0) == accepted, result.output
        return result, requests_between(before, emulator.stats())[TEAM_MEMBERS]

    # Nothing removed or lowered: no member is read.
    _, read = planned(manifest("{A: edit, B: read}", "{A: edit, B: read}"), accepted=True)
    assert read == 0
    # A's grants removed on both collections: accepted without --force; A's and B's members
    # are read once each (not once per collection), Other's (granted elsewhere) not at all.
    without_a = manifest("{B: read}", "{B: read}")
    result, read = planned(without_a, accepted=True)
    assert 'delete collection["Developers"].grant[team "A"]' in result.stdout
    assert read == 2
    # Both teams' grants removed from Developers: the access is gone, refused.
    refused, read = planned(manifest("{}", "{B: read}"), accepted=False)
    assert "removes the grant of a team the API token's user is in" in refused.output
    assert 'collection["Developers"].grant[team "A"]' in refused.output
    assert read == 2
    # ada (in A only) is an organization admin: no grant can lock her out, nothing is read.
    _, read = planned(manifest("{}", "{B: read}"), accepted=True, who=docsync)
    assert read == 0
    apply(docsync, without_a)
    assert_converged(docsync, without_a)


def test_a_member_not_in_the_organization_is_a_located_problem(
    docsync: Docsync, write: Write
) -> None:
    manifest = write(
        "access.yaml",
        "organization: org_acme\ncollections:\n  - title: Developers\n"
        "    permissions: {members: {olga@other.example: read}}\n",
    )
    planned = docsync("plan", manifest)
    assert planned.exit_code != 0
    assert "access.yaml:4:" in planned.output
    assert "olga@other.example is not a member of the organization" in planned.output


def test_a_site_guest_applies_converges_exports_and_goes_up_and_back(
    either_contract: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    emulator = either_contract
    docsync = cli_for(emulator)

    head = (
        "organization: org_acme\nteams:\n  - {title: Support}\nsites:\n  - title: Developer Docs\n"
    )
    guest = write("access.yaml", head + "    permissions: {teams: {Support: null}}\n")
    apply(docsync, guest)
    assert_converged(docsync, guest)
    path = f"{ORG}/sites/{id_of(emulator, 'sites', 'title', 'Developer Docs')}/permissions"
    assert grants(emulator, path)["teams"] == {"Support": None}
    _, sites = export_plans_empty(docsync, tmp_path / "export", "sites.yaml")
    assert "Support: null" in sites

    read = write("access.yaml", head + "    permissions: {teams: {Support: read}}\n")
    before = emulator.stats()
    apply(docsync, read)
    written = requests_between(before, emulator.stats())
    assert written["PATCH /v1/orgs/{organizationId}/sites/{siteId}/permissions/teams/{teamId}"] == 1
    assert_converged(docsync, read)
    assert grants(emulator, path)["teams"] == {"Support": "read"}

    guest = write("access.yaml", head + "    permissions: {teams: {Support: null}}\n")
    planned = docsync("plan", guest)
    assert "a DELETE, then an invite as guest" in planned.stdout, planned.output
    assert "AUDIENCE CHANGE" in planned.stdout
    before = emulator.stats()
    apply(docsync, guest)
    written = requests_between(before, emulator.stats())
    assert (
        written["DELETE /v1/orgs/{organizationId}/sites/{siteId}/permissions/teams/{teamId}"] == 1
    )
    assert written["POST /v1/orgs/{organizationId}/sites/{siteId}/permissions"] == 1
    assert_converged(docsync, guest)
    assert grants(emulator, path)["teams"] == {"Support": None}


def test_grants_made_guests_join_the_new_guests_invite(
    emulator: EmulatorHandle, docsync: Docsync, write: Write
) -> None:
    """Support and lin made guests, Partners and kim new guests, Writers raised: one DELETE per
    grant made a guest, then one invite for all four, one PATCH."""
    head = (
        "organization: org_acme\nteams:\n  - {title: Support}\n  - {title: Partners}\n"
        "  - {title: Writers}\nsites:\n  - title: Developer Docs\n"
    )
    first = (
        "    permissions: {teams: {Support: read, Writers: read}, "
        "members: {lin@acme.example: edit}}\n"
    )
    apply(docsync, write("access.yaml", head + first))
    guests = write(
        "access.yaml",
        head + "    permissions:\n"
        "      teams: {Support: null, Partners: null, Writers: edit}\n"
        "      members: {lin@acme.example: null, kim@acme.example: null}\n",
    )
    planned = docsync("plan", guests, "-v")
    assert planned.exit_code == 0, planned.output
    assert 'invited in one request with grant[team "Support"]' in planned.stdout
    assert "apply: about 4 requests" in planned.stderr  # the estimate counts the same
    before = emulator.stats()
    apply(docsync, guests)
    written = requests_between(before, emulator.stats())
    site = "/v1/orgs/{organizationId}/sites/{siteId}/permissions"
    assert written[f"DELETE {site}/teams/{{teamId}}"] == 1
    assert written[f"DELETE {site}/users/{{userId}}"] == 1
    assert written[f"POST {site}"] == 1
    assert written[f"PATCH {site}/teams/{{teamId}}"] == 1
    assert sum(n for route, n in written.items() if not route.startswith("GET")) == 4
    assert_converged(docsync, guests)
    path = f"{ORG}/sites/{id_of(emulator, 'sites', 'title', 'Developer Docs')}/permissions"
    assert grants(emulator, path) == {
        "teams": {"Support": None, "Partners": None, "Writers": "edit"},
        "members": {"lin@acme.example": None, "kim@acme.example": None},
    }


def test_grant_addresses_in_targets_json_saved_plans_and_markdown(
    emulator: EmulatorHandle, docsync: Docsync, write: Write, tmp_path: Path
) -> None:
    manifest = write("access.yaml", HEAD)
    apply(docsync, manifest)
    manifest = write("access.yaml", CHANGED)
    # --target on a resource takes its grants, and only them.
    targeted = docsync("plan", manifest, "--target", 'collection["Developers"]')
    assert targeted.exit_code == 0, targeted.output
    actions = targeted.stdout.split("\nNeeds a careful look")[0]  # deletes listed there too
    assert actions.count('collection["Developers"].grant[') == 4
    assert "Guides" not in targeted.stdout and "Developer Docs" not in targeted.stdout
    # JSON: one action per grant, kind `grant`.
    as_json = docsync("plan", manifest, "--format", "json")
    actions = json.loads(as_json.stdout)["actions"]
    assert {(a["verb"], a["kind"]) for a in actions} == {("update", "grant"), ("delete", "grant")}
    assert {a["address"] for a in actions} >= {
        'collection["Developers"].grant[team "Writers"]',
        'site["Developer Docs"].grant[member "sam@acme.example"]',
    }
    # Markdown: an access table per resource, built from its grant actions.
    saved = tmp_path / "plan.json"
    planned = docsync("plan", manifest, "--out", saved)
    assert planned.exit_code == 0, planned.output
    shown = docsync("show", saved, "--format", "markdown")
    assert "#### Access" in shown.stdout
    assert '`site["Developer Docs"]`' in shown.stdout
    assert "| member sam@acme.example | read | — | 🔴 removed |" in shown.stdout
    # The grants kept travel in the saved plan: the table shows who still has access.
    site = shown.stdout.split('`site["Developer Docs"]`')[1].split("\n\n`")[0]
    assert "| team Support | read | read | = |" in site
    assert "| team Writers | edit | edit | = |" in site
    # The saved plan applies as reviewed.
    applied = docsync("apply", "--plan", saved)
    assert applied.exit_code == 0, applied.output
    assert_converged(docsync, manifest)


def test_deleting_a_team_shows_its_grants_going_first(
    emulator: EmulatorHandle, docsync: Docsync, write: Write
) -> None:
    apply(docsync, write("access.yaml", HEAD))
    gone = HEAD.replace("  - {title: Platform}", "  - {title: Platform, state: absent}").replace(
        "{Writers: read, Platform: admin}", "{Writers: read}"
    )
    manifest = write("access.yaml", gone)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    out = planned.stdout
    grant = out.index('- delete collection["Developers"].grant[team "Platform"]')
    assert grant < out.index('- delete team["Platform"]')
    assert 'its grants go with it: collection["Developers"]: admin' in out
    apply(docsync, manifest)
    assert_converged(docsync, manifest)


def test_one_title_in_two_parents_reads_the_grants_each_entry_writes(
    docsync: Docsync, write: Write, tmp_path: Path
) -> None:
    """Two collections titled Developers, one at the top (its team grants written) and one in
    Operators (its member grants written): each is read for both principal types, either entry
    may be it, so neither's grants are taken for missing; the export plans empty."""
    manifest = write(
        "content.yaml",
        "organization: org_acme\nteams: [{title: Platform}]\ncollections:\n"
        "  - {title: Developers, permissions: {teams: {Platform: read}}}\n"
        "  - {title: Operators}\n"
        "  - title: Developers\n"
        "    parent: Operators\n"
        "    permissions: {members: {lin@acme.example: edit}}\n",
    )
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    out = tmp_path / "export"
    assert docsync("export", "--org", "org_acme", "--out", out).exit_code == 0
    assert_converged(docsync, out)

"""Renames through a pinned id, prune on and off, protect, state: absent and restoring spaces."""

from __future__ import annotations

from typing import Any

from tests.emulator_harness import EmulatorHandle
from tests.kit import Docsync, Write, apply_ok, assert_converged, listed

ORG = "/v1/orgs/org_acme"

BASE = """\
organization: org_acme
teams:
  - title: Platform
collections:
  - {title: Developers}
spaces:
  - {title: Guides, collection: Developers}
translations:
  - {title: French}
"""


def ids(emulator: EmulatorHandle, what: str, key: str = "title") -> dict[str, str]:
    return {str(item[key]): str(item["id"]) for item in listed(emulator, f"{ORG}/{what}")}


def test_rename_through_pinned_id_updates_in_place(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    apply_ok(docsync, write("base.yaml", BASE))
    team = ids(emulator, "teams")["Platform"]
    collection = ids(emulator, "collections")["Developers"]
    space = ids(emulator, "spaces")["Guides"]
    translation = ids(emulator, "translations")["French"]
    renamed = write(
        "renamed.yaml",
        f"""\
organization: org_acme
teams:
  - {{id: {team}, title: Core}}
collections:
  - {{id: {collection}, title: Builders}}
spaces:
  - {{id: {space}, title: Tutorials, collection: Builders}}
translations:
  - {{id: {translation}, title: Français}}
""",
    )
    plan = docsync("plan", renamed)
    assert plan.exit_code == 0, plan.output
    assert "0 to create, 4 to update, 0 to delete" in plan.stdout
    assert '# was team["Platform"]' in plan.stdout
    assert '~ title = "Platform" -> "Core"' in plan.stdout
    apply_ok(docsync, renamed)
    assert ids(emulator, "teams") == {"Core": team}
    assert ids(emulator, "collections") == {"Builders": collection}
    assert ids(emulator, "spaces")["Tutorials"] == space
    assert "Guides" not in ids(emulator, "spaces")
    assert ids(emulator, "translations") == {"Français": translation}
    assert_converged(docsync, renamed)


def test_renaming_a_collection_keeps_its_unpinned_children(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    tree = """\
organization: org_acme
collections: [{{{pin}title: {name}}}, {{title: Inner, parent: {name}}}]
spaces: [{{title: Guides, collection: {name}}}, {{title: Deep, collection: Inner}}]
"""
    apply_ok(docsync, write("tree.yaml", tree.format(pin="", name="Developers")))
    collections = ids(emulator, "collections")
    spaces = ids(emulator, "spaces")
    pin = f"id: {collections['Developers']}, "
    renamed = write("renamed.yaml", tree.format(pin=pin, name="Builders"))
    plan = docsync("plan", renamed)
    assert "0 to create, 1 to update, 0 to delete" in plan.stdout, plan.output
    apply_ok(docsync, renamed)
    assert ids(emulator, "collections") == {
        "Builders": collections["Developers"],
        "Inner": collections["Inner"],
    }
    assert ids(emulator, "spaces") == spaces
    assert_converged(docsync, renamed)


EXTRA = """\
organization: org_acme
teams: [{title: Platform}, {title: Stray}]
saml: [{label: Stray SSO}]
collections: [{title: Developers}, {title: Stray Collection}]
spaces: [{title: Guides, collection: Developers}, {title: Stray Space}]
openapi: [{slug: stray-api, source: {url: "https://acme.example/stray.yaml"}}]
translations: [{title: French}, {title: Stray Language}]
"""

KEEP = """\
organization: org_acme
{prune}
members: [{{email: ada@acme.example, role: admin}}]
teams: [{{title: Platform}}]
saml: []
collections: [{{title: Developers}}]
spaces: [{{title: Guides, collection: Developers}}]
openapi: []
translations: [{{title: French}}]
"""


def live_titles(emulator: EmulatorHandle) -> dict[str, list[str]]:
    return {
        "teams": sorted(ids(emulator, "teams")),
        "saml": sorted(ids(emulator, "saml", "label")),
        "collections": sorted(ids(emulator, "collections")),
        "spaces": sorted(ids(emulator, "spaces")),
        "openapi": sorted(ids(emulator, "openapi", "slug")),
        "translations": sorted(ids(emulator, "translations")),
        "members": sorted(m["user"]["email"] for m in listed(emulator, f"{ORG}/members")),
    }


def test_without_prune_unmatched_resources_are_listed_and_left_alone(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    apply_ok(docsync, write("extra.yaml", EXTRA))
    before = live_titles(emulator)
    keep = write("keep.yaml", KEEP.format(prune=""))
    plan = docsync("plan", keep, "--detailed-exitcode")
    assert plan.exit_code == 0, plan.output
    for stray in (
        'team["Stray"]',
        'collection["Stray Collection"]',
        'space["Stray Space"]',
        'space["Internal Handbook"] (id space_handbook)',
        'translation["Stray Language"]',
        'member["lin@acme.example"] (id u_lin)',
    ):
        assert f"  {stray}" in plan.stdout, stray
    assert "left alone" in plan.stdout
    # `saml: []` and `openapi: []` write nothing: those kinds are not managed, not even read.
    assert "Stray SSO" not in plan.stdout and "stray-api" not in plan.stdout
    apply_ok(docsync, keep)
    assert live_titles(emulator) == before


def test_prune_deletes_unmatched_but_never_spaces_or_members(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    apply_ok(docsync, write("extra.yaml", EXTRA))
    before = live_titles(emulator)
    never = "prune: [teams, saml, collections, spaces, openapi, translations, members]"
    refused = docsync("plan", write("never.yaml", KEEP.format(prune=never)))
    assert refused.exit_code == 1, refused.output
    assert "docsync never prunes spaces" in refused.stderr
    assert "docsync never prunes members" in refused.stderr
    prune = "prune: [teams, saml, collections, openapi, translations]"
    keep = write("keep.yaml", KEEP.format(prune=prune))
    plan = docsync("plan", keep)
    assert plan.exit_code == 0, plan.output
    assert "0 to create, 0 to update, 5 to delete" in plan.stdout
    assert "# pruned: no manifest entry, and `prune` lists teams" in plan.stdout
    assert '  space["Stray Space"]' in plan.stdout  # unmanaged, not deleted
    apply_ok(docsync, keep)
    after = live_titles(emulator)
    assert after == {
        "teams": ["Platform"],
        "saml": [],
        "collections": ["Developers"],
        "spaces": before["spaces"],
        "openapi": [],
        "translations": ["French"],
        "members": before["members"],
    }
    assert_converged(docsync, keep)


def test_protected_absent_entry_is_refused_and_nothing_changes(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    apply_ok(docsync, write("base.yaml", BASE))
    before = live_titles(emulator)
    stats = emulator.stats()
    gone = write(
        "gone.yaml",
        """\
organization: org_acme
teams: [{title: Platform, state: absent, protect: true}]
translations: [{title: French, state: absent}]
""",
    )
    for command in (["plan"], ["apply", "--auto-approve"]):
        result = docsync(*command, gone)
        assert result.exit_code == 1, result.output
        assert "protect: true forbids deleting this entry" in result.stderr
        assert "gone.yaml:2:" in result.stderr and "teams[0]" in result.stderr
    assert live_titles(emulator) == before
    writes = [k for k in emulator.stats()["requests"] if not k.startswith("GET")]
    assert writes == [k for k in stats["requests"] if not k.startswith("GET")]


def test_protect_on_a_present_entry_plans_normally(docsync: Docsync, write: Write) -> None:
    path = write("p.yaml", "organization: org_acme\nteams: [{title: Platform, protect: true}]\n")
    apply_ok(docsync, path)
    assert_converged(docsync, path)


def test_state_absent_deletes(docsync: Docsync, emulator: EmulatorHandle, write: Write) -> None:
    full = """\
organization: org_acme
teams: [{title: Platform}]
saml: [{label: Okta, defaultRole: read}]
spaces: [{title: Scratch}]
"""
    apply_ok(docsync, write("full.yaml", full))
    scratch = ids(emulator, "spaces")["Scratch"]
    absent = write(
        "absent.yaml",
        """\
organization: org_acme
teams: [{title: Platform, state: absent}]
saml: [{label: Okta, state: absent}]
spaces: [{title: Scratch, state: absent}]
""",
    )
    plan = docsync("plan", absent)
    assert "0 to create, 0 to update, 3 to delete" in plan.stdout, plan.output
    apply_ok(docsync, absent)
    assert ids(emulator, "teams") == {} and ids(emulator, "saml", "label") == {}
    assert "Scratch" not in ids(emulator, "spaces")
    with emulator.client() as client:
        binned: dict[str, Any] = client.get(f"/v1/spaces/{scratch}").json()
    assert binned.get("deletedAt"), binned  # soft-deleted: still in the bin
    assert_converged(docsync, absent)


def test_pinned_soft_deleted_space_is_restored_not_recreated(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    apply_ok(docsync, write("space.yaml", "organization: org_acme\nspaces: [{title: Guides}]\n"))
    space = ids(emulator, "spaces")["Guides"]
    with emulator.client() as client:
        assert client.delete(f"/v1/spaces/{space}").is_success
    assert "Guides" not in ids(emulator, "spaces")
    pinned = write(
        "pinned.yaml",
        f"organization: org_acme\nspaces: [{{id: {space}, title: Guides, emoji: '1f4d8'}}]\n",
    )
    plan = docsync("plan", pinned)
    assert plan.exit_code == 0, plan.output
    assert '+ restore space["Guides"]' in plan.stdout
    assert "0 to create, 0 to update, 1 to restore, 0 to delete" in plan.stdout
    apply_ok(docsync, pinned)
    spaces = [s for s in listed(emulator, f"{ORG}/spaces") if s["title"] == "Guides"]
    assert [(s["id"], s.get("emoji")) for s in spaces] == [(space, "1f4d8")]
    assert_converged(docsync, pinned)


def test_unpinned_spaces_are_not_matched_to_the_bin(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    path = write("space.yaml", "organization: org_acme\nspaces: [{title: Guides}]\n")
    apply_ok(docsync, path)
    space = ids(emulator, "spaces")["Guides"]
    with emulator.client() as client:
        assert client.delete(f"/v1/spaces/{space}").is_success
    plan = docsync("plan", path)
    assert '+ create space["Guides"]' in plan.stdout, plan.output

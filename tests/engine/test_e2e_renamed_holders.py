"""A resource renamed with `was:` keeps what it holds, and what the entry writes of it is
managed in the same plan: a team's members, a collection's, space's or site's grants, a site's
sections and share links. They were read only for a live resource with the entry's new title,
so the plan compared them with nothing: the members and grants written were left as they were
(the next plan changed them), and a site's sections and share links were made again beside the
old ones (the next plan failed on two of each)."""

from __future__ import annotations

from tests.kit import EmulatorHandle, Write, apply, assert_converged, cli_for, listed

BEFORE = """\
organization: org_acme
teams:
  - {title: Writers, members: [lin@acme.example]}
collections:
  - {title: Dev, permissions: {teams: {Writers: edit}}}
spaces:
  - {title: Guides, collection: Dev, permissions: {members: {sam@acme.example: read}}}
sites:
  - title: Docs
    sections:
      - {title: Guides, siteSpaces: [{space: Guides, path: latest}]}
    shareLinks: [{name: Preview}]
    permissions: {teams: {Writers: read}}
"""
AFTER = """\
organization: org_acme
teams:
  - {title: Authors, was: Writers, members: [kim@acme.example]}
collections:
  - {title: Developers, was: Dev, permissions: {teams: {}}}
spaces:
  - title: Handbook
    was: Dev/Guides
    collection: Developers
    permissions: {members: {sam@acme.example: edit}}
sites:
  - title: Developer Docs
    was: Docs
    sections:
      - {title: Guides, siteSpaces: [{space: Handbook, path: latest}]}
      - {title: API, siteSpaces: [{space: Handbook, path: v1}]}
    shareLinks: [{name: Preview}, {name: Partners}]
    permissions: {teams: {Authors: admin}}
"""


def test_what_a_renamed_resource_holds_is_planned_with_the_rename(
    either_contract: EmulatorHandle, write: Write
) -> None:
    docsync = cli_for(either_contract)
    apply(docsync, write("before.yaml", BEFORE))
    manifest = write("after.yaml", AFTER)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    for change in (
        '- members["lin@acme.example"]',
        '+ members["kim@acme.example"]',
        'delete collection["Developers"].grant[team ',
        'update space["Developers/Handbook"].grant[member "sam@acme.example"]',
        'update site["Developer Docs"].grant[team ',
        'create site["Developer Docs"].section["API"]',
        '+ shareLinks[name="Partners"]',
    ):
        assert change in planned.stdout, change
    assert 'create site["Developer Docs"].section["Guides"]' not in planned.stdout
    # The site space publishes the space renamed in this plan: the same space, no change.
    assert 'site_space["latest"]' not in planned.stdout
    assert 'shareLinks[name="Preview"]' not in planned.stdout
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    (site,) = listed(either_contract, "/v1/orgs/org_acme/sites")
    with either_contract.client() as client:
        links = client.get(f"/v1/orgs/org_acme/sites/{site['id']}/share-links").json()["items"]
    assert sorted(link["name"] for link in links) == ["Partners", "Preview"]


def test_a_resource_renamed_out_of_a_collection_lands_where_its_key_says(
    either_contract: EmulatorHandle, write: Write
) -> None:
    """An entry without `collection` (a space) or `parent` (a collection) is keyed at the top
    level: renamed with `was:` from inside a collection, it moves there. It kept its place, so
    the next plan found no space or collection with its key and planned a new one."""
    docsync = cli_for(either_contract)
    before = """\
organization: org_acme
collections: [{title: Dev}, {title: Inner, parent: Dev}]
spaces: [{title: Runbooks, collection: Dev}]
"""
    apply(docsync, write("before.yaml", before))
    after = """\
organization: org_acme
collections: [{title: Dev}, {title: Outer, was: Dev/Inner}]
spaces: [{title: Playbooks, was: Dev/Runbooks}]
"""
    manifest = write("after.yaml", after)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    assert 'parent = collection["Dev"] -> null' in planned.stdout
    assert 'collection = collection["Dev"] -> null' in planned.stdout
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    spaces = {
        s["title"]: s.get("parent") for s in listed(either_contract, "/v1/orgs/org_acme/spaces")
    }
    assert spaces["Playbooks"] is None

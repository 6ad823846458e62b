"""What `plan` refuses without reading anything, `validate` refuses first, at the line that
writes it: pre-commit is red where the CI plan would be. (The property that holds the two
together: tests/manifest/test_validate_property.py.)"""

from __future__ import annotations

import pytest

from tests.kit import Write
from tests.manifest.conftest import run_validate

CASES = {
    "a site space naming a space the manifest deletes": (
        "spaces: [{title: Guides, state: absent}]\n"
        "sites: [{title: Docs, siteSpaces: [{space: Guides, path: g}]}]\n",
        "m.yaml:3:44: sites[0].siteSpaces[0].space: 'Guides' names a space that this manifest "
        "deletes (state: absent) at ",
    ),
    "a translation of a space the manifest deletes": (
        "spaces: [{title: Guides, state: absent}]\ntranslations: [{space: Guides, language: fr}]\n",
        "translations[0].space: 'Guides' names a space that this manifest deletes",
    ),
    "an integration installed on a site the manifest deletes": (
        "sites: [{title: Old Docs, state: absent}]\n"
        "integrations: [{name: google-analytics, sites: {Old Docs: {}}}]\n",
        "integrations[0].sites.Old Docs: 'Old Docs' names a site that this manifest deletes "
        "(state: absent) at ",
    ),
    "an integration installed on a space the manifest deletes": (
        "spaces: [{title: Guides, collection: Dev, state: absent}]\n"
        "integrations: [{name: google-analytics, spaces: {Dev/Guides: {}}}]\n",
        "integrations[0].spaces.Dev/Guides: 'Dev/Guides' names a space that this manifest deletes",
    ),
    "an integration installed on a site no entry holds while sites are pruned": (
        "prune: {sites: 'Old*'}\nintegrations: [{name: google-analytics, sites: {Old Docs: {}}}]\n",
        "integrations[0].sites.Old Docs: no site entry holds 'Old Docs', and `prune` sites "
        'owns "Old*": a live site of this title would be deleted by this plan',
    ),
    "publishing auth on a site that is not visitor-auth": (
        "sites: [{title: Docs, visibility: share-link, publishingAuth: {backend: custom}}]\n",
        "sites[0].publishingAuth: publishingAuth applies to visitor-auth sites, and this site "
        "is written share-link: write `visibility: visitor-auth`, or leave publishingAuth out",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_validate_refuses_what_plan_refuses_offline(write: Write, case: str) -> None:
    written, message = CASES[case]
    result = run_validate(str(write("m.yaml", "organization: org_acme\n" + written)))
    assert result.exit_code == 1, result.output
    assert message in result.output, result.output


@pytest.mark.parametrize(
    "written",
    [
        # a live site of that title may stand: sites are not pruned, or not that one
        "integrations: [{name: google-analytics, sites: {Old Docs: {}}}]\n",
        "prune: {sites: 'Beta*'}\nintegrations: [{name: ga, sites: {Old Docs: {}}}]\n",
        # an entry keeps it, under its new title too
        "prune: [sites]\nsites: [{title: New Docs, was: Old Docs}]\n"
        "integrations: [{name: ga, sites: {New Docs: {}}}]\n",
        # the visibility is not written: the live site may be visitor-auth
        "sites: [{title: Docs, publishingAuth: {backend: custom}}]\n",
        # a live space of that title may stand beside the one deleted, in another collection
        "spaces: [{title: Guides, collection: Old, state: absent}, {title: Guides}]\n"
        "sites: [{title: Docs, siteSpaces: [{space: Guides, path: g}]}]\n",
    ],
)
def test_what_a_live_state_could_satisfy_is_left_to_plan(write: Write, written: str) -> None:
    result = run_validate(str(write("m.yaml", "organization: org_acme\n" + written)))
    assert result.exit_code == 0, result.output

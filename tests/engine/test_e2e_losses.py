"""What a delete takes with it is read, so the plan can name it, whether the manifest writes the
entry `state: absent` or prunes its kind: a site's structure and parts, an integration's site
and space installations, a team's grants on resources whose grants the manifest does not
manage. (The flags themselves, from what was read: tests/core/test_planner_losses.py.)"""

from __future__ import annotations

import pytest

from tests.kit import Docsync, Write, apply

BEFORE = """\
organization: org_acme
teams:
  - {title: Writers, members: [lin@acme.example]}
spaces:
  - {title: Guides, permissions: {teams: {Writers: edit}}}
integrations:
  - name: google-analytics
    configuration: {tracking_id: G-1}
    sites: {Docs: {}}
sites:
  - title: Docs
    visibility: share-link
    sections:
      - {title: Start, path: start, siteSpaces: [{space: Guides, path: latest}]}
    shareLinks: [{name: Agency}]
    customization: {styling: {theme: clean}}
"""
#: the second manifest leaves the space's grants unmanaged: only the team's delete reads them
ABSENT = """\
organization: org_acme
spaces: [{title: Guides}]
teams: [{title: Writers, state: absent}]
integrations: [{name: google-analytics, state: absent}]
sites: [{title: Docs, state: absent}]
safety: {max_delete_share: 1}
"""
PRUNED = """\
organization: org_acme
spaces: [{title: Guides}]
prune: {teams: Writers, integrations: google-analytics, sites: Docs}
safety: {max_delete_share: 1}
"""


@pytest.mark.parametrize("deleted", [ABSENT, PRUNED], ids=["absent", "pruned"])
def test_a_delete_names_what_goes_with_it(docsync: Docsync, write: Write, deleted: str) -> None:
    apply(docsync, write("before.yaml", BEFORE))
    planned = docsync("plan", write("after.yaml", deleted))
    assert planned.exit_code == 0, planned.output
    out = planned.stdout
    assert 'its grants go with it: space["Guides"]: edit' in out, out
    assert "uninstalls it from its sites too: Docs" in out, out
    assert 'goes with it: sections "Start"; site spaces "latest"; share links "Agency"' in out
    assert "customization" in out.split("goes with it:")[1].splitlines()[0], out
    careful = out[out.index("Needs a careful look") :]
    for address in ('team["Writers"]', 'integration["google-analytics"]', 'site["Docs"]'):
        assert f"delete {address}" in careful, out

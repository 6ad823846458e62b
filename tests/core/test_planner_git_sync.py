"""Git Sync installations planned without HTTP: one action per site or space that writes
`gitSync` (install and configure, configure, uninstall), only the fields written managed, the
GitLab token a secret production never answers, every configuration flagged a content change,
a GitHub one pending until its account is connected; a site whose repository owns its
structure refuses `sections:` and the rest, located."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.core.model import Action
from docsync.core.payloads import Payload
from docsync.manifest import ManifestError
from tests.core import plankit as k

TOKEN = "glpat-SECRET-0123456789"
GITLAB = (
    "{provider: gitlab, providerConfiguration: {projectId: 4242, branch: refs/heads/main, "
    "accessToken: \"{{ env('GITLAB_TOKEN') }}\"}, projectDirectory: docs, priority: git}"
)
GITHUB = "{provider: github, providerConfiguration: {repositoryId: 1234, branch: refs/heads/main}}"


def _installed(ident: str, provider: str, status: str, **setup: Any) -> dict[str, Any]:
    """An installation as production answers it (never a token)."""
    config = {"projectId": 4242} if provider == "gitlab" else {"repositoryId": 1234}
    return {
        "id": ident,
        "object": "git-sync-installation",
        "provider": provider,
        "providerConfiguration": {**config, "branch": "refs/heads/main"},
        "status": status,
        "target": {"type": "site"},
        **setup,
    }


def _site(installed: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    site = k.site("s1", "Docs", [k.section("sec1", "Guides", k.site_space("ss1", "sp1", "g"))])
    if installed is not None:
        site |= {"gitSync": {"installationId": installed["id"]}, "_gitSync": installed}
    return site | fields


def _space(installed: dict[str, Any] | None = None) -> dict[str, Any]:
    space: dict[str, Any] = {"id": "sp1", "title": "Guides"}
    if installed is not None:
        space |= {"gitSync": {"installationId": installed["id"]}, "_gitSync": installed}
    return space


def _plan(manifest: str, **items: Any) -> list[Action]:
    return k.plan(manifest, items, environ={"GITLAB_TOKEN": TOKEN}).actions


def _shown(action: Action) -> dict[str, Any]:
    return {c.field: "(sensitive)" if c.sensitive else c.after for c in action.changes}


ACTIVE = _installed("gs1", "gitlab", "active", projectDirectory="docs", priority="git")

CASES = [
    # (what, manifest's gitSync on the site, live installation, verb, fields shown)
    (
        "a new installation: installed and configured, the token a secret",
        GITLAB,
        None,
        "create",
        {
            "provider": "gitlab",
            "providerConfiguration": {"projectId": 4242, "branch": "refs/heads/main"},
            "providerConfiguration.accessToken": "(sensitive)",
            "projectDirectory": "docs",
            "priority": "git",
        },
    ),
    ("as written: nothing (the token is never answered)", GITLAB, ACTIVE, None, {}),
    (
        "production has no token: the token alone is sent",
        GITLAB,
        ACTIVE | {"status": "unauthenticated"},
        "update",
        {"providerConfiguration.accessToken": "(sensitive)"},
    ),
    (
        "a branch and a priority changed",
        GITLAB.replace("refs/heads/main", "refs/heads/dev").replace("git}", "gitbook}"),
        ACTIVE,
        "update",
        {"providerConfiguration": {"branch": "refs/heads/dev"}, "priority": "gitbook"},
    ),
    (
        "another provider",
        GITHUB,
        ACTIVE,
        "update",
        {
            "provider": "github",
            "providerConfiguration": {"repositoryId": 1234, "branch": "refs/heads/main"},
        },
    ),
    ("null uninstalls", "null", ACTIVE, "delete", {"provider": None}),
    ("null with nothing installed: nothing", "null", None, None, {}),
    (
        "agent instructions in another order: nothing",
        "{provider: gitlab, agentInstructions: [claude, agents]}",
        ACTIVE | {"agentInstructions": ["agents", "claude"]},
        None,
        {},
    ),
]


@pytest.mark.parametrize(
    ("written", "live", "verb", "shown"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_one_action_per_installation_with_the_fields_written(
    written: str, live: dict[str, Any] | None, verb: str | None, shown: dict[str, Any]
) -> None:
    actions = _plan(f"sites:\n  - title: Docs\n    gitSync: {written}\n", site=[_site(live)])
    if verb is None:
        assert actions == []
        return
    [action] = actions
    assert (action.verb, action.kind, action.address) == (verb, "git_sync", 'site["Docs"].gitSync')
    assert _shown(action) == shown
    assert action.content_change == (verb != "delete")
    assert TOKEN not in repr(action.changes) + repr(action.notes)


def test_a_new_site_installation_says_what_it_starts_and_that_it_owns_the_structure() -> None:
    [action] = _plan(f"sites:\n  - title: Docs\n    gitSync: {GITLAB}\n", site=[_site()])
    notes = "\n".join(action.notes)
    assert "CONTENT CHANGE: starts an import from the repository's branch" in notes
    assert "STRUCTURE OWNED BY GIT SYNC" in notes and "gitbook-docs.yaml under docs/" in notes
    payload: Payload = action.payload
    setup = payload.setup  # type: ignore[attr-defined]
    assert setup == {
        "provider": "gitlab",
        "providerConfiguration": {
            "projectId": 4242,
            "branch": "refs/heads/main",
            "accessToken": TOKEN,
        },
        "projectDirectory": "docs",
        "priority": "git",
    }
    assert action.location is not None and action.location.endswith(":4:14")


def test_a_github_installation_is_pending_once_and_then_not_planned_again() -> None:
    manifest = f"spaces:\n  - title: Guides\n    gitSync: {GITHUB}\n"
    [action] = _plan(manifest, space=[_space()])
    assert action.address == 'space["Guides"].gitSync' and action.verb == "create"
    assert sum("PENDING" in note for note in action.notes) == 1
    pending = _installed("gs2", "github", "pending") | {"target": {"type": "space"}}
    assert _plan(manifest, space=[_space(pending)]) == []


def test_a_space_deleted_says_its_installation_goes_with_it() -> None:
    pending = _installed("gs2", "github", "pending") | {"target": {"type": "space"}}
    live = _space(pending) | {
        "gitSync": {"installationId": "gs2", "installationProvider": "github"}
    }
    [action] = _plan("spaces:\n  - title: Guides\n    state: absent\n", space=[live])
    assert (action.verb, action.address, action.destructive) == ("delete", 'space["Guides"]', True)
    assert "LOSS: goes with it: its Git Sync installation (github)" in action.notes


def test_not_written_is_not_managed() -> None:
    assert _plan("sites:\n  - title: Docs\n    visibility: public\n", site=[_site(ACTIVE)]) == []


def test_a_space_its_sites_installation_manages_is_its_sites() -> None:
    child = _installed("gs3", "gitlab", "active") | {"parentInstallationId": "gs1"}
    problems = k.attempt(
        f"spaces:\n  - title: Guides\n    gitSync: {GITHUB}\n",
        {"space": [_space(child) | {"gitSync": {"installationId": "gs3"}}]},
    ).problems
    assert len(problems) == 1 and "its site's (installation gs1)" in problems[0], problems


def test_a_synced_site_refuses_its_structure_located_and_gives_it_back_on_uninstall() -> None:
    sections = "    sections:\n      - {title: Guides, path: guides}\n"
    problems = k.attempt(f"sites:\n  - title: Docs\n{sections}", {"site": [_site(ACTIVE)]})
    [problem] = problems.problems
    assert ":5:7: sites[0].sections: the structure of 'Docs' is Git Sync's" in problem
    assert "gitbook-docs.yaml" in problem
    more = f"{sections}      - {{title: API, path: api, siteSpaces: [{{space: sp1, path: a}}]}}\n"
    manifest = f"sites:\n  - title: Docs\n    gitSync: null\n{more}"
    actions = _plan(manifest, site=[_site(ACTIVE)], space=[_space()])
    uninstall = next(a for a in actions if a.kind == "git_sync")
    assert uninstall.verb == "delete"
    structure = [a for a in actions if a.kind in ("section", "site_space")]
    assert structure and all(uninstall.key in a.depends_on for a in structure)


@pytest.mark.parametrize(
    ("gitsync", "more", "message"),
    [
        (GITLAB, "    sections: []\n", r"manifest\.yaml:5:5: sites\[0\]\.sections: the structure"),
        (GITLAB, "    siteSpaces: []\n", r"sites\[0\]\.siteSpaces: the structure of 'Docs'"),
        (
            "{provider: github, providerConfiguration: {projectId: 1}}",
            "",
            "providerConfiguration.projectId is not github's",
        ),
        ("{provider: gitlab, providerConfiguration: {branch: main}}", "", "must be a branch ref"),
    ],
)
def test_validate_refuses_located(gitsync: str, more: str, message: str) -> None:
    with pytest.raises(ManifestError, match=message):
        k.load(f"sites:\n  - title: Docs\n    gitSync: {gitsync}\n{more}")

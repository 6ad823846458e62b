"""`--resend-secrets` planned without HTTP: a secret the API never answers back (a context
connection's token, Git Sync's GitLab access token) cannot be seen rotated, so a plan made with
the flag sends each written one again, in the request that carries it (the connection's whole
setup, the installation's configuration), and says so; without the flag, or where no such
secret is written, nothing is planned (and the flag says why)."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.core.model import Plan
from docsync.kinds.assistant.connection_changes import HELD
from tests.core import plankit as k

TOKEN = "secret-token-value-0123456789"
NOTE = "SECRETS SENT AGAIN (--resend-secrets)"
NOTHING = "--resend-secrets: nothing to send again"

SETUP = {"repository": "acme/docs", "token": TOKEN}
CONNECTIONS = """\
    contextConnections:
      - {label: Status, connector: builtin:website, setupSettings: {url: "https://s.example"}}
%s"""
ISSUES = (
    "      - {label: Issues, connector: builtin:github-issues, "
    "setupSettings: {repository: acme/docs, token: \"{{ env('TOKEN') }}\"}}\n"
)
GITLAB = (
    "    gitSync: {provider: gitlab, providerConfiguration: {projectId: 4242, branch: "
    "refs/heads/main%s}}\n"
)
WITH_TOKEN = ", accessToken: \"{{ env('TOKEN') }}\""


def _connection(cid: str, label: str, connector: str, setup: dict[str, Any]) -> dict[str, Any]:
    usage = {"changeRequests": False, "search": True, "searchBoost": "x1.0"}
    return {
        "id": cid,
        "label": label,
        "connector": connector,
        "setupSettings": setup,
        "usageSettings": usage,
        "filter": "",
    }


STATUS = _connection("c1", "Status", "builtin:website", {"url": "https://s.example"})
#: as the site's read keeps it: the API answers its token masked
HELD_ISSUES = _connection("c2", "Issues", "builtin:github-issues", SETUP | {"token": HELD})


def _site(*connections: dict[str, Any], **parts: Any) -> dict[str, Any]:
    site = k.site("s1", "Docs", [])
    site["_contextConnections"] = list(connections)
    return site | parts


def _installed(status: str) -> dict[str, Any]:
    found = {
        "id": "gs1",
        "provider": "gitlab",
        "providerConfiguration": {"projectId": 4242, "branch": "refs/heads/main"},
        "status": status,
        "target": {"type": "site"},
    }
    return {"gitSync": {"installationId": "gs1"}, "_gitSync": found}


def _plan(part: str, site: dict[str, Any], resend: bool) -> Plan:
    manifest = f"sites:\n  - title: Docs\n{part}"
    items = {"site": [site]}
    return k.plan(manifest, items, environ={"TOKEN": TOKEN}, resend_secrets=resend)


CASES = [
    # (what, manifest's part, live site, with the flag, the actions' addresses, noted, warned)
    (
        "a connection's token, sent again with its whole setup",
        CONNECTIONS % ISSUES,
        _site(STATUS, HELD_ISSUES),
        True,
        ['site["Docs"].contextConnections'],
        True,
        False,
    ),
    ("without the flag", CONNECTIONS % ISSUES, _site(STATUS, HELD_ISSUES), False, [], False, False),
    ("no secret written: nothing, and why", CONNECTIONS % "", _site(STATUS), True, [], False, True),
    (
        "the GitLab token, with the installation's configuration",
        GITLAB % WITH_TOKEN,
        _site(**_installed("active")),
        True,
        ['site["Docs"].gitSync'],
        True,
        False,
    ),
    ("no token written", GITLAB % "", _site(**_installed("active")), True, [], False, True),
    (
        "production has no token: sent anyway, not for the flag",
        GITLAB % WITH_TOKEN,
        _site(**_installed("unauthenticated")),
        True,
        ['site["Docs"].gitSync'],
        False,
        True,
    ),
]


@pytest.mark.parametrize(
    ("part", "site", "resend", "addresses", "noted", "warned"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_secrets_no_plan_can_compare_are_sent_again_where_written(
    part: str,
    site: dict[str, Any],
    resend: bool,
    addresses: list[str],
    noted: bool,
    warned: bool,
) -> None:
    plan = _plan(part, site, resend)
    assert [a.address for a in plan.actions] == addresses
    assert plan.resend_secrets == resend
    assert any(NOTE in note for a in plan.actions for note in a.notes) == noted
    assert any(NOTHING in warning for warning in plan.warnings) == warned
    for action in plan.actions:
        assert TOKEN not in repr(action.changes) + repr(action.notes)
        assert all(c.sensitive for c in action.changes if "oken" in c.field)


def test_a_connection_sent_again_carries_its_whole_setup_and_nothing_else() -> None:
    [action] = _plan(CONNECTIONS % ISSUES, _site(STATUS, HELD_ISSUES), True).actions
    writes = action.payload
    assert writes.updates == [
        {"id": "c2", "body": {"connector": "builtin:github-issues", "setupSettings": SETUP}}
    ]
    assert not writes.creates and not writes.deletes
    assert [c.field for c in action.changes] == ["contextConnections.Issues.setupSettings.token"]


def test_an_installation_sent_again_carries_its_configuration_with_the_token() -> None:
    [action] = _plan(GITLAB % WITH_TOKEN, _site(**_installed("active")), True).actions
    assert action.verb == "update" and action.content_change  # a configuration starts a sync
    setup = action.payload.setup  # type: ignore[attr-defined]
    assert setup["providerConfiguration"] == {
        "projectId": 4242,
        "branch": "refs/heads/main",
        "accessToken": TOKEN,
    }

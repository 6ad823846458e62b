"""What a site's assistant reads (context connections) and where it works (channels), planned
without HTTP: exact lists keyed by label and by type, one action per site, a setup sent whole
when it changes (its secrets again), a secret never shown nor compared where the API masks it,
a label set after the create, an integration's connection after its installation, a removal
flagged as a loss, and what `validate` refuses."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.kinds import KINDS
from docsync.kinds.assistant import connection_changes as change
from docsync.kinds.assistant.channels import Channels
from docsync.kinds.assistant.connection_changes import HELD
from docsync.kinds.assistant.context_connections import ContextConnections
from docsync.manifest import ManifestError
from docsync.render.markdown import render_markdown
from docsync.render.text import render_plan
from tests.core import plankit as k

TOKEN = "ghp-secret-discussions-token"
USAGE = {"changeRequests": False, "search": True, "searchBoost": "x1.0"}
SCHEMAS = {"items": [], "schemas": {"google-analytics": {}}}


def connection(cid: str, label: str, connector: str, **fields: Any) -> dict[str, Any]:
    """A live connection as the site's read keeps it (a secret the API holds as HELD)."""
    return {
        "id": cid,
        "label": label,
        "connector": connector,
        "setupSettings": fields.get("setupSettings", {}),
        "usageSettings": fields.get("usageSettings", USAGE),
        "filter": fields.get("filter", ""),
    }


WEBSITE = connection("c1", "Status", "builtin:website", setupSettings={"url": "https://s.example"})
ISSUES = connection(
    "c2",
    "Issues",
    "builtin:github-issues",
    setupSettings={"repository": "acme/docs", "token": HELD},
)
SLACK = {
    "id": "h1",
    "type": "builtin:slack",
    "role": "support",
    "setupSettings": {"allowedChannels": ["help", "docs"]},
}


def live(
    connections: list[dict[str, Any]] | None = None,
    channels: list[dict[str, Any]] | None = None,
    **kinds: Any,
) -> dict[str, Any]:
    docs = k.site("s1", "Docs", [])
    docs["_contextConnections"] = list(connections or [])
    docs["_channels"] = list(channels or [])
    return {"site": [docs], **kinds}


def plan(part: str, items: dict[str, Any] | None = None, head: str = "") -> Any:
    manifest = f"{head}sites:\n  - title: Docs\n{part}"
    return k.plan(manifest, items or live(), environ={"GH": TOKEN, "GH2": TOKEN + "-rotated"})


STATUS = '      - {label: Status, connector: builtin:website, setupSettings: {url: "https://s.example"}}\n'
ISSUES_WRITTEN = (
    "      - {label: Issues, connector: builtin:github-issues, "
    "setupSettings: {repository: acme/docs, token: \"{{ env('GH') }}\"}}\n"
)

#: (what, manifest's list, live connections): nothing to plan
UNCHANGED = [
    ("as read", STATUS + ISSUES_WRITTEN, [WEBSITE, ISSUES]),
    (
        "a rotated token, masked",
        STATUS + ISSUES_WRITTEN.replace("'GH'", "'GH2'"),
        [WEBSITE, ISSUES],
    ),
    (
        "usage as read",
        STATUS[:-2] + ", usageSettings: " + str(USAGE).replace("'", "") + "}\n",
        [WEBSITE],
    ),
    ("an empty filter", STATUS[:-2] + ', filter: ""}\n', [WEBSITE]),
]


@pytest.mark.parametrize(
    ("what", "written", "connections"), UNCHANGED, ids=[u[0] for u in UNCHANGED]
)
def test_what_is_as_written_plans_nothing(
    what: str, written: str, connections: list[dict[str, Any]]
) -> None:
    assert plan("    contextConnections:\n" + written, live(connections)).actions == []


def test_not_written_is_not_managed() -> None:
    assert plan("", live([WEBSITE, ISSUES], [SLACK])).actions == []


def test_connections_are_exact_keyed_by_label_labelled_after_their_create_and_a_loss_flagged() -> (
    None
):
    moved = STATUS.replace("s.example", "status.example")
    new = (
        "      - {label: Mail, connector: builtin:email,\n"
        '         usageSettings: {changeRequests: true, search: false, searchBoost: "x0.8"}}\n'
    )
    result = plan("    contextConnections:\n" + moved + new, live([WEBSITE, ISSUES]))
    action, payload = k.only_update(result, 'site["Docs"].contextConnections', ContextConnections)
    assert payload.creates == [
        {
            "body": {
                "connector": "builtin:email",
                "usageSettings": {"changeRequests": True, "search": False, "searchBoost": "x0.8"},
            },
            "then": {"label": "Mail"},
        }
    ]
    assert payload.updates == [
        {
            "id": "c1",
            "body": {
                "connector": "builtin:website",
                "setupSettings": {"url": "https://status.example"},
            },
        }
    ]
    assert payload.deletes == ["c2"]
    assert [c.field for c in action.changes] == [
        "contextConnections.Mail.connector",
        "contextConnections.Mail.usageSettings",
        "contextConnections.Status.setupSettings.url",
        "contextConnections.Issues.connector",
        "contextConnections.Issues.setupSettings.repository",
        "contextConnections.Issues.setupSettings.token",
    ]
    assert any('"Issues"' in note and note.startswith("LOSS") for note in action.notes)
    assert action.destructive  # under "Needs a careful look" in every rendering
    assert KINDS.named("site").requests(action) == 1 + 1 + 2


def test_a_setup_that_changes_sends_its_token_again_which_no_rendering_shows() -> None:
    moved = ISSUES_WRITTEN.replace("acme/docs", "acme/handbook")
    result = plan("    contextConnections:\n" + moved, live([ISSUES]))
    action, payload = k.only_update(result, 'site["Docs"].contextConnections', ContextConnections)
    assert payload.updates == [
        {
            "id": "c2",
            "body": {
                "connector": "builtin:github-issues",
                "setupSettings": {"repository": "acme/handbook", "token": TOKEN},
            },
        }
    ]
    assert [c.field for c in action.changes] == [
        "contextConnections.Issues.setupSettings.repository"
    ]
    made = plan("    contextConnections:\n" + ISSUES_WRITTEN, live())
    [token] = [c for c in made.actions[0].changes if c.field.endswith(".token")]
    assert token.sensitive and TOKEN not in repr(token)
    for shown in (
        render_plan(result),
        render_markdown(result),
        render_plan(made),
        render_markdown(made),
    ):
        assert TOKEN not in shown


def test_usage_written_is_merged_into_the_live_one() -> None:
    synced = connection(
        "c1",
        "Status",
        "builtin:website",
        setupSettings={"url": "https://s.example"},
        usageSettings={**USAGE, "sync": True},
    )
    written = (
        STATUS[:-2]
        + ', usageSettings: {changeRequests: true, search: true, searchBoost: "x1.0"}}\n'
    )
    _, payload = k.only_update(
        plan("    contextConnections:\n" + written, live([synced])),
        'site["Docs"].contextConnections',
        ContextConnections,
    )
    assert payload.updates == [
        {"id": "c1", "body": {"usageSettings": {**USAGE, "changeRequests": True, "sync": True}}}
    ]


def test_a_label_renamed_with_was_and_a_connection_without_one_are_patched_not_made_again() -> None:
    renamed = STATUS.replace("label: Status", "label: Status page, was: Status")
    _, payload = k.only_update(
        plan("    contextConnections:\n" + renamed, live([WEBSITE])),
        'site["Docs"].contextConnections',
        ContextConnections,
    )
    assert payload.updates == [{"id": "c1", "body": {"label": "Status page"}}]
    unlabelled = {**WEBSITE, "label": ""}
    _, payload = k.only_update(
        plan("    contextConnections:\n" + STATUS, live([unlabelled])),
        'site["Docs"].contextConnections',
        ContextConnections,
    )
    assert (payload.creates, payload.deletes) == ([], [])
    assert payload.updates == [{"id": "c1", "body": {"label": "Status"}}]


def test_an_integration_s_connection_waits_for_its_installation() -> None:
    written = (
        '    contextConnections: [{label: Analytics, connector: "integration:google-analytics"}]\n'
    )
    result = plan(
        written, live(integration=SCHEMAS), head="integrations: [{name: google-analytics}]\n"
    )
    [installed, connections] = result.actions
    assert installed.key == 'create integration["google-analytics"]'
    assert installed.key in connections.depends_on


#: (the site's list as written, what validate says)
REFUSED = [
    ("- {label: A, connector: builtin:fax}", "'builtin:fax' is not a connector"),
    ("- {label: A, connector: builtin:website}", "builtin:website needs its settings: url"),
    (
        "- {label: A, connector: builtin:github-issues, setupSettings: {repository: a/b}}",
        "builtin:github-issues needs 'token'",
    ),
    (
        "- {label: A, connector: builtin:website, setupSettings: {url: 'https://a', depth: '2'}}",
        "builtin:website takes no 'depth'",
    ),
    (
        "- {label: A, connector: builtin:youtube, setupSettings: {channelId: acme}}",
        "a YouTube channel id",
    ),
    (
        "- {label: A, connector: builtin:github-issues,\n"
        "         setupSettings: {repository: acme, token: t}}",
        "a repository as 'owner/name'",
    ),
    (
        "- {label: A, connector: builtin:email, setupSettings: {url: 'https://a'}}",
        "builtin:email takes no settings",
    ),
    ("- {label: A, connector: 'integration:google-analytic'}", "did you mean 'google-analytics'?"),
    (
        "- {label: A, connector: 'integration:slack'}",
        "integration 'slack' is not installed by this manifest",
    ),
    (
        "- {label: A, connector: builtin:email}\n      - {label: A, connector: builtin:api}",
        "context connection 'A' is defined twice",
    ),
    ("- {label: '', connector: builtin:email}", "label"),
]


@pytest.mark.parametrize(("written", "message"), REFUSED, ids=[m for _, m in REFUSED])
def test_validate_refuses_what_production_would(written: str, message: str) -> None:
    head = "integrations: [{name: google-analytics}, {name: slack, state: absent}]\n"
    with pytest.raises(
        ManifestError, match=message.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?")
    ):
        plan(f"    contextConnections:\n      {written}\n", head=head)


def test_a_plain_token_is_never_repeated_by_validate() -> None:
    written = (
        "      - label: A\n"
        "        connector: builtin:intercom\n"
        "        setupSettings: {token: plain-secret-1, extra: x}\n"
    )
    with pytest.raises(ManifestError) as refused:
        plan("    contextConnections:\n" + written)
    assert "takes no 'extra'" in str(refused.value) and "plain-secret-1" not in str(refused.value)


SLACK_WRITTEN = (
    '      - {type: "builtin:slack", role: support,\n'
    "         setupSettings: {allowedChannels: [docs, help]}}\n"
)


def test_channels_are_exact_keyed_by_type_and_a_removed_one_is_a_loss() -> None:
    assert plan("    channels:\n" + SLACK_WRITTEN, live(channels=[SLACK])).actions == []
    assert plan('    channels: [{type: "builtin:slack"}]\n', live(channels=[SLACK])).actions == []
    written = SLACK_WRITTEN.replace("[docs, help]", "[docs]").replace("support", "collaborator")
    written += (
        '      - {type: "builtin:github", setupSettings: {allowedRepositories: ["acme/*"]}}\n'
    )
    discord = {"id": "h2", "type": "builtin:discord", "role": "support", "setupSettings": {}}
    action, payload = k.only_update(
        plan("    channels:\n" + written, live(channels=[SLACK, discord])),
        'site["Docs"].channels',
        Channels,
    )
    assert payload.creates == [
        {"body": {"type": "builtin:github", "setupSettings": {"allowedRepositories": ["acme/*"]}}}
    ]
    assert payload.updates == [
        {
            "id": "h1",
            "body": {
                "type": "builtin:slack",
                "setupSettings": {"allowedChannels": ["docs"]},
                "role": "collaborator",
            },
        }
    ]
    assert payload.deletes == ["h2"]
    assert any(note.startswith("LOSS: channel builtin:discord") for note in action.notes)
    assert action.destructive
    role_only = SLACK_WRITTEN.replace("support", "collaborator")
    _, payload = k.only_update(
        plan("    channels:\n" + role_only, live(channels=[SLACK])),
        'site["Docs"].channels',
        Channels,
    )
    assert payload.updates == [{"id": "h1", "body": {"role": "collaborator"}}]


def test_a_channel_takes_only_its_type_s_settings() -> None:
    written = '    channels: [{type: "builtin:linear", setupSettings: {allowedChannels: [x]}}]\n'
    with pytest.raises(ManifestError, match="a builtin:linear channel takes no 'allowedChannels'"):
        plan(written)
    with pytest.raises(ManifestError, match="owner/name"):
        plan(
            '    channels: [{type: "builtin:github",\n'
            "                setupSettings: {allowedRepositories: [acme]}}]\n"
        )


class Names:
    """What export hands a kind: secrets as env() templates, what it leaves out."""

    def __init__(self) -> None:
        self.left: dict[str, list[str]] = {}

    def name(self, address: str) -> str:
        return address

    def secret(self, address: str, field: str) -> str:
        return f"{{{{ env('{field}') }}}}"

    def left_out(self, address: str, ids: list[str]) -> None:
        self.left[address] = ids


def test_a_token_read_in_clear_is_never_kept_and_export_writes_its_template() -> None:
    clear = {**ISSUES, "setupSettings": {"repository": "acme/docs", "token": TOKEN}}
    kept = change.kept(clear)
    assert kept["setupSettings"] == {"repository": "acme/docs", "token": HELD}
    state = k.live_state(live([kept]))
    site = state.by_address['site["Docs"]']
    names = Names()
    [entry] = KINDS.named("context_connection").export(site, state, names)  # type: ignore[attr-defined]
    assert entry["setupSettings"] == {
        "repository": "acme/docs",
        "token": "{{ env('contextConnections[\"Issues\"].setupSettings.token') }}",
    }


def test_export_leaves_out_a_site_whose_connections_or_channels_cannot_be_told_apart() -> None:
    state = k.live_state(live([WEBSITE, {**ISSUES, "label": ""}], [SLACK, {**SLACK, "id": "h2"}]))
    site = state.by_address['site["Docs"]']
    names = Names()
    for kind in ("context_connection", "channel"):
        assert KINDS.named(kind).export(site, state, names) is None  # type: ignore[attr-defined]
    assert names.left == {
        'site["Docs"].context_connection[""]': ["c2"],
        'site["Docs"].channel["builtin:slack"]': ["h1", "h2"],
    }

"""A site's AI and the governance fields planned without HTTP: agent settings (only the fields
written, instructions as text or a document), MCP servers (exact, keyed by name, header values
compared by keyed digest and never shown, flagged), the organization's agent instructions and
merge rules, a space's language and merge rules, a site's default level."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from docsync.kinds.assistant.agent_settings import AgentSettingsChange
from docsync.kinds.assistant.mcp_servers import McpServers, digested
from docsync.kinds.organization.documents import as_written, to_document
from docsync.manifest import ManifestError
from docsync.render.markdown import render_markdown
from docsync.render.text import render_plan
from tests.core import plankit as k

SECRET = "Bearer s3cret-mcp-token"
AGENT: dict[str, Any] = {
    "scans": {"topics": "auto"},
    "findings": {"changeRequests": "never"},
    "editing": {"customInstructions": to_document("Be kind.\n\nBe brief.")},
}


def server(server_id: str, name: str, **fields: Any) -> dict[str, Any]:
    """A live MCP server as the site's read keeps it (header values as digests)."""
    headers = fields.pop("headers", {})
    return {
        "id": server_id,
        "name": name,
        "url": fields.get("url", f"https://{name.lower()}.acme.example/mcp"),
        "transport": fields.get("transport", "sse"),
        "condition": fields.get("condition"),
        "headers": digested(headers),
    }


def live(*servers: dict[str, Any], agent: dict[str, Any] | None = None) -> dict[str, Any]:
    docs = k.site("s1", "Docs", [])
    docs["_mcpServers"] = list(servers)
    docs["_agentSettings"] = copy.deepcopy(agent or AGENT)
    return {"site": [docs]}


def manifest(part: str) -> str:
    return f"sites:\n  - title: Docs\n{part}"


def servers_action(plan: Any) -> tuple[Any, McpServers]:
    return k.only_update(plan, 'site["Docs"].mcpServers', McpServers)


def test_only_the_agent_settings_written_are_planned_and_merged() -> None:
    plan = k.plan(manifest("    agentSettings: {scans: {topics: never}}\n"), live())
    action, payload = k.only_update(plan, 'site["Docs"].agentSettings', AgentSettingsChange)
    assert payload.fields == {"scans.topics": "never"}
    assert [(c.field, c.before, c.after) for c in action.changes] == [
        ("agentSettings", {"scans": {"topics": "auto"}}, {"scans": {"topics": "never"}})
    ]


def test_instructions_compare_as_text_and_are_sent_as_a_document() -> None:
    same = '    agentSettings: {editing: {customInstructions: "Be kind.\\n\\nBe brief."}}\n'
    assert k.plan(manifest(same), live()).actions == []
    changed = manifest("    agentSettings: {editing: {customInstructions: Be bold.}}\n")
    action, payload = k.only_update(
        k.plan(changed, live()), 'site["Docs"].agentSettings', AgentSettingsChange
    )
    sent = payload.fields["editing.customInstructions"]
    assert sent["object"] == "document" and as_written(sent) == "Be bold."
    assert action.changes[0].after == {"editing": {"customInstructions": "Be bold."}}


def test_a_document_that_is_not_one_is_refused_offline() -> None:
    with pytest.raises(ManifestError, match="customInstructions"):
        k.plan(manifest("    agentSettings: {editing: {customInstructions: {nodes: 3}}}\n"), live())


def test_mcp_servers_are_exact_keyed_by_name_and_flagged() -> None:
    plan = k.plan(
        manifest(
            "    mcpServers:\n"
            "      - {name: Same, url: 'https://same.acme.example/mcp'}\n"
            "      - {name: Moved, url: 'https://moved.acme.example/v2', transport: http}\n"
            "      - name: New\n"
            "        url: https://new.acme.example\n"
            f"        headers: {{X-Key: '{SECRET}'}}\n"
        ),
        live(server("m1", "Same"), server("m2", "Moved"), server("m3", "Gone")),
    )
    action, payload = servers_action(plan)
    assert payload.creates == [
        {
            "body": {
                "name": "New",
                "url": "https://new.acme.example",
                "transport": "sse",
                "headers": {"X-Key": SECRET},
            }
        }
    ]
    assert payload.updates == [
        {"id": "m2", "body": {"url": "https://moved.acme.example/v2", "transport": "http"}}
    ]
    assert payload.deletes == ["m3"]
    assert action.security_change and not action.audience_change
    assert "mcpServers.New.headers" in [c.field for c in action.changes]
    shown = render_plan(plan) + render_markdown(plan)
    assert SECRET not in shown and "(sensitive)" in shown
    assert "#### Needs a careful look" in render_markdown(plan)


def test_a_rotated_header_is_one_update_of_its_headers_alone() -> None:
    written = manifest(
        "    mcpServers:\n"
        "      - name: Billing\n"
        "        url: https://billing.acme.example/mcp\n"
        f"        headers: {{Authorization: '{SECRET}'}}\n"
    )
    assert (
        k.plan(written, live(server("m1", "Billing", headers={"Authorization": SECRET}))).actions
        == []
    )
    old = server("m1", "Billing", headers={"Authorization": "old-token"})
    action, payload = servers_action(k.plan(written, live(old)))
    assert payload.updates == [{"id": "m1", "body": {"headers": {"Authorization": SECRET}}}]
    [change] = action.changes
    assert change.field == "mcpServers.Billing.headers" and change.sensitive
    assert SECRET not in repr(change.before) + repr(change.after)


def test_a_condition_removed_is_sent_as_null_and_servers_not_written_are_left_alone() -> None:
    conditioned = server("m1", "Docs", condition="visitor.claims.plan == 'pro'")
    written = manifest("    mcpServers: [{name: Docs, url: 'https://docs.acme.example/mcp'}]\n")
    _, payload = servers_action(k.plan(written, live(conditioned)))
    assert payload.updates == [{"id": "m1", "body": {"condition": None}}]
    assert k.plan("sites:\n  - title: Docs\n", live(conditioned)).actions == []


def test_two_servers_of_one_name_are_refused() -> None:
    twice = "    mcpServers: [{name: A, url: 'https://a.example'}, {name: A, url: 'https://b.example'}]\n"
    with pytest.raises(ManifestError, match="MCP server 'A' is defined twice"):
        k.plan(manifest(twice), live())


GOVERNED: dict[str, Any] = {
    "space": [
        {"id": "sp1", "title": "Guides", "language": "en", "mergeRules": {"type": "inherit"}},
    ],
    "site": [k.site("s1", "Docs", [], defaultLevel="inherit")],
}
RULES = "{type: rules, rules: [{rule: require_specific_reviewers, users: [u1]}]}"


def test_governance_fields_plan_one_update_each() -> None:
    plan = k.plan(
        "settings:\n"
        f"  mergeRules: {RULES}\n"
        "spaces:\n"
        "  - {title: Guides, language: fr, mergeRules: {type: none}}\n"
        "sites:\n"
        "  - {title: Docs, defaultLevel: read}\n",
        GOVERNED,
        {**k.ORG, "mergeRules": {"type": "none"}},
    )
    changes = {a.address: {c.field: c.after for c in a.changes} for a in plan.actions}
    assert changes["settings"] == {
        "mergeRules": {
            "type": "rules",
            "rules": [{"rule": "require_specific_reviewers", "users": ["u1"]}],
        }
    }
    assert changes['space["Guides"]'] == {"language": "fr", "mergeRules": {"type": "none"}}
    assert changes['site["Docs"]'] == {"defaultLevel": "read"}


def test_merge_rules_as_they_are_plan_nothing_and_inherit_is_a_space_s_alone() -> None:
    same = "spaces:\n  - {title: Guides, language: en, mergeRules: {type: inherit}}\n"
    assert k.plan(same, GOVERNED).actions == []
    with pytest.raises(ManifestError, match="mergeRules"):
        k.plan("settings:\n  mergeRules: {type: inherit}\n", GOVERNED)
    with pytest.raises(ManifestError, match="users"):
        k.plan("settings:\n  mergeRules: {type: rules, rules: [{rule: allow_bypass}]}\n", GOVERNED)


def test_agent_instructions_of_the_organization() -> None:
    read = to_document("Be kind.")
    written = "settings:\n  agentInstructions: Be kind.\n"
    assert k.plan(written, {"settings": read}).actions == []
    plan = k.plan("settings:\n  agentInstructions: Be bold.\n", {"settings": read})
    [action] = plan.actions
    assert [(c.field, c.before, c.after) for c in action.changes] == [
        ("agentInstructions", "Be kind.", "Be bold.")
    ]

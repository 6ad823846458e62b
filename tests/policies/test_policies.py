"""Policies on plans (docs/policies.md), end to end against the emulator: a rule that does not
compile is refused by `validate` at its line; a `deny` rule refuses plan and apply, naming the
rule, the action and the entry behind it, and nothing is saved or changed; a `warn` rule puts
its action under "Needs a careful look" in text, Markdown and JSON, and a saved plan carries it
to `show` and to its apply; a rule sees a secret as a marker only; a rule that cannot be
evaluated on an action stops the plan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.kit import CERT, ORG, REPO, Docsync, Write, listed

ACME = REPO / "examples" / "acme"
EXAMPLE = REPO / "examples" / "policies"

TEAMS = """\
organization: org_acme
teams:
  - title: Platform
  - title: Writers
saml:
  - label: Okta
    ssoURL: https://acme.okta.example/app/sso/saml
    entityID: http://www.okta.example/exk1
    certificate: "{{ env('SAML_CERT') }}"
"""


def rules(text: str) -> str:
    return "organization: org_acme\npolicies:\n" + text


def test_a_rule_that_does_not_compile_is_refused_by_validate_at_its_line(
    docsync: Docsync, write: Write
) -> None:
    path = write(
        "policies.yaml",
        rules(
            "  - name: broken\n"
            '    match: action.kind == "team" &&\n'
            "    deny: never\n"
            "  - name: typo\n"
            '    match: acton.kind == "team"\n'
            "    warn: a typo\n"
            "  - name: sum\n"
            "    match: 1 + 1\n"
            "    warn: not a condition\n"
            "  - name: both\n"
            '    match: "true"\n'
            "    warn: one\n"
            "    deny: other\n"
        ),
    )
    result = docsync("validate", path)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{path}:4:12: policies[0].match: does not compile as CEL: column 25: syntax error: "
        "mismatched input '<EOF>' (the expression ends too early)",
        f"{path}:7:12: policies[1].match: does not compile as CEL: column 6: undeclared "
        "reference to 'acton.kind' (a rule sees one variable, `action`)",
        f"{path}:10:12: policies[2].match: gives an int, not true or false: a rule's `match` "
        'is a condition, such as `action.kind == "site"`',
        f"{path}:12:5: policies[3]: a rule says either `deny: <why the plan is refused>` or "
        "`warn: <why the action needs a careful look>`, not both",
    ]


def test_a_deny_rule_refuses_plan_and_apply_naming_the_rule_and_the_entry(
    docsync: Docsync, emulator: EmulatorHandle, tmp_path: Path
) -> None:
    out = tmp_path / "plan.json"
    planned = docsync("plan", ACME, EXAMPLE, "--out", out)
    assert planned.exit_code == 1
    assert 'create site["Developer Docs"]' in planned.stdout  # the plan is shown, then refused
    policies, sites = EXAMPLE / "policies.yaml", ACME / "sites.yaml"
    assert planned.stderr == (
        "Error: the plan is refused by the manifest's policies (1 violation(s); nothing was "
        f"changed):\n  policy public-sites-reviewed ({policies}:9:5) denies create "
        f'site["Developer Docs"] ({sites}:5:5): a public site needs the docs leads\' review '
        "(they plan it with their own policies file)\n"
    )
    assert not out.exists()
    applied = docsync("apply", ACME, EXAMPLE, "--auto-approve")
    assert applied.exit_code == 1 and "policy public-sites-reviewed" in applied.stderr
    assert listed(emulator, f"{ORG}/teams") == []  # nothing was changed


def test_a_warn_rule_flags_its_action_in_every_format_and_a_saved_plan_keeps_it(
    docsync: Docsync, write: Write, tmp_path: Path
) -> None:
    write("teams.yaml", TEAMS)
    write(
        "policies.yaml",
        rules(
            "  - name: writers-reviewed\n"
            '    match: action.kind == "team" && action.after.title == "Writers"\n'
            "    warn: the Writers team is reviewed by the docs leads\n"
        ),
    )
    text = docsync("plan", tmp_path)
    assert text.exit_code == 0, text.output
    careful = text.stdout.split("Needs a careful look: 1 action(s):\n")[1].split("\n\n")[0]
    assert careful == (
        '  create team["Writers"] (policy writers-reviewed: the Writers team is reviewed by the '
        "docs leads)"
    )
    assert "# POLICY writers-reviewed: the Writers team is reviewed" in text.stdout
    markdown = docsync("plan", tmp_path, "--format", "markdown").stdout
    assert "🟡 1 flagged by policies" in markdown
    look = markdown.split("#### Needs a careful look\n\n")[1].split("\n\n")[0]
    assert look.startswith('- 🟡 **create** `team["Writers"]`')
    actions = json.loads(docsync("plan", tmp_path, "--format", "json").stdout)["actions"]
    flagged = [(a["address"], a["needs_review"], a["policy_warnings"]) for a in actions]
    assert ('team["Platform"]', False, []) in flagged
    warning = {
        "rule": "writers-reviewed",
        "message": "the Writers team is reviewed by the docs leads",
    }
    assert ('team["Writers"]', True, [warning]) in flagged
    saved = tmp_path / "out" / "plan.json"
    saved.parent.mkdir()
    assert docsync("plan", tmp_path, "--out", saved).exit_code == 0
    shown = docsync("show", saved)
    assert shown.stdout == text.stdout
    assert docsync("show", saved, "--format", "markdown").stdout == markdown
    applied = docsync("apply", "--plan", saved)
    assert applied.exit_code == 0, applied.output


def test_a_rule_sees_a_secret_as_a_marker_never_its_value(docsync: Docsync, write: Write) -> None:
    write("teams.yaml", TEAMS)
    path = write(
        "policies.yaml",
        rules(
            "  - name: secret-is-a-marker\n"
            '    match: action.kind == "saml" && action.after.certificate.sensitive\n'
            "    warn: marked\n"
            "  - name: secret-value\n"
            f'    match: action.kind == "saml" && action.after.certificate == "{CERT}"\n'
            "    deny: the value reached the rule\n"
        ),
    )
    result = docsync("plan", path.parent)
    assert result.exit_code == 0, result.output
    assert "(policy secret-is-a-marker: marked)" in result.stdout
    assert CERT not in result.output


@pytest.mark.parametrize(
    ("match", "why"),
    [
        ('action.after.role == "admin"', 'the action has no "role"; guard what an action may lack'),
        ("action.address", "it gives a string, not true or false"),
    ],
)
def test_a_rule_that_cannot_be_evaluated_on_an_action_stops_the_plan(
    docsync: Docsync, write: Write, match: str, why: str
) -> None:
    write("teams.yaml", TEAMS)
    path = write("policies.yaml", rules(f"  - name: careless\n    match: {match}\n    warn: x\n"))
    result = docsync("plan", path.parent)
    assert result.exit_code == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith(
        f'Error: {path}:4:12: policy careless cannot be evaluated on create team["Platform"]: {why}'
    ), first
    assert first.endswith(" (and on 2 more action(s))")  # one line per rule, not per action
    assert len(result.stderr.splitlines()) == 1

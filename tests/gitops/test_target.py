"""`--target ADDRESS`: a partial plan of the resources named, their parts and what they depend
on; saved with its targets; the plan says it is partial."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docsync.core.model import Action, Plan, Unmanaged
from docsync.engine.target import address_problem, narrow
from docsync.kinds.catalogue import CATALOGUE, bare_sections
from tests.gitops.conftest import Cli, write
from tests.kit import ORG, EmulatorHandle, cli_for, listed


def plan() -> Plan:
    actions = [
        Action("create", "team", 'team["eng-web"]'),
        Action("create", "team", 'team["ops"]'),
        Action("create", "saml", 'saml["Okta"]', depends_on=['create team["eng-web"]']),
        Action("update", "site", 'site["Docs"]'),
        Action("create", "section", 'site["Docs"].section["API"]'),
        Action("create", "section", 'site["Docs2"].section["API"]'),
    ]
    return Plan("org_acme", actions, unmanaged=[Unmanaged("team", 'team["x"]', "t_x")])


@pytest.mark.parametrize(
    ("targets", "kept"),
    [
        (['team["ops"]'], ['team["ops"]']),
        (['saml["Okta"]'], ['team["eng-web"]', 'saml["Okta"]']),  # with what it needs
        (['team["eng-web"]'], ['team["eng-web"]']),  # not what needs it
        (['site["Docs"]'], ['site["Docs"]', 'site["Docs"].section["API"]']),  # and its parts
        (['team["*"]'], ['team["eng-web"]', 'team["ops"]']),
        (['site["Docs?"].*'], ['site["Docs2"].section["API"]']),
        (['team["ops"]', 'site["Docs2"]'], ['team["ops"]', 'site["Docs2"].section["API"]']),
    ],
)
def test_narrow(targets: list[str], kept: list[str]) -> None:
    partial = narrow(plan(), targets)
    assert [a.address for a in partial.actions] == kept
    assert partial.targets == targets
    assert partial.warnings[0].startswith("this plan is partial (--target ")


def test_no_target_is_the_whole_plan_and_a_target_matching_nothing_is_said() -> None:
    whole = plan()
    assert narrow(whole, []) is whole
    partial = narrow(whole, ['team["nope"]', 'team["ops"]'])
    assert partial.warnings[1:] == ['--target team["nope"]: no change planned for it']
    assert partial.unmanaged == []
    assert narrow(whole, ['team["x"]']).unmanaged == whole.unmanaged


MANIFEST = """organization: org_acme
teams:
  - {title: eng-web}
  - {title: ops}
collections:
  - {title: Developers, description: Targeted elsewhere}
saml:
  - label: Okta
    ssoURL: https://acme.okta.example/app/sso/saml
    entityID: http://www.okta.example/exk1
    certificate: "{{ env('SAML_CERT') }}"
    defaultTeam: eng-web
"""


def test_a_targeted_plan_and_apply_end_to_end(cli: Cli, tmp_path: Path) -> None:
    path = write(tmp_path / "m.yaml", MANIFEST)
    result = cli("plan", path, "--target", 'saml["Okta"]', "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert [a["key"] for a in document["actions"]] == [
        'create team["eng-web"]',
        'create saml["Okta"]',
    ]
    assert document["targets"] == ['saml["Okta"]']
    assert document["summary"]["create"] == 2
    text = cli("plan", path, "--target", 'saml["Okta"]').stdout
    assert 'Warning: this plan is partial (--target saml["Okta"])' in text
    assert "Plan: 2 to create, 0 to update, 0 to delete." in text

    saved = tmp_path / "plan.json"
    result = cli("plan", path, "--target", 'saml["Okta"]', "--out", saved)
    assert result.exit_code == 0, result.output
    refused = cli("apply", "--plan", saved, "--target", 'team["ops"]')
    assert refused.exit_code == 2 and "keeps the targets it was made with" in refused.stderr
    result = cli("apply", "--plan", saved)
    assert result.exit_code == 0, result.output
    assert "Apply finished" in result.stdout and 'team["ops"]' not in result.stdout

    # The rest is still to do; a targeted apply of one collection does only that.
    result = cli("apply", path, "--auto-approve", "--target", "collection[*]")
    assert result.exit_code == 0, result.output
    left = json.loads(cli("plan", path, "--format", "json").stdout)
    assert [a["key"] for a in left["actions"]] == ['create team["ops"]']


def _golden_addresses() -> set[str]:
    found: set[str] = set()
    for path in (Path(__file__).parent / "golden").glob("*.json"):
        document = json.loads(path.read_text())
        found |= {a["address"] for a in document["actions"]}
        found |= {u["address"] for u in document["unmanaged"]}
    return found


def test_every_address_a_plan_shows_is_a_target_docsync_accepts() -> None:
    kinds = {d.name for d in CATALOGUE}
    addresses = _golden_addresses()
    assert len(addresses) > 20 and any(".grant[" in a for a in addresses)
    assert {a: address_problem(a, kinds, bare_sections()) for a in addresses} == dict.fromkeys(
        addresses
    )


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("team[eng-*]", """did you mean 'team["eng-*"]'?"""),
        (
            'members["ada@acme.example"]',
            "no kind 'members' in 'members[\"ada@acme.example\"]'; "
            "did you mean 'member[\"ada@acme.example\"]'?",
        ),
        ('site["Docs"].sectoin["API"]', """did you mean 'site["Docs"].section["API"]'?"""),
        (
            "team",
            "'team' in 'team' is a kind: name one by its key, 'team[\"...\"]', or every one, "
            "'team[*]'",
        ),
        (
            'site["Docs"].redirect',
            "'redirect' in 'site[\"Docs\"].redirect' is a kind: name one by its key, "
            """'site["Docs"].redirect["..."]', or every one, 'site["Docs"].redirect[*]'""",
        ),
        (
            'site["Docs"].redirects["/old"]',
            "'redirects' in 'site[\"Docs\"].redirects[\"/old\"]' is a part, named without a "
            """key: 'site["Docs"].redirects'""",
        ),
        ("teams", "no part 'teams' in 'teams'; did you mean 'team[*]'?"),
        ('site["Docs"]..section["API"]', 'not an address: expected kind["key"]'),
    ],
)
def test_a_malformed_target_is_a_usage_error_before_anything_is_read(
    cli: Cli, tmp_path: Path, target: str, said: str
) -> None:
    path = write(tmp_path / "m.yaml", MANIFEST)
    for extra, code in (([], 2), (["--detailed-exitcode"], 1)):  # a usage error, never "changes"
        result = cli("plan", path, "--target", target, *extra)
        assert result.exit_code == code, result.output
        assert said in result.stderr and "Traceback" not in result.output


def test_a_target_naming_nothing_is_refused_with_the_closest_addresses(
    cli: Cli, tmp_path: Path
) -> None:
    path = write(tmp_path / "m.yaml", MANIFEST)
    result = cli("plan", path, "--target", 'team["eng-webb"]', "--target", 'team["ops"]')
    assert result.exit_code == 1, result.output
    assert '--target team["eng-webb"]: no such resource' in result.stderr
    assert 'the closest: team["eng-web"]' in result.stderr
    assert "ops" not in result.stderr.split("closest")[0]
    # A glob matching something is fine; applying nothing is done by no one.
    assert cli("plan", path, "--target", 'team["eng-*"]').exit_code == 0
    refused = cli("apply", path, "--auto-approve", "--target", 'team["nobody"]')
    assert refused.exit_code == 1 and "no such resource" in refused.stderr


def test_in_both_contracts_a_target_naming_nothing_is_refused_and_nothing_changes(
    either_contract: EmulatorHandle, tmp_path: Path
) -> None:
    docsync = cli_for(either_contract)
    path = write(tmp_path / "m.yaml", "organization: org_acme\nteams: [{title: eng-web}]\n")
    for command in (["plan"], ["apply", "--auto-approve"]):
        result = docsync(*command, path, "--target", 'team["eng-webb"]')
        assert result.exit_code == 1, result.output
        assert (
            'no such resource in the manifests or the organization; the closest: team["eng-web"]'
            in (result.stderr)
        )
    assert "eng-web" not in [t["title"] for t in listed(either_contract, f"{ORG}/teams")]

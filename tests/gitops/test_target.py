"""`--target ADDRESS`: a partial plan of the resources named, their parts and what they depend
on; saved with its targets; the plan says it is partial."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docsync.core.model import Action, Plan, Unmanaged
from docsync.engine.target import narrow
from tests.gitops.conftest import Cli, write


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

"""The example organization converges against both emulator modes (INTERFACE.md §2.2).

`--contract production` serves only what production has, shaped as production shapes it; its
answers and the requests docsync sends to it are checked against the production contract with no
documented conflict forgiven (tests/contract/plugin.py), so a request production would refuse
fails here even where the description allows it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from docsync.cli import main
from docsync.emulator.app import Contract
from tests.contract.plugin import TALLY, contract
from tests.emulator_harness import EmulatorHandle

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "acme"
DEMO_CERT = "MIIC...demo"  # the default certificate of examples/acme/teams.yaml


def run(emulator: EmulatorHandle, *args: str | Path) -> Result:
    env = {"DOCSYNC_API_URL": emulator.url, "DOCSYNC_TOKEN": "tok_ada", "NO_COLOR": "1"}
    return CliRunner().invoke(main, [str(a) for a in args], env=env)


def converge(emulator: EmulatorHandle) -> None:
    applied = run(emulator, "apply", EXAMPLES, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert "0 failed, 0 skipped" in applied.stdout
    again = run(emulator, "plan", EXAMPLES, "--detailed-exitcode")
    assert again.exit_code == 0, again.output
    assert "No changes." in again.stdout


def test_the_example_converges_against_both_contracts(either_contract: EmulatorHandle) -> None:
    converge(either_contract)
    with either_contract.client() as client:
        translations = client.get("/v1/orgs/org_acme/translations").json()["items"]
    assert sorted(t["language"] for t in translations) == ["de", "fr"]
    assert all(t["object"] == "translation" for t in translations)


def test_export_from_production_plans_empty(production: EmulatorHandle, tmp_path: Path) -> None:
    converge(production)
    out = tmp_path / "export"
    exported = run(production, "export", "--org", "org_acme", "--out", out)
    assert exported.exit_code == 0, exported.output
    content = (out / "content.yaml").read_text("utf-8")
    assert "language: fr" in content and "sourceLanguage: en" in content
    planned = CliRunner().invoke(
        main,
        ["plan", str(out), "--detailed-exitcode"],
        env={
            "DOCSYNC_API_URL": production.url,
            "DOCSYNC_TOKEN": "tok_ada",
            "DOCSYNC_SAML_OKTA_CERTIFICATE": DEMO_CERT,
        },
    )
    assert planned.exit_code == 0, planned.output


def _status(emulator: EmulatorHandle, method: str, path: str, body: object = None) -> int:
    with emulator.client() as client:
        return client.request(method, path, json=body).status_code


def test_production_mode_serves_only_production(
    emulator: EmulatorHandle, production: EmulatorHandle
) -> None:
    production.reset()
    site = "/v1/orgs/org_acme/sites"
    with production.client() as client:
        created = client.post(site, json={"title": "Docs"}).json()
        assert "agentsContext" not in created
        # a field production does not name is ignored, as production ignores it
        ignored = client.patch(f"{site}/{created['id']}", json={"agentsContext": "included"})
        assert ignored.status_code == 200 and "agentsContext" not in ignored.json()
        group = client.post(f"{site}/{created['id']}/section-groups", json={"title": "G"}).json()
        teams = client.put("/v1/orgs/org_acme/teams", json={"title": "T"}).json()
        assert client.delete(f"/v1/orgs/org_acme/teams/{teams['id']}").status_code == 205
        settings = client.post("/v1/orgs/org_acme/translations", json={"title": "French"})
        assert settings.status_code == 400 and "source" in settings.text
    groups = f"{site}/{created['id']}/section-groups/{group['id']}/sections"
    assert _status(production, "POST", groups, {"sectionId": "x"}) == 404
    assert _status(production, "POST", "/v1/spaces/space_guides/transfer", {}) == 404
    # The default mode keeps the description's shapes and statuses.
    with emulator.client() as client:
        team = client.put("/v1/orgs/org_acme/teams", json={"title": "T"}).json()
        assert client.delete(f"/v1/orgs/org_acme/teams/{team['id']}").status_code == 204
        created = client.post(site, json={"title": "Docs"}).json()
        assert created["agentsContext"] == "excluded"


def test_the_emulator_command_refuses_an_unknown_contract() -> None:
    result = CliRunner().invoke(main, ["emulator", "--contract", "staging"])
    assert result.exit_code == 2
    assert "'staging' is not one of 'description', 'production'" in result.output


def test_a_translation_in_the_description_shape_is_refused_by_production_at_apply(
    production: EmulatorHandle, tmp_path: Path
) -> None:
    production.reset()
    manifest = tmp_path / "t.yaml"
    manifest.write_text("organization: org_acme\ntranslations:\n  - {title: French}\n", "utf-8")
    applied = run(production, "apply", manifest, "--auto-approve")
    assert applied.exit_code == 1
    assert 'create translation["French"] failed' in applied.output
    assert "400" in applied.output and "source" in applied.output
    # The contract check refuses that request too; it is this test's point, not a failure.
    refused = TALLY.expected()
    if contract() is not None:
        assert any("POST /orgs/{organizationId}/translations" in v.operation for v in refused)


GROUPED = """\
organization: org_acme
teams: [{title: Gone}]
spaces: [{title: A}, {title: B}, {title: C}, {title: D}]
sites:
  - title: Docs
    sections:
      - {title: Alpha, siteSpaces: [{space: A, path: a}]}
      - {title: Beta, siteSpaces: [{space: B, path: b}]}
      - {title: Gamma, siteSpaces: [{space: C, path: c}]}
      - {title: Delta, siteSpaces: [{space: D, path: d}]}
    sectionGroups:
      - {title: Learn, sections: [Alpha, Beta]}
      - {title: Run, sections: [Gamma]}
"""
#: Beta moves Learn -> Run, Delta joins Learn from the root, Gamma leaves Run for the root; the
#: team and a member go (production answers their deletes 205, the description 204).
REGROUPED = """\
organization: org_acme
teams: [{title: Gone, state: absent}]
members: [{email: sam@acme.example, state: absent}]
spaces: [{title: A}, {title: B}, {title: C}, {title: D}]
sites:
  - title: Docs
    sections:
      - {title: Alpha, siteSpaces: [{space: A, path: a}]}
      - {title: Delta, siteSpaces: [{space: D, path: d}]}
      - {title: Beta, siteSpaces: [{space: B, path: b}]}
      - {title: Gamma, siteSpaces: [{space: C, path: c}]}
    sectionGroups:
      - {title: Learn, sections: [Alpha, Delta]}
      - {title: Run, sections: [Beta]}
"""


def _outline(emulator: EmulatorHandle) -> list[str]:
    """The site's root as `Group[Section, ...]` and `Section`, in order."""
    with emulator.client() as client:
        (site,) = [s for s in client.get("/v1/orgs/org_acme/sites").json()["items"]]
        items = client.get(f"/v1/orgs/org_acme/sites/{site['id']}/structure").json()["structure"]
    return [
        f"{i['title']}[{', '.join(s['title'] for s in i['sections'])}]"
        if i["object"] == "site-section-group"
        else i["title"]
        for i in items
    ]


@pytest.mark.parametrize("mode", ["description", "production"])
def test_group_membership_changes_converge_against_both_contracts(
    mode: Contract, emulator: EmulatorHandle, production: EmulatorHandle, tmp_path: Path
) -> None:
    """Production has no membership endpoints: a section moves with its own PATCH
    `siteSectionGroupId` in both modes, and deletes answered 205 or 204 are done alike."""
    target = production if mode == "production" else emulator
    target.reset()
    manifest = tmp_path / "org.yaml"
    manifest.write_text(GROUPED, "utf-8")
    applied = run(target, "apply", manifest, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert _outline(target) == ["Learn[Alpha, Beta]", "Run[Gamma]", "Delta"]
    manifest.write_text(REGROUPED, "utf-8")
    before = target.stats()["requests"]
    applied = run(target, "apply", manifest, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert "0 failed, 0 skipped" in applied.stdout
    again = run(target, "plan", manifest, "--detailed-exitcode")
    assert again.exit_code == 0, again.output
    assert _outline(target) == ["Learn[Alpha, Delta]", "Run[Beta]", "Gamma"]
    after = target.stats()["requests"]
    moved = "PATCH /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}"
    assert after.get(moved, 0) - before.get(moved, 0) == 3  # one per section that changes group
    assert not [k for k in after if "section-groups/{siteSectionGroupId}/sections" in k]
    with target.client() as client:
        teams = client.get("/v1/orgs/org_acme/teams").json()["items"]
        members = client.get("/v1/orgs/org_acme/members").json()["items"]
    assert "Gone" not in [t["title"] for t in teams]
    assert "u_sam" not in [m["user"]["id"] for m in members]

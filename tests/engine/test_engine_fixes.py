"""Regressions of the plan/apply engine and the simple kinds: each test drives the CLI against
the emulator and failed before its fix."""

from __future__ import annotations

from tests.emulator_harness import EmulatorHandle
from tests.kit import ORG, Docsync, Write, apply, converged, id_of, listed


def test_settings_logo_is_applied_and_converges(
    docsync: Docsync, write: Write, emulator: EmulatorHandle
) -> None:
    """docs/manifest.md documents `settings.logo`; it was silently ignored (empty plan)."""
    path = write(
        "org.yaml", "organization: org_acme\nsettings:\n  logo: https://acme.example/l.png\n"
    )
    out = apply(docsync, path)
    assert "logo" in out
    with emulator.client() as client:
        org = client.get(ORG).json()
    assert org["urls"]["logo"] == "https://acme.example/l.png"
    converged(docsync, path)
    removed = write("org2.yaml", "organization: org_acme\nsettings:\n  logo: null\n")
    apply(docsync, removed)
    with emulator.client() as client:
        assert not client.get(ORG).json()["urls"].get("logo")
    converged(docsync, removed)


def test_rename_of_the_default_site_is_not_a_settings_change(
    docsync: Docsync, write: Write, emulator: EmulatorHandle
) -> None:
    """A site renamed through its pinned id is still the organization's defaultContent: the
    plan showed (and sent) a settings update `site["Docs"] -> site["Docs2"]`."""
    text = "organization: org_acme\nsettings:\n  defaultContent: {site: Docs}\nsites:\n"
    apply(docsync, write("a.yaml", text + "  - {title: Docs}\n"))
    site = id_of(emulator, "sites", "title", "Docs")
    renamed = text.replace("{site: Docs}", "{site: Docs2}") + f"  - {{title: Docs2, id: {site}}}\n"
    result = docsync("plan", write("b.yaml", renamed))
    assert result.exit_code == 0, result.output
    assert "update settings" not in result.stdout, result.output
    assert "0 to create, 1 to update, 0 to delete" in result.stdout


def test_reference_to_a_resource_deleted_in_the_same_plan_is_a_plan_problem(
    docsync: Docsync, write: Write, emulator: EmulatorHandle
) -> None:
    """A new SAML provider naming a team that `prune` deletes, and a site space publishing a
    space that `state: absent` deletes: the plan looked fine, and the apply deleted both and
    then failed half-way. Now the plan says why, and nothing is touched."""
    one = "organization: org_acme\nteams:\n  - {title: Old}\nspaces:\n  - {title: Gone}\n"
    apply(docsync, write("a.yaml", one))
    # by its id: the title of a space the manifest deletes is refused by validate already
    gone = id_of(emulator, "spaces", "title", "Gone")
    two = f"""organization: org_acme
prune: [teams]
saml:
  - {{label: Okta, ssoURL: "https://x.example/sso", entityID: e1, certificate: c, defaultTeam: Old}}
spaces:
  - {{title: Gone, state: absent}}
sites:
  - title: Docs
    siteSpaces: [{{space: {gone}, path: g}}]
"""
    path = write("b.yaml", two)
    result = docsync("apply", path, "--auto-approve")
    assert result.exit_code == 1, result.output
    assert 'saml[0].defaultTeam: names team["Old"], which this plan deletes' in result.output
    assert 'sites[0].siteSpaces[0].space: names space["Gone"], which this plan deletes' in (
        result.output
    )
    assert [t["title"] for t in listed(emulator, f"{ORG}/teams")] == ["Old"]
    assert "Gone" in [s["title"] for s in listed(emulator, f"{ORG}/spaces")]
    assert listed(emulator, f"{ORG}/saml") == []


def test_two_live_teams_with_one_title_can_be_pinned_apart(
    docsync: Docsync, write: Write, emulator: EmulatorHandle
) -> None:
    """The API allows two teams with one title. The plan said "pin the one you mean with
    `id:`", but failed the same way with both pinned: the manifest had no way out."""
    with emulator.client() as client:
        first = client.put(f"{ORG}/teams", json={"title": "Dup"}).json()["id"]
        second = client.put(f"{ORG}/teams", json={"title": "Dup"}).json()["id"]
    unpinned = write("a.yaml", "organization: org_acme\nteams:\n  - {title: Dup}\n")
    result = docsync("plan", unpinned)
    assert result.exit_code == 1, result.output
    assert f"2 live teams have this key (ids {first}, {second})" in result.output
    text = (
        "organization: org_acme\nteams:\n"
        f"  - {{title: Dup, id: {first}}}\n  - {{title: Dup2, id: {second}}}\n"
    )
    path = write("b.yaml", text)
    out = apply(docsync, path)
    assert "0 to create, 1 to update, 0 to delete" in out
    assert sorted(t["title"] for t in listed(emulator, f"{ORG}/teams")) == ["Dup", "Dup2"]
    converged(docsync, path)


def test_pruning_a_team_a_saml_provider_still_uses_is_a_plan_problem(
    docsync: Docsync, write: Write, emulator: EmulatorHandle
) -> None:
    """The manifest has no `saml:` section, yet the provider that names the team is read: the
    plan refuses to delete a team that is still in use instead of failing on the API's 409."""
    first = """organization: org_acme
teams: [{title: Old}]
saml:
  - {label: Okta, ssoURL: "https://x.example/sso", entityID: e1, certificate: c, defaultTeam: Old}
"""
    apply(docsync, write("a.yaml", first))
    result = docsync("plan", write("b.yaml", "organization: org_acme\nprune: [teams]\nteams: []\n"))
    assert result.exit_code == 1, result.output
    assert 'team["Old"] cannot be deleted: saml["Okta"] still refers to it' in result.stderr


def test_an_organization_the_token_cannot_see_is_located(docsync: Docsync, write: Write) -> None:
    result = docsync("plan", write("other.yaml", "organization: org_other\nteams: []\n"))
    assert result.exit_code == 1
    assert "other.yaml:1:15: organization 'org_other' is not one the token can see" in (
        result.stderr
    )


def test_renaming_the_organization_the_manifest_names_by_title_is_a_warning(
    docsync: Docsync, write: Write
) -> None:
    """`organization: Acme` with `settings.title: Acme Corp` applied fine, and the next plan
    could no longer find the organization: the plan says so before, in every rendering."""
    path = write("org.yaml", "organization: Acme\nsettings:\n  title: Acme Corp\n")
    warning = (
        f"{path}:1:15: the manifests name the organization by its title, 'Acme', which this plan "
        "changes to 'Acme Corp': write its id, `organization: org_acme`, so that the next plan "
        "finds it"
    )
    for form in ("text", "markdown", "json"):
        result = docsync("plan", path, "--format", form)
        assert result.exit_code == 0, result.output
        assert warning in result.stdout.replace("\\'", "'"), result.output
    by_id = write("id.yaml", "organization: org_acme\nsettings:\n  title: Acme Corp\n")
    assert "Warning" not in docsync("plan", by_id).output


def test_the_default_site_replaced_while_settings_let_it_go_applies_in_one_run(
    docsync: Docsync, write: Write, emulator: EmulatorHandle
) -> None:
    """The replace's delete ran beside the settings update and met the API's 409 (the site was
    still the default), skipping the new site's tree."""
    text = "organization: org_acme\nsettings: {defaultContent: {site: Docs}}\nsites:\n"
    text += "  - {title: Docs, type: basic}\n"
    apply(docsync, write("a.yaml", text))
    again = text.replace("{site: Docs}", "null").replace("basic", "premium")
    path = write("b.yaml", again)
    out = apply(docsync, path)
    assert out.index("update settings") < out.index('replace site["Docs"]  (')
    (site,) = listed(emulator, f"{ORG}/sites")
    assert site["type"] == "premium"
    converged(docsync, path)

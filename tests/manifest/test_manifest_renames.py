"""`docsync validate` on `was:`: a rename that cannot be one is located offline. The plan
refused it only when the old name was live (`... is taken by another entry that keeps the
name`), so `validate` passed a manifest that `plan` then refused."""

from __future__ import annotations

from tests.manifest.conftest import run_validate


def test_a_name_another_entry_keeps_or_renames_too_is_located(write) -> None:
    path = write(
        "m.yaml",
        "organization: o\n"
        "teams:\n"
        "  - {title: Writers}\n"
        "  - {title: Authors, was: writers}\n"  # titles keep their case: another team
        "  - {title: Editors, was: Writers}\n"
        "sites:\n"
        "  - title: Docs\n"
        "    sections:\n"
        "      - {title: Guides, was: Start, siteSpaces: [{space: A, path: a}]}\n"
        "      - {title: Intro, was: Start, siteSpaces: [{space: A, path: b}]}\n",
    )
    result = run_validate(str(path))
    assert result.exit_code == 1
    assert result.stderr == (
        f"{path}:5:27: teams[2].was: team 'Writers' is kept by the entry at {path}:3:5, so "
        "this one cannot rename it (one resource cannot be both): remove `was:` here, or "
        "that entry\n"
        f"{path}:10:29: sites[0].sections[1].was: section 'Start' is renamed by the entry at "
        f"{path}:9:9 already: one resource takes one new name\n"
    )


def test_an_entry_that_deletes_the_old_name_takes_it_too(write) -> None:
    path = write(
        "m.yaml",
        "organization: o\n"
        "teams:\n"
        "  - {title: Writers, state: absent}\n"
        "  - {title: Authors, was: Writers}\n",
    )
    result = run_validate(str(path))
    assert result.exit_code == 1
    assert (
        f"{path}:4:27: teams[1].was: team 'Writers' is deleted (`state: absent`) by the entry at "
        f"{path}:3:5, so this one cannot rename it" in result.stderr
    )


def test_a_reference_to_a_name_renamed_with_was_is_refused_with_the_new_name(write) -> None:
    """Every kind the same way, as `plan` refuses it: the old name names nothing once the plan
    is applied. A name that could be an id (`Platform`) passed, left to `plan`."""
    path = write(
        "m.yaml",
        "organization: o\n"
        "settings:\n"
        "  defaultContent: {site: The Handbook}\n"
        "sites:\n"
        "  - {title: Developer Portal, was: The Handbook}\n"
        "  - {title: Docs Hub, was: Hub}\n"
        "teams:\n"
        "  - {title: Writers Guild, was: Platform}\n"
        "spaces:\n"
        "  - {title: Manuals, was: Guides, permissions: {teams: {Platform: read}}}\n"
        "saml:\n"
        "  - label: Okta\n"
        '    ssoURL: "https://acme.okta.example/sso"\n'
        '    entityID: "http://www.okta.example/exk1"\n'
        "    certificate: abc\n"
        "    defaultTeam: Platform\n"
        "translations: [{space: Guides, language: fr}]\n"
        "integrations:\n"
        "  - {name: google-analytics, sites: {Hub: {}}, spaces: {Manuals: {}}}\n",
    )
    result = run_validate(str(path))
    assert result.exit_code == 1
    renames = "which renames it (`was:`): after the apply it names nothing; write"
    assert result.stderr.splitlines() == [
        f"{path}:3:26: settings.defaultContent.site: 'The Handbook' is the old name of the "
        f"site at {path}:5:5, {renames} 'Developer Portal'",
        f"{path}:10:67: spaces[0].permissions.teams.Platform: 'Platform' is the old name of "
        f"the team at {path}:8:5, {renames} 'Writers Guild'",
        f"{path}:16:18: saml[0].defaultTeam: 'Platform' is the old name of the team at "
        f"{path}:8:5, {renames} 'Writers Guild'",
        f"{path}:17:24: translations[0].space: 'Guides' is the old name of the space at "
        f"{path}:10:5, {renames} 'Manuals'",
        f"{path}:19:38: integrations[0].sites.Hub: 'Hub' is the old name of the site at "
        f"{path}:6:5, {renames} 'Docs Hub'",
    ]

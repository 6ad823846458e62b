"""What names a resource renamed with `was:` by its new name, end to end against both contracts.
An installation on a renamed site or space planned an install and an uninstall of the same
live one, sent at once: the uninstall won and the install failed (404). A translation of a
renamed space was made a second time (the next plan: "2 live translations have this key"), and
a translation of a space moved into a collection was judged by `prune:` under its old name
(the next plan deleted it). Now each is the rename alone, and the next plan is empty."""

from __future__ import annotations

from tests.kit import ORG, EmulatorHandle, Write, apply, assert_converged, cli_for, listed

INSTALLED = """\
organization: org_acme
sites: [{title: Hub}]
spaces: [{title: Guides}]
integrations:
  - name: google-analytics
    configuration: {tracking_id: G-1}
    sites: {Hub: {configuration: {anonymize: true}}}
    spaces: {Guides: {}}
"""
TRANSLATED = """\
organization: org_acme
spaces: [{title: Changelog}]
translations:
  - {space: Changelog, language: fr}
  - {space: Changelog, language: de}
"""


def _installed_on(emulator: EmulatorHandle, level: str) -> list[str]:
    [installation] = [
        i["installation"]["id"]
        for i in listed(emulator, f"{ORG}/installations")
        if i["integration"]["name"] == "google-analytics"
    ]
    path = f"/v1/integrations/google-analytics/installations/{installation}/{level}"
    return [str(item[level[:-1]]) for item in listed(emulator, path)]


def test_a_renamed_site_and_space_keep_their_installations(
    either_contract: EmulatorHandle, write: Write
) -> None:
    docsync = cli_for(either_contract)
    apply(docsync, write("org.yaml", INSTALLED))
    sites = _installed_on(either_contract, "sites")
    spaces = _installed_on(either_contract, "spaces")

    renamed = write(
        "org.yaml",
        INSTALLED.replace("{title: Hub}", "{title: Docs Hub, was: Hub}")
        .replace("{title: Guides}", "{title: Manuals, was: Guides}")
        .replace("{Hub:", "{Docs Hub:")
        .replace("{Guides:", "{Manuals:"),
    )
    planned = docsync("plan", renamed)
    assert planned.exit_code == 0, planned.output
    assert "Plan: 0 to create, 2 to update, 0 to delete." in planned.stdout, planned.output
    apply(docsync, renamed)
    assert_converged(docsync, renamed)
    assert _installed_on(either_contract, "sites") == sites
    assert _installed_on(either_contract, "spaces") == spaces


def _translations(emulator: EmulatorHandle) -> dict[str, str]:
    return {t["id"]: t["language"] for t in listed(emulator, f"{ORG}/translations")}


def test_a_renamed_space_keeps_its_translations(
    either_contract: EmulatorHandle, write: Write
) -> None:
    docsync = cli_for(either_contract)
    apply(docsync, write("org.yaml", TRANSLATED))
    before = _translations(either_contract)

    renamed = write(
        "org.yaml",
        TRANSLATED.replace("{title: Changelog}", "{title: Runbooks, was: Changelog}").replace(
            "space: Changelog", "space: Runbooks"
        ),
    )
    apply(docsync, renamed)
    assert_converged(docsync, renamed)
    assert _translations(either_contract) == before


def test_prune_judges_a_translation_by_its_space_once_moved(
    either_contract: EmulatorHandle, write: Write
) -> None:
    """Its key is its space's (`Developers/Changelog:fr` once the space stands in Developers):
    `prune: {translations: "Dev*"}` deletes it in the plan that moves the space, not the next."""
    docsync = cli_for(either_contract)
    apply(docsync, write("org.yaml", TRANSLATED))
    moved = write(
        "org.yaml",
        "organization: org_acme\ncollections: [{title: Developers}]\n"
        "spaces: [{title: Changelog, collection: Developers, was: Changelog}]\n"
        'prune: {translations: "Dev*"}\nsafety: {max_delete_share: 1}\n',
    )
    planned = docsync("plan", moved)
    assert planned.exit_code == 0, planned.output
    assert '- delete translation["Changelog:fr"]' in planned.stdout, planned.output
    apply(docsync, moved)
    assert_converged(docsync, moved)
    assert _translations(either_contract) == {}

"""The settings production's requests take beyond the navigation, end to end against both
contracts: a space's icon, an OpenAPI spec's visibility, a translation's instructions, a site's
style guide, an integration's site and space selection. Applied from a saved plan, the next
plan empty; each changed (an icon for an emoji, the spec private again, other instructions, the
style guide detached, the selection back to every space), converged; exported, and the export
plans empty."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from tests.kit import (
    ORG,
    SEED,
    EmulatorHandle,
    Write,
    apply,
    assert_converged,
    cli_for,
    export_plans_empty,
    listed,
)

ICON = "https://acme.example/guides.png"
EXPORTED = "DOCSYNC_INTEGRATION_GOOGLE_ANALYTICS_CONFIGURATION"
FIRST = f"""\
organization: org_acme
spaces:
  - {{title: Guides, icon: "{ICON}"}}
  - {{title: Handbook, emoji: "1f4d8"}}
openapi:
  - {{slug: petstore, source: {{url: "https://acme.example/openapi.yaml"}}, visibility: public}}
translations:
  - space: Guides
    language: fr
    instructions: |-
      Keep product names in English.

      Address readers as « vous ».
sites:
  - title: Docs
    styleguide: Style guide
integrations:
  - name: google-analytics
    configuration: {{tracking_id: G-1}}
    site_selection: selected
    sites: {{Docs: {{}}}}
    space_selection: selected
    spaces: {{}}
"""
CHANGED = (
    FIRST.replace(
        f'{{title: Guides, icon: "{ICON}"}}', '{title: Guides, icon: null, emoji: "1f680"}'
    )
    .replace("visibility: public", "visibility: private")
    .replace("Address readers as « vous ».", "Address readers as « tu ».")
    .replace("styleguide: Style guide", "styleguide: null")
    .replace("    space_selection: selected\n    spaces: {}\n", "    space_selection: all\n")
)


def seeded(emulator: EmulatorHandle) -> None:
    """The example seed and a style guide space (production's `type: styleguide`, which only
    the app makes)."""
    seed: dict[str, Any] = yaml.safe_load(SEED.read_text("utf-8"))
    seed["spaces"].append(
        {
            "id": "space_style",
            "organization": "org_acme",
            "title": "Style guide",
            "type": "styleguide",
        }
    )
    emulator.reset(seed)


def live(emulator: EmulatorHandle) -> dict[str, Any]:
    """What the API holds of each setting, read directly."""
    spaces = {s["title"]: s for s in listed(emulator, f"{ORG}/spaces")}
    [spec] = listed(emulator, f"{ORG}/openapi")
    [translation] = listed(emulator, f"{ORG}/translations")
    [site] = listed(emulator, f"{ORG}/sites")
    [pair] = listed(emulator, f"{ORG}/installations")
    paragraphs = [
        "".join(leaf["text"] for text in block["nodes"] for leaf in text["leaves"])
        for block in translation["instructions"]["nodes"]
    ]
    installation = pair["installation"]
    return {
        "icon": spaces["Guides"]["urls"].get("icon"),
        "emoji": spaces["Guides"]["emoji"],
        "visibility": spec["visibility"],
        "instructions": paragraphs,
        "styleguide": site.get("styleguide"),
        "selection": (installation["site_selection"], installation["space_selection"]),
    }


def test_every_setting_applies_changes_and_exports(
    either_contract: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    seeded(either_contract)
    # what export names the tracking id it writes as an env() template (a secret)
    docsync = cli_for(either_contract, **{f"{EXPORTED}_TRACKING_ID": "G-1"})
    manifest = write("org.yaml", FIRST)
    saved = tmp_path / "plan.json"
    planned = docsync("plan", manifest, "--out", saved)
    assert planned.exit_code == 0, planned.output
    applied = docsync("apply", "--plan", saved, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert_converged(docsync, manifest)
    assert live(either_contract) == {
        "icon": ICON,
        "emoji": "",
        "visibility": "public",
        "instructions": ["Keep product names in English.", "Address readers as « vous »."],
        "styleguide": {"kind": "space", "space": "space_style"},
        "selection": ("selected", "selected"),
    }

    manifest = write("org.yaml", CHANGED)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    for line in (
        f'~ icon  = "{ICON}" -> null',
        '~ visibility = "public" -> "private"',
        '~ styleguide = space["Style guide"] -> null',
        '~ space_selection = "selected" -> "all"',
    ):
        assert line in planned.stdout, planned.stdout
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    assert live(either_contract) == {
        "icon": None,
        "emoji": "1f680",
        "visibility": "private",
        "instructions": ["Keep product names in English.", "Address readers as « tu »."],
        "styleguide": None,
        "selection": ("selected", "all"),
    }

    _, content = export_plans_empty(docsync, tmp_path / "export", "content.yaml")
    written = yaml.safe_load(content)
    [translation] = written["translations"]
    assert translation["instructions"].endswith("« tu ».")
    assert written["openapi"][0].get("visibility") is None  # private: production's default
    org = yaml.safe_load((tmp_path / "export" / "org.yaml").read_text("utf-8"))
    [integration] = org["integrations"]
    assert integration["site_selection"] == "selected" and "space_selection" not in integration


def test_validate_refuses_an_emoji_beside_an_icon_and_all_beside_a_list(
    docsync: Any, write: Write
) -> None:
    both = write("a.yaml", FIRST.replace(f'icon: "{ICON}"', f'icon: "{ICON}", emoji: "1f4d8"'))
    refused = docsync("validate", both)
    assert refused.exit_code == 1
    assert "a space shows an emoji or an icon, not both" in refused.output
    listed_all = write("b.yaml", FIRST.replace("site_selection: selected", "site_selection: all"))
    refused = docsync("validate", listed_all)
    assert refused.exit_code == 1
    assert "`site_selection: all` reaches every one of its sites" in refused.output

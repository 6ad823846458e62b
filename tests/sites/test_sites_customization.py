"""A site's customization end to end against the emulator: the written fields applied and
converged, fields not written left as they are (a change made in the app survives), the plan
showing each changed field at its path, one PUT of the whole object, and export planning empty."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.kit import (
    ORG,
    Docsync,
    EmulatorHandle,
    Write,
    apply,
    assert_converged,
    export_plans_empty,
    id_of,
    requests_between,
    site_part,
)

CUSTOMIZATION = "/v1/orgs/{organizationId}/sites/{siteId}/customization"
HEAD = """\
organization: org_acme
spaces:
  - {title: Guides}
sites:
  - title: Developer Docs
    siteSpaces: [{space: Guides, path: guides}]
    customization:
      trademark: {enabled: false}
"""
FIRST = HEAD + '      styling: {theme: bold, primaryColor: {light: "#0B5FFF", dark: "#4C8DFF"}}\n'
CHANGED = HEAD + '      styling: {theme: bold, primaryColor: {light: "#123456", dark: "#4C8DFF"}}\n'


def live_customization(emulator: EmulatorHandle, title: str) -> dict[str, Any]:
    found: dict[str, Any] = site_part(emulator, title, "customization")
    return found


def test_customization_apply_converge_change_and_export(
    emulator: EmulatorHandle, docsync: Docsync, write: Write, tmp_path: Path
) -> None:
    manifest = write("docs.yaml", FIRST)
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    first = live_customization(emulator, "Developer Docs")
    assert first["styling"]["theme"] == "bold"
    assert first["styling"]["primaryColor"] == {"light": "#0B5FFF", "dark": "#4C8DFF"}
    assert first["trademark"] == {"enabled": False}
    assert first["styling"]["corners"] == "rounded"  # production's default, not written
    # A field changed in the app that the manifest does not write stays as it is.
    site = id_of(emulator, "sites", "title", "Developer Docs")
    by_hand = {k: v for k, v in first.items() if k != "updatedAt"} | {"feedback": {"enabled": True}}
    with emulator.client() as client:
        client.put(f"{ORG}/sites/{site}/customization", json=by_hand).raise_for_status()
    assert_converged(docsync, manifest)
    manifest = write("docs.yaml", CHANGED)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    assert 'update site["Developer Docs"].customization' in planned.stdout
    assert 'customization.styling.primaryColor.light: "#0B5FFF" -> "#123456"' in planned.stdout, (
        planned.stdout
    )
    assert "dark" not in planned.stdout and "trademark" not in planned.stdout
    before = emulator.stats()
    apply(docsync, manifest)
    written = requests_between(before, emulator.stats())
    assert written[f"PUT {CUSTOMIZATION}"] == 1
    assert_converged(docsync, manifest)
    now = live_customization(emulator, "Developer Docs")
    assert now["styling"]["primaryColor"] == {"light": "#123456", "dark": "#4C8DFF"}
    assert now["feedback"] == {"enabled": True}
    _, sites = export_plans_empty(docsync, tmp_path / "export", "sites.yaml")
    assert "customization:" in sites and "'#123456'" in sites


#: every group production's customization has, nested fields, lists and shapes of all kinds
FULL = """\
organization: org_acme
spaces:
  - {title: Guides}
sites:
  - title: Developer Docs
    sections:
      - title: Guides
        siteSpaces:
          - {space: Guides, path: latest}
          - space: Guides
            path: v1
            customization:
              title: Guides v1
              styling:
                theme: muted
                primaryColor: {light: "#AA0000"}
                tint: {color: {light: "#FEE", dark: "#211"}}
                sidebar: {list: line}
                codeTheme: {default: {dark: dracula}}
              header: {logo: {light: "https://acme.example/v1.png"}}
              announcement: {enabled: true, message: Old version, style: warning}
              trademark: {enabled: null}
    customization:
      title: Acme Developer Docs
      localizedTitle: {fr: Documentation Acme}
      styling:
        theme: gradient
        primaryColor: {light: "#0B5FFF", dark: "#4C8DFF"}
        tint: {color: {light: "#EEF", dark: "#112"}}
        infoColor: {light: "#787878"}
        corners: circular
        depth: flat
        links: accent
        font: Roboto
        headingFont:
          id: acme-sans
          custom: true
          fontFamily: Acme Sans
          fontFaces:
            - weight: 700
              sources: [{url: "https://acme.example/acme-sans.woff2", format: woff2}]
        monospaceFont: JetBrainsMono
        icons: duotone
        codeTheme: {default: {light: github-light, dark: github-dark}, openapi: {light: nord}}
        sidebar: {background: filled, list: pill}
        search: prominent
      internationalization: {locale: fr}
      favicon: {emoji: "📘"}
      header:
        preset: custom
        logo: {light: "https://acme.example/logo.png", dark: "https://acme.example/dark.png"}
        primaryLink: {kind: url, url: "https://acme.example"}
        links:
          - title: Blog
            style: button-primary
            to: {kind: url, url: "https://acme.example/blog"}
            links: []
          - title: More
            localizedTitle: {fr: Plus}
            to: null
            links:
              - {title: Status, to: {kind: url, url: "https://status.acme.example"}}
            condition: visitor.claims.staff == true
      footer:
        groups:
          - title: Company
            links: [{title: About, localizedTitle: {de: Über}, to: {kind: url, url: "https://acme.example/about"}}]
        copyright: © Acme
      announcement:
        enabled: true
        message: Version 2 is out
        style: success
        link: {title: Read more, to: {kind: url, url: "https://acme.example/v2"}}
      themes: {default: dark, toggeable: false}
      feedback: {enabled: true}
      ai:
        mode: assistant
        greeting: Ask me anything
        suggestions: [How do I start?, Where are the keys?]
        instructions: Answer briefly.
      advancedCustomization: {enabled: false}
      pageActions: {items: [markdown, pdf]}
      externalLinks: {target: blank}
      pagination: {enabled: false}
      trademark: {enabled: false}
      privacyPolicy: {url: "https://acme.example/privacy"}
      socialPreview: {url: "https://acme.example/preview.png"}
      socialAccounts:
        - {platform: github, handle: acme, display: {footer: true, header: true}}
      insights: {trackingCookie: false}
"""


def test_a_full_customization_with_overrides_validates_applies_and_converges(
    emulator: EmulatorHandle, docsync: Docsync, write: Write, tmp_path: Path
) -> None:
    """Every group and shape the models take, the emulator takes too: applied, then planned
    empty, then exported and planned empty."""
    manifest = write("docs.yaml", FULL)
    checked = docsync("validate", manifest)
    assert checked.exit_code == 0, checked.output
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    live = live_customization(emulator, "Developer Docs")
    assert live["styling"]["headingFont"]["fontFamily"] == "Acme Sans"
    assert live["styling"]["infoColor"] == {"light": "#787878", "dark": "#787878"}  # kept
    assert live["header"]["links"][1]["links"][0]["title"] == "Status"
    assert live["favicon"] == {"emoji": "📘"}
    export_plans_empty(docsync, tmp_path / "export", "sites.yaml")

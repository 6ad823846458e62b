"""`docsync validate` on a site's customization and a site space's override: what production's
schemas refuse (an unknown key, a value of no enum, a malformed colour, a link of no kind, a list
item without its required keys) is refused offline, at its line, with a did-you-mean."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.manifest.conftest import run_validate

SITE = """organization: o
sites:
  - title: Docs
    customization:
{site}
    sections:
      - title: Guides
        siteSpaces:
          - space: Guides
            path: latest
            customization:
{override}
"""


def _validate(write, site: str = "      trademark: {enabled: false}", override: str = "") -> str:
    text = SITE.format(site=site, override=override or "              title: Latest")
    path: Path = write("m.yaml", text)
    result = run_validate(str(path))
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    return result.stderr.replace(f"{path}:", "m.yaml:")


SITE_AT = "sites[0].customization"
OVERRIDE_AT = "sites[0].sections[0].siteSpaces[0].customization"


@pytest.mark.parametrize("where", ["site", "override"])
def test_a_misspelt_group_is_refused_at_its_line_with_the_name_meant(write, where: str) -> None:
    if where == "site":
        said = _validate(write, site="      stying: {theme: clean}")
        assert said == (
            f"m.yaml:5:7: {SITE_AT}.stying: unknown field 'stying'; did you mean 'styling'?\n"
        )
    else:
        said = _validate(write, override="              stying: {theme: clean}")
        assert said == (
            f"m.yaml:12:15: {OVERRIDE_AT}.stying: unknown field 'stying'; did you mean 'styling'?\n"
        )


@pytest.mark.parametrize(
    ("site", "override"),
    [
        ("      styling: {theme: fancy}", ""),
        ("      trademark: {enabled: false}", "              styling: {theme: fancy}"),
    ],
)
def test_a_theme_of_no_enum_is_refused_naming_the_themes(write, site: str, override: str) -> None:
    said = _validate(write, site=site, override=override)
    at = OVERRIDE_AT if override else SITE_AT
    where = "12:32" if override else "5:24"
    assert said == (
        f"m.yaml:{where}: {at}.styling.theme: input should be 'clean', 'muted', 'bold' "
        "or 'gradient'; got 'fancy'\n"
    )


def test_a_value_close_to_one_of_the_enum_gets_a_did_you_mean(write) -> None:
    said = _validate(write, site="      styling: {theme: clen, sidebar: {list: pil}}")
    assert said.splitlines() == [
        f"m.yaml:5:24: {SITE_AT}.styling.theme: input should be 'clean', 'muted', 'bold' or "
        "'gradient'; got 'clen'; did you mean 'clean'?",
        f"m.yaml:5:46: {SITE_AT}.styling.sidebar.list: input should be 'default', 'pill' or "
        "'line'; got 'pil'; did you mean 'pill'?",
    ]


def test_nested_keys_and_values_are_located_where_they_are_written(write) -> None:
    site = """\
      styling:
        primaryColor: {ligth: "#0B5FFF", dark: blue}
        font: Comic
      header:
        primaryLink: {kind: urll, url: "https://acme.example"}
        links:
          - {title: Blog, to: {kind: url, url: "https://acme.example/blog"}}
      favicon: {emoji: "🎉", icon: {light: "https://a.example/i.png", dark: "https://a.example/d.png"}}
      localizedTitle: {fr: Docs, xx: Docs}"""
    lines = _validate(write, site=site).splitlines()
    assert lines == [
        f"m.yaml:6:24: {SITE_AT}.styling.primaryColor.ligth: unknown field 'ligth'; did you "
        "mean 'light'?",
        f"m.yaml:6:48: {SITE_AT}.styling.primaryColor.dark: must be a hex colour, like "
        "'#0B5FFF' or '#FFF'; got 'blue'",
        f"m.yaml:7:15: {SITE_AT}.styling.font: input should be 'ABCFavorit', 'Inter', 'Roboto', "
        "'RobotoSlab', 'OpenSans', 'SourceSansPro', 'Lato', 'Ubuntu', 'Raleway', 'Merriweather', "
        "'Overpass', 'NotoSans', 'IBMPlexSerif', 'Poppins' or 'FiraSans'; got 'Comic'",
        f"m.yaml:9:29: {SITE_AT}.header.primaryLink.kind: should be one of 'file', 'url', "
        "'page', 'anchor', 'user', 'collection', 'space', 'reusable-content', 'tag', 'openapi'; "
        "got 'urll'; did you mean 'url'?",
        f"m.yaml:11:13: {SITE_AT}.header.links[0].links: this field is required",
        f"m.yaml:12:16: {SITE_AT}.favicon: a favicon is an `icon` or an `emoji`, not both",
        f"m.yaml:13:34: {SITE_AT}.localizedTitle.xx: not an allowed key (allowed: 'en', 'fr', "
        "'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', "
        "'nl', 'pl', 'tr', 'sv', 'no', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', "
        "'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl')",
    ]


def test_what_a_site_space_cannot_override_is_refused_offline(write) -> None:
    override = """\
              ai: {mode: assistant}
              styling: {font: Inter}
              announcement: null"""
    lines = _validate(write, override=override).splitlines()
    assert lines == [
        f"m.yaml:12:15: {OVERRIDE_AT}.ai: unknown field 'ai'",
        f"m.yaml:13:25: {OVERRIDE_AT}.styling.font: unknown field 'font'",
        f"m.yaml:14:29: {OVERRIDE_AT}.announcement: null is not accepted here: the API refuses "
        "null for this field, so it cannot be removed (leave the field out to leave it "
        "unmanaged); got null",
    ]


def test_null_is_taken_where_production_does_without_the_field_and_refused_elsewhere(
    write,
) -> None:
    said = _validate(write, site="      announcement: null\n      styling: {theme: null}")
    assert said == (
        f"m.yaml:6:24: {SITE_AT}.styling.theme: null is not accepted here: the API refuses "
        "null for this field, so it cannot be removed (leave the field out to leave it "
        "unmanaged); got null\n"
    )

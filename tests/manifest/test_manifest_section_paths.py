"""`docsync validate` on section paths: the API refuses one path for two sections of a site."""

from __future__ import annotations

from tests.manifest.conftest import run_validate

SITE = """organization: o
sites:
  - title: Docs
    sections:
      - {title: One, path: x, siteSpaces: [{space: A, path: a}]}
"""


def test_two_sections_of_a_site_writing_one_path_are_located_at_the_second(write) -> None:
    two = "      - {title: Two, path: x, siteSpaces: [{space: B, path: b}]}\n"
    path = write("m.yaml", SITE + two)
    result = run_validate(str(path))
    assert result.exit_code == 1
    assert result.stderr == (
        f"{path}:6:28: sites[0].sections[1].path: path 'x' is also the path of the section at "
        f"{path}:5:9: a path is one section's within its site; write another one\n"
    )


def test_one_path_in_two_sites_is_not_a_mistake(write) -> None:
    other = "  - title: Other\n    sections:\n" + SITE.split("sections:\n", 1)[1]
    path = write("m.yaml", SITE + other)
    result = run_validate(str(path))
    assert result.exit_code == 0, result.stderr

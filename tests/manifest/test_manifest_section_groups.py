"""`docsync validate` on section groups: what the API refuses, or never settles, is located."""

from __future__ import annotations

from tests.manifest.conftest import run_validate

SITE = """organization: o
sites:
  - title: Docs
    sections:
      - {title: Guides, siteSpaces: [{space: A, path: a}]}
      - {id: sec_2, title: API, siteSpaces: [{space: B, path: b}]}
    sectionGroups:
"""


def test_a_section_listed_twice_in_a_group_is_located_at_the_second_mention(write) -> None:
    path = write("m.yaml", SITE + "      - {title: Start, sections: [Guides, API, Guides]}\n")
    result = run_validate(str(path))
    assert result.exit_code == 1
    assert result.stderr == (
        f"{path}:8:48: sites[0].sectionGroups[0].sections[2]: section 'Guides' is listed twice "
        f"in this group (first at {path}:8:35): the API refuses it; keep one\n"
    )


def test_a_section_named_by_title_and_by_id_in_one_group_is_listed_twice(write) -> None:
    path = write("m.yaml", SITE + "      - {title: Start, sections: [API, sec_2]}\n")
    result = run_validate(str(path))
    assert result.exit_code == 1
    assert "sections[1]: section 'sec_2' is listed twice in this group" in result.stderr


def test_a_section_in_two_groups_is_located_naming_both(write) -> None:
    groups = (
        "      - {title: Start, sections: [Guides]}\n"
        "      - {title: More, sections: [API, sec_2, Guides]}\n"
    )
    path = write("m.yaml", SITE + groups)
    result = run_validate(str(path))
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{path}:9:39: sites[0].sectionGroups[1].sections[1]: section 'sec_2' is listed twice "
        f"in this group (first at {path}:9:34): the API refuses it; keep one",
        f"{path}:9:46: sites[0].sectionGroups[1].sections[2]: section 'Guides' is in group "
        f"'More' and in group 'Start' (at {path}:8:35): a section is in one group at most; "
        "remove it from one",
    ]


def test_groups_and_links_of_a_site_with_root_site_spaces_are_located(write) -> None:
    """They have no sections to stand among: the plan left the groups out without a word."""
    root = "organization: o\nsites:\n  - title: Docs\n    siteSpaces: [{space: A, path: a}]\n"
    path = write(
        "m.yaml",
        root + "    sectionGroups: [{title: Start, sections: []}]\n"
        '    externalLinks: [{title: Status, url: "https://status.acme.example"}]\n',
    )
    result = run_validate(str(path))
    assert result.exit_code == 1
    assert result.stderr == "".join(
        f"{path}:{line}:5: sites[0].{among}: a site with 'siteSpaces' at its root has no "
        f"sections for '{among}' to stand among: write 'sections' (each with its siteSpaces) "
        f"instead, or leave '{among}' out\n"
        for line, among in ((5, "sectionGroups"), (6, "externalLinks"))
    )
    # Empty, they say what the site has: none.
    empty = write("e.yaml", root + "    sectionGroups: []\n    externalLinks: []\n")
    assert run_validate(str(empty)).exit_code == 0

"""docs/manifest.md's tables of sections, keys, prune names and nullable fields are the ones the
declarations generate (`python -m docsync.manifest.reference` rewrites them)."""

from __future__ import annotations

from pathlib import Path

from docsync.manifest.reference import BLOCK, GENERATORS, regenerate

PAGE = Path(__file__).parents[2] / "docs" / "manifest.md"


def test_the_committed_reference_is_what_the_declarations_generate() -> None:
    text = PAGE.read_text("utf-8")
    assert regenerate(text) == text, (
        "docs/manifest.md is stale: run `.venv/bin/python -m docsync.manifest.reference`"
    )


def test_every_generated_table_has_its_block_in_the_page() -> None:
    names = [match["name"] for match in BLOCK.finditer(PAGE.read_text("utf-8"))]
    assert sorted(names) == sorted(GENERATORS)


def test_nested_kinds_are_named_by_where_they_sit() -> None:
    keys = GENERATORS["natural-keys"]()
    assert "| external links (in a site) | `title`; renamed in place with `was:` |" in keys
    assert "| share links (in a site) | `name` |" in keys  # a name the API cannot change
    nulls = GENERATORS["null-fields"]()
    assert "| site spaces (in a section, or in a site without sections) |" in nulls
    assert "`publishingAuth.fallbackURL`" in nulls  # a model inside an entry is walked

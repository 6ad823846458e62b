"""Templates are bounded before they spend time or memory; manifest directories are read
whole, subdirectories included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from docsync.manifest import template_work
from docsync.manifest.files import discover
from tests.manifest.conftest import run_validate


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("{{ lipsum(10**6) }}", "lipsum() is limited to 100 paragraphs"),
        ("{{ '%999999999s'|format('x') }}", "format widths of 10000 or more"),
        ("{{ '%999999999s' % 'x' }}", "format widths of 10000 or more"),
        ("{{ '{:>999999999}'.format(1) }}", "format widths of 10000 or more"),
        ("{{ 'x'|indent(10**9) }}", "widths above 10000 are not allowed"),
        ("{{ 'x'|center(10**9) }}", "widths above 10000 are not allowed"),
        ("{{ 'x'.ljust(10**9) }}", "arguments above 10000000"),
        ("{{ 'x'.ljust(10**5) }}", "widths above 10000 are not allowed"),
    ],
)
def test_huge_values_are_refused_before_they_are_built(
    write: Any, template: str, expected: str
) -> None:
    path: Path = write(
        "m.yaml", f'organization: o\nspaces:\n  - title: S\n    emoji: "{template}"\n'
    )
    result = run_validate(str(path))
    assert result.exit_code == 1
    assert "m.yaml:4:12: spaces[0].emoji: template refused by the sandbox: " in result.output
    assert expected in result.output


def test_nested_loops_stop_at_the_budget_of_work(
    write: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(template_work, "STEP_LIMIT", 200_000)
    loops = "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}"
    path: Path = write("m.yaml", f'organization: o\nspaces:\n  - title: S\n    emoji: "{loops}"\n')
    result = run_validate(str(path))
    assert result.exit_code == 1
    assert (
        "m.yaml:4:12: spaces[0].emoji: template stopped: the templates of this run took more "
        "than 200,000 steps together (loops too large?)" in result.output
    )


def test_ordinary_templates_still_render(write: Any) -> None:
    value = "{{ '%3s'|format('ab') }}{{ 'a'|indent(2) }}{{ lipsum(1, False)[:0] }}"
    path: Path = write("m.yaml", f'organization: o\nspaces:\n  - title: S\n    emoji: "{value}"\n')
    result = run_validate(str(path))
    assert result.exit_code == 0, result.output


def test_directories_are_read_with_their_subdirectories(write: Any, tmp_path: Path) -> None:
    write("m/org.yaml", "organization: o\n")
    write("m/teams/platform.yaml", "organization: o\nteams: [{title: Platform}]\n")
    write("m/teams/deep/writers.yml", "organization: o\nteams: [{title: Writers}]\n")
    write("m/.git/config.yaml", "not: a manifest\n")
    write("m/.hidden.yaml", "organization: elsewhere\n")
    files, problems = discover([tmp_path / "m"])
    assert problems == []
    assert [Path(f).relative_to(tmp_path).as_posix() for f in files] == [
        "m/org.yaml",
        "m/teams/deep/writers.yml",
        "m/teams/platform.yaml",
    ]
    result = run_validate(str(tmp_path / "m"))
    assert result.exit_code == 0, result.output
    root = tmp_path / "m"
    assert "OK: 3 files, 2 teams" in result.output
    read = f"Read 3 files: 1 from {root}, 1 from {root / 'teams'}, 1 from {root / 'teams' / 'deep'}"
    assert read in result.output

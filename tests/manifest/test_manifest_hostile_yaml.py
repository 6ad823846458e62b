"""Hostile YAML is bounded before the work is spent, and every failure is located; libyaml's
parser gives the same values and positions as the pure one."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsync.manifest import yamlpos
from docsync.manifest.yamlpos import parse_yaml

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def merge_bomb(levels: int, width: int = 9) -> str:
    lines = ["l0: &l0 {a: 1, b: 2, c: 3}"]
    for level in range(1, levels + 1):
        sources = ", ".join([f"*l{level - 1}"] * width)
        lines.append(f"l{level}: &l{level} {{<<: [{sources}], k{level}: {level}}}")
    return "\n".join(lines) + "\n"


def test_a_merge_key_bomb_is_cheap() -> None:
    # 9**12 merges if each were repeated: this returns at once only because a mapping merges once.
    parsed = parse_yaml(merge_bomb(12), "bomb.yaml")
    assert parsed.data["l12"]["k12"] == 12 and parsed.data["l12"]["a"] == 1


def test_billion_laughs_stop_at_the_node_budget() -> None:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in "bcdefghi":
        previous = chr(ord(level) - 1)
        lines.append(f"{level}: &{level} [{', '.join([f'*{previous}'] * 9)}]")
    parsed = parse_yaml("\n".join(lines) + "\n", "laughs.yaml")
    (problem,) = parsed.problems
    assert "aliases and merge keys ('<<') repeat more than 200000 values" in problem.message
    assert problem.location is not None and problem.location.file == "laughs.yaml"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a: !!timestamp not-a-date\n", "1:4: cannot read this value: it is not a valid timestamp"),
        ("a: !!int twelve\n", "1:4: cannot read this value"),
        ("a: !!float x\n", "1:4: cannot read this value"),
        ("a: !!python/object:os.system {}\n", "1:4: the YAML tag"),
    ],
)
def test_a_tag_on_a_value_it_cannot_read_is_located(text: str, expected: str) -> None:
    parsed = parse_yaml(text, "m.yaml")
    assert parsed.problems, parsed.data
    problem = parsed.problems[0]
    assert f"{problem.location}: {problem.message}".startswith(f"m.yaml:{expected}")


def test_deep_nesting_is_refused_not_a_crash() -> None:
    parsed = parse_yaml("a: " + "[" * 200_000 + "]" * 200_000 + "\n", "deep.yaml")
    assert parsed.problems and "nested" in parsed.problems[0].message


@pytest.mark.skipif(yamlpos.CParser is None, reason="PyYAML without libyaml")
@pytest.mark.parametrize("path", sorted(EXAMPLES.rglob("*.yaml")), ids=lambda p: p.name)
def test_libyaml_and_the_pure_parser_agree(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = path.read_text(encoding="utf-8")
    fast = parse_yaml(text, path.name)
    monkeypatch.setattr(yamlpos, "CParser", None)
    pure = parse_yaml(text, path.name)
    assert fast.data == pure.data
    assert fast.source == pure.source
    assert fast.problems == pure.problems

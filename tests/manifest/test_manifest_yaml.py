"""YAML input of every kind: positions, duplicate keys, binary, empty, deep, huge, aliases."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from docsync.manifest import Location, ManifestError, load_manifests
from docsync.manifest.files import MAX_FILE_BYTES
from docsync.manifest.yamlpos import MAX_DEPTH, MAX_REPEATS, parse_yaml


def _problems(path: Path | str) -> list[str]:
    with pytest.raises(ManifestError) as caught:
        load_manifests([path], environ={})
    return [str(problem) for problem in caught.value.problems]


def test_positions_of_values_and_keys() -> None:
    parsed = parse_yaml("a:\n  - x\n  - {b: 1}\n", "f.yaml")
    assert parsed.data == {"a": ["x", {"b": 1}]}
    assert parsed.source.values[("a", 1, "b")] == Location("f.yaml", 3, 9)
    assert parsed.source.keys[("a", 1, "b")] == Location("f.yaml", 3, 6)
    assert str(Location("teams.yaml", 14, 7)) == "teams.yaml:14:7"


def test_duplicate_keys_are_errors_naming_both_places(write) -> None:
    path = write("m.yaml", "organization: o\nteams:\n  - title: A\n    title: B\n")
    assert _problems(path) == [
        f"{path}:4:5: teams[0].title: the key 'title' is written twice in this mapping "
        f"(first at {path}:3:5)"
    ]


def test_merge_keys_work_and_explicit_keys_win() -> None:
    parsed = parse_yaml("base: &b {x: 1, y: 2}\nuse: {<<: *b, y: 3}\n", "f.yaml")
    assert parsed.data["use"] == {"x": 1, "y": 3}
    assert parsed.problems == []


def test_binary_input(write, tmp_path: Path) -> None:
    path = tmp_path / "bin.yaml"
    path.write_bytes(b"organization: o\n\x00\x01\x02\xff\xfe")
    (line,) = _problems(path)
    assert line.startswith(f"{path}:2:")


@pytest.mark.parametrize("text", ["", "\n# only a comment\n", "---\n"])
def test_an_empty_file_alone_is_one_clear_line(write, text: str) -> None:
    path = write("m.yaml", text)
    assert _problems(path) == [
        f"{path}:1:1: nothing to read: a manifest names at least `organization: <id or title>`"
    ]


def test_a_file_without_its_organization_needs_one(write) -> None:
    path = write("m.yaml", "teams: []\n")
    assert _problems(path) == [
        f"{path}:1:1: organization: "
        "'organization' (the id or title of the organization) is required"
    ]


def test_a_device_is_refused_for_what_it_is(write) -> None:
    """/dev/null would read as empty, but /dev/zero would never end: no device is read
    (tests/manifest/test_manifest_inputs.py has the others)."""
    assert _problems("/dev/null") == [
        "/dev/null:1:1: a character device, not a regular file: docsync reads regular files only"
    ]


def test_deeply_nested_input(write) -> None:
    flow = write("flow.yaml", "organization: o\nx: " + "[" * 5000 + "]" * 5000 + "\n")
    assert any("nested too deeply" in line or "levels deep" in line for line in _problems(flow))
    block = write(
        "block.yaml", "organization: o\nx:\n" + "".join("  " * i + "- \n" for i in range(1, 200))
    )
    assert any(f"more than {MAX_DEPTH}" in line for line in _problems(block))


@pytest.mark.slow
def test_alias_bombs_and_cycles_are_refused(write) -> None:
    lines = ["organization: o", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    bomb = write("bomb.yaml", "\n".join(lines) + "\n")
    assert any("more than" in line and "values" in line for line in _problems(bomb))
    cycle = write("cycle.yaml", "organization: o\nx: &x [*x]\n")
    assert any("cycle" in line for line in _problems(cycle))


def test_huge_file_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_bytes(b"organization: o\n" + b"#" * MAX_FILE_BYTES)
    (line,) = _problems(path)
    assert line == f"{path}:1:1: the file is larger than 10 MiB"


def test_many_entries_are_fine(write) -> None:
    teams = "".join(f"  - title: Team {i}\n" for i in range(3000))
    path = write("m.yaml", "organization: o\nteams:\n" + teams)
    assert len(load_manifests([path], environ={}).manifest.teams) == 3000


def _values(text: str) -> int:
    """How many values (keys included) the document writes out, aliases not followed: an event
    each (counted from the parser's events: no node tree is built for 2 MB of them)."""
    written = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return sum(isinstance(event, written) for event in yaml.parse(text, Loader=loader))


@pytest.mark.slow
def test_a_big_real_manifest_is_not_refused_for_its_size(write) -> None:
    """2 MB of plain teams and sites, far more values than any alias budget: only repeats
    made by aliases and merge keys count against it, and a file cannot hold more values than
    characters."""
    teams = "".join(
        f"  - title: Team {i:05}\n    members: [ada@acme.example, {{user: lin@acme.example}}]\n"
        for i in range(20_000)
    )
    sites = "".join(
        f"  - title: Site {s:04}\n    sections:\n"
        + "".join(f"      - {{title: Section {k}, path: section-{k}}}\n" for k in range(8))
        for s in range(1_200)
    )
    text = "organization: o\nteams:\n" + teams + "sites:\n" + sites
    assert len(text) > 2_000_000 and _values(text) > MAX_REPEATS
    loaded = load_manifests([write("big.yaml", text)], environ={}).manifest
    assert len(loaded.teams) == 20_000 and len(loaded.sites) == 1_200


def test_several_documents_and_odd_tags(write) -> None:
    two = write("two.yaml", "organization: o\n---\nteams: []\n")
    assert "single document" in _problems(two)[0]
    tagged = write("tag.yaml", "organization: !!python/object:os.system echo\n")
    assert "cannot read this value" in _problems(tagged)[0]
    binary = write("b64.yaml", "organization: !!binary aGVsbG8=\n")
    assert "binary values" in _problems(binary)[0]


def test_unquoted_dates_and_numbers_get_a_hint(write) -> None:
    path = write("m.yaml", "organization: o\nteams: [{title: 2024-01-01}, {title: 12}]\n")
    problems = _problems(path)
    assert len(problems) == 2
    assert all("put the value in quotes" in line for line in problems)

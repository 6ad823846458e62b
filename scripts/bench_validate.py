"""Benchmark: `docsync validate` of a 10,000-resource manifest against a bare libyaml parse of it,
of a 500 KB manifest in block style (about 24,000 lines) against the same, then of a 10 MB one
(the largest file docsync reads is 10 MiB).

Prints figures; asserts nothing. The targets: validate within 3x of the bare C parse (the
floor any loader pays), and a 10 MB manifest in seconds; the pure-Python loader is printed for
comparison. Usage:
    bash scripts/bench_validate [--resources 10000] [--repeat 3] [--megabytes 10]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml
from click.testing import CliRunner

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from docsync.cli import main as cli  # noqa: E402
from docsync.manifest import yamlpos  # noqa: E402


def manifest(resources: int) -> str:
    """Teams with members, collections, spaces and sites with sections: `resources` entries."""
    teams, spaces = resources * 4 // 10, resources * 4 // 10
    collections = max(1, resources // 100)
    sites = max(1, (resources - teams - spaces - collections) // 10)
    users = ["ada@acme.example", "lin@acme.example", "sam@acme.example", "kim@acme.example"]
    lines = ["organization: org_acme", "teams:"]
    for i in range(teams):
        lines.append(f"  - title: Team {i:05}")
        lines.append(f"    members: [{users[i % 4]}, {{user: {users[(i + 1) % 4]}, role: owner}}]")
    lines.append("collections:")
    lines += [
        f"  - {{title: Collection {i:04}, description: Docs {i}}}" for i in range(collections)
    ]
    lines.append("spaces:")
    for i in range(spaces):
        lines.append(f"  - {{title: Space {i:05}, collection: Collection {i % collections:04}}}")
    lines.append("sites:")
    for s in range(sites):
        lines += [f"  - title: Site {s:04}", "    visibility: public", "    sections:"]
        for k in range(9):
            lines.append(f"      - title: Section {k}")
            lines.append(f"        path: section-{k}")
            lines.append(
                f"        siteSpaces: [{{space: Space {(s * 9 + k) % spaces:05}, path: v{k}}}]"
            )
    return "\n".join(lines) + "\n"


def sized(megabytes: float) -> tuple[int, str]:
    """The manifest of `manifest()`'s shape closest to `megabytes` (10**6 bytes) without going
    over, and its number of resources."""
    per_resource = len(manifest(10_000)) / 10_000
    resources = int(megabytes * 1e6 / per_resource)
    text = manifest(resources)
    while len(text) > megabytes * 1e6:
        resources -= max(1, resources // 1000)
        text = manifest(resources)
    return resources, text


def block_style(kilobytes: float) -> tuple[int, str]:
    """The manifest of `manifest()`'s shape in block style (a key per line, as people write
    them) closest to `kilobytes` (10**3 bytes) without going over: 500 KB is about 24,000 lines."""
    resources = int(kilobytes * 13)
    while True:
        data = yaml.load(manifest(resources), Loader=yaml.CSafeLoader)
        text = yaml.dump(data, Dumper=yaml.CSafeDumper, default_flow_style=False, sort_keys=False)
        if len(text) <= kilobytes * 1e3:
            return resources, text
        resources -= max(1, resources // 100)


def best(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--resources", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--megabytes", type=float, default=10.0)
    parser.add_argument("--block-kilobytes", type=float, default=500.0)
    args = parser.parse_args()
    text = manifest(args.resources)
    if not yaml.__with_libyaml__:
        sys.exit("bench_validate: this PyYAML has no libyaml: nothing to compare with")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.yaml"
        path.write_text(text, encoding="utf-8")
        bare = best(args.repeat, lambda: yaml.load(text, Loader=yaml.CSafeLoader))
        fast = best(args.repeat, lambda: validate(path))
        parser_c = yamlpos.CParser
        yamlpos.CParser = None
        pure = best(1, lambda: validate(path))
        yamlpos.CParser = parser_c
        block_resources, block_text = block_style(args.block_kilobytes)
        path.write_text(block_text, encoding="utf-8")
        block_bare = best(args.repeat, lambda: yaml.load(block_text, Loader=yaml.CSafeLoader))
        block = best(args.repeat, lambda: validate(path))
        big_resources, big_text = sized(args.megabytes)
        path.write_text(big_text, encoding="utf-8")
        big = best(1, lambda: validate(path))
    print(f"manifest: {args.resources} resources, {len(text) / 1e6:.1f} MB")
    print(f"bare libyaml parse (yaml.CSafeLoader):   {bare:6.2f} s")
    print(f"docsync validate (libyaml events):       {fast:6.2f} s   {fast / bare:4.1f}x bare")
    print(f"docsync validate, pure-Python parser:    {pure:6.2f} s   {pure / bare:4.1f}x")
    print(
        f"block style, {len(block_text) / 1e3:.0f} KB, {block_text.count(chr(10))} lines "
        f"({block_resources} resources): bare libyaml {block_bare:5.2f} s, docsync validate "
        f"{block:5.2f} s   {block / block_bare:4.1f}x bare (target <= 3x)"
    )
    print(
        f"docsync validate, {len(big_text) / 1e6:.1f} MB manifest ({big_resources} resources): "
        f"{big:6.2f} s"
    )


def validate(path: Path) -> None:
    result = CliRunner().invoke(cli, ["validate", str(path)])
    if result.exit_code != 0:
        sys.exit(f"validate failed:\n{result.output[-2000:]}")


if __name__ == "__main__":
    main()

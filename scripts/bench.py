"""Benchmark: what plan and apply cost on a large organization, against the emulator on loopback.

Prints figures (requests, seconds, peak memory); asserts nothing. Usage:
    bash scripts/bench [--teams N] [--spaces N] [--sites N] [--sections N]
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from docsync.api import ApiClient  # noqa: E402
from docsync.engine import run  # noqa: E402
from docsync.manifest import load_manifests  # noqa: E402
from tests.emulator_harness import start_emulator  # noqa: E402


def manifest(teams: int, spaces: int, sites: int, sections: int) -> dict[str, object]:
    users = ["ada@acme.example", "lin@acme.example", "sam@acme.example", "kim@acme.example"]
    return {
        "organization": "org_acme",
        "teams": [
            {"title": f"Team {i:04}", "members": [users[i % 4], users[(i + 1) % 4]]}
            for i in range(teams)
        ],
        "collections": [{"title": f"Collection {i:03}"} for i in range(max(1, spaces // 20))],
        "spaces": [
            {"title": f"Space {i:04}", "collection": f"Collection {i % max(1, spaces // 20):03}"}
            for i in range(spaces)
        ],
        "sites": [
            {
                "title": f"Site {s:03}",
                "published": True,
                "sections": [
                    {
                        "title": f"Section {k:02}",
                        "siteSpaces": [
                            {"space": f"Space {(s * sections + k) % spaces:04}", "path": "v1"}
                        ],
                    }
                    for k in range(sections)
                ],
            }
            for s in range(sites)
        ],
    }


async def measure(url: str, path: Path, parallelism: int) -> None:
    loaded = load_manifests([path])
    async with ApiClient(url, "tok_ada", parallelism=parallelism) as api:
        started = time.perf_counter()
        plan, live = await run.plan(api, loaded)
        planned = time.perf_counter() - started
        print(
            f"first plan:   {len(plan.actions):6} actions, {api.stats.requests:6} requests, "
            f"{planned:7.2f} s"
        )
        before = api.stats.requests
        started = time.perf_counter()
        report = await run.apply(api, plan, live, parallelism=parallelism)
        applied = time.perf_counter() - started
        print(
            f"apply:        {report.summary()}, {api.stats.requests - before} requests, "
            f"{applied:7.2f} s"
        )
        before = api.stats.requests
        started = time.perf_counter()
        plan, _ = await run.plan(api, loaded)
        again = time.perf_counter() - started
        print(
            f"second plan:  {len(plan.actions):6} actions, {api.stats.requests - before:6} "
            f"requests, {again:7.2f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--teams", type=int, default=300)
    parser.add_argument("--spaces", type=int, default=300)
    parser.add_argument("--sites", type=int, default=20)
    parser.add_argument("--sections", type=int, default=5)
    parser.add_argument("--parallelism", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.yaml"
        document = manifest(args.teams, args.spaces, args.sites, args.sections)
        path.write_text(yaml.safe_dump(document), encoding="utf-8")
        print(
            f"organization: {args.teams} teams, {args.spaces} spaces, {args.sites} sites x "
            f"{args.sections} sections; parallelism {args.parallelism}"
        )
        with start_emulator() as emulator:
            asyncio.run(measure(emulator.url, path, args.parallelism))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory:  {peak:.0f} MiB (client and emulator in one process)")


if __name__ == "__main__":
    main()

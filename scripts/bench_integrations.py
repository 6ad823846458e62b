"""Benchmark: the requests of planning an integration installed on many sites, against the
bound of one list request per installation and level (its sites, its spaces), not one per site.
Prints figures; asserts nothing. Usage:

    python scripts/bench_integrations.py [--sites 50]    (`bash scripts/bench` runs it too)
"""

from __future__ import annotations

import argparse
from typing import Any

from bench_grants import apply_then_plan  # scripts/ is on the path

LEVELS = 2  # sites and spaces, both written on the installation
LEVEL_ROUTES = ("/installations/{installationId}/sites", "/installations/{installationId}/spaces")


def manifest(sites: int) -> str:
    lines = ["organization: org_acme", "spaces: [{title: Guides}]", "sites:"]
    lines += [f"  - {{title: Site {i:03}}}" for i in range(sites)]
    lines += [
        "integrations:",
        "  - name: google-analytics",
        "    configuration: {tracking_id: G-BENCH}",
        "    sites:",
        *(f"      Site {i:03}: {{configuration: {{anonymize: true}}}}" for i in range(sites)),
        "    spaces: {Guides: {configuration: {label: guides}}}",
    ]
    return "\n".join(lines) + "\n"


def measure(sites: int) -> dict[str, Any]:
    wrote, read, seconds = apply_then_plan(manifest(sites))
    return {
        "level_lists": sum(n for r, n in read.items() if r.endswith(LEVEL_ROUTES)),
        "installation_reads": sum(n for r, n in read.items() if "/installations" in r),
        "plan_requests": sum(read.values()),
        "plan_seconds": seconds,
        "installs": sum(n for r, n in wrote.items() if "/installations" in r),
    }


def report(sites: int) -> None:
    row = measure(sites)
    print(f"\nan integration installed on {sites} sites and a space (configuration on each):")
    print(
        f"  plan: {row['level_lists']} installation list requests (one per level: {LEVELS}), "
        f"{row['installation_reads']} installation requests, {row['plan_requests']} requests "
        f"in all, {row['plan_seconds']:.2f} s"
    )
    print(f"  apply from scratch: {row['installs']} installation requests (install and configure)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sites", type=int, default=50)
    report(parser.parse_args().sites)


if __name__ == "__main__":
    main()

"""Benchmark: the requests of planning grants on many spaces, against the issue's bound of one
list request per managed resource and principal type. Prints figures; asserts nothing. Usage:

    python scripts/bench_grants.py [--spaces 200]    (`bash scripts/bench` runs it too)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from click.testing import CliRunner

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from docsync.cli import main as cli  # noqa: E402
from docsync.emulator.app import EmulatorConfig  # noqa: E402
from docsync.emulator.server import EmulatorThread  # noqa: E402

TYPES = 2  # teams and members, both written on every space


def manifest(spaces: int) -> str:
    lines = ["organization: org_acme", "teams:", "  - {title: Writers}", "  - {title: Readers}"]
    lines.append("spaces:")
    for i in range(spaces):
        lines.append(
            f"  - title: Space {i:04}\n    permissions:\n"
            "      teams: {Writers: edit, Readers: read}\n"
            "      members: {lin@acme.example: edit}"
        )
    return "\n".join(lines) + "\n"


def request_counts(url: str) -> Counter[str]:
    counts: dict[str, Any] = httpx.get(f"{url}/_emulator/stats", timeout=10).json()["requests"]
    return Counter(counts)


def apply_then_plan(text: str) -> tuple[Counter[str], Counter[str], float]:
    """The requests of applying the manifest `text` to the example seed from scratch, then of
    planning it again, and that plan's seconds."""
    seed = REPO / "examples" / "emulator-seed.yaml"
    with (
        EmulatorThread(EmulatorConfig(seed=str(seed))) as server,
        tempfile.TemporaryDirectory() as tmp,
    ):
        path = Path(tmp) / "manifest.yaml"
        path.write_text(text, "utf-8")
        env = {"DOCSYNC_API_URL": server.url, "DOCSYNC_TOKEN": "tok_ada", "NO_COLOR": "1"}
        runner = CliRunner()
        before = request_counts(server.url)
        applied = runner.invoke(cli, ["apply", str(path), "--auto-approve"], env=env)
        if applied.exit_code != 0:
            raise RuntimeError(applied.output)
        wrote = request_counts(server.url) - before
        before = request_counts(server.url)
        started = time.perf_counter()
        planned = runner.invoke(cli, ["plan", str(path), "--detailed-exitcode"], env=env)
        seconds = time.perf_counter() - started
        if planned.exit_code != 0:
            raise RuntimeError(planned.output)
        return wrote, request_counts(server.url) - before, seconds


def measure(spaces: int) -> dict[str, Any]:
    wrote, read, seconds = apply_then_plan(manifest(spaces))
    grant_lists = sum(n for route, n in read.items() if "/permissions/" in route)
    invites = sum(n for route, n in wrote.items() if route.endswith("/permissions"))
    return {
        "grant_lists": grant_lists,
        "expected": spaces * TYPES,
        "plan_requests": sum(read.values()),
        "plan_seconds": seconds,
        "invites": invites,
    }


def report(spaces: int) -> None:
    row = measure(spaces)
    print(f"\ngrants on {spaces} spaces (teams and members written on each):")
    print(
        f"  plan: {row['grant_lists']} grant list requests (one per space and principal type: "
        f"{row['expected']}), {row['plan_requests']} requests in all, {row['plan_seconds']:.1f} s"
    )
    print(f"  apply from scratch: {row['invites']} invite requests (one per space and role)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--spaces", type=int, default=200)
    report(parser.parse_args().spaces)


if __name__ == "__main__":
    main()

"""Contract fuzzing, the long run: schemathesis against the emulator in both contract modes, from
production's document (tests/contract/fuzz.py), each mode in a process of its own. Usage:

    bash scripts/fuzz [--examples 100] [--scenarios 300] [--seed 25] [--mode production]
                      [--phases coverage,fuzzing,stateful]

Phases: `coverage` (schemathesis's deterministic boundary values of every schema, valid and
invalid), `fuzzing` (--examples generated requests per operation) and `stateful` (--scenarios
sequences that feed one answer's ids to the next request; production's document declares no
OpenAPI links, so schemathesis infers them from Location headers and from the ids that answers
and requests share). Prints the requests per operation and phase, the failures with a curl line
each, what fuzz_forgiven.py explained, and the time; exits 1 on any failure or error.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from docsync.emulator.defaults import CONTRACTS  # noqa: E402
from tests.contract.fuzz import Report, run  # noqa: E402


def _one(mode: str, args: argparse.Namespace) -> Report:
    return run(
        mode,  # type: ignore[arg-type]
        examples=args.examples,
        scenarios=args.scenarios,
        seed=args.seed,
        phases=tuple(args.phases.split(",")),
    )


def _table(reports: list[Report]) -> list[str]:
    """Requests per operation, one column per mode."""
    modes = [r.mode for r in reports]
    operations = sorted(
        {op for r in reports for op in r.requests}, key=lambda o: o.split(" ")[::-1]
    )
    width = max(len(op) for op in operations)
    lines = [f"{'operation':<{width}}  " + "  ".join(f"{m:>11}" for m in modes)]
    for op in operations:
        lines.append(f"{op:<{width}}  " + "  ".join(f"{r.requests[op]:>11,}" for r in reports))
    lines.append(f"{'total':<{width}}  " + "  ".join(f"{r.total:>11,}" for r in reports))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=100, help="per operation (fuzzing)")
    parser.add_argument("--scenarios", type=int, default=300, help="stateful sequences")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--mode", choices=CONTRACTS, action="append", help="default: both")
    parser.add_argument("--phases", default="coverage,fuzzing,stateful")
    args = parser.parse_args(argv)
    modes = args.mode or list(CONTRACTS)
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=len(modes)) as pool:
        reports = list(pool.map(_one, modes, [args] * len(modes)))
    print("\n".join(_table(reports)))
    print()
    for report in reports:
        print(report.summary())
        for reason, count in sorted(report.forgiven.items()):
            print(f"  forgiven {count:5,}  {reason}")
        if report.failures or report.errors:
            print(report.problems())
    total = sum(r.total for r in reports)
    failures = sum(len(r.failures) + len(r.errors) for r in reports)
    wall = time.perf_counter() - started
    print(f"\nfuzz: {total:,} requests, {failures} failures, {wall:.0f} s wall")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

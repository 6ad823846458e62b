"""Fault soak: does one apply converge while the server fails, throttles and drops answers?

For each fault seed: a fresh emulator answering a share of requests with 5xx and 429 and cutting
the connection after a share of writes committed; one `docsync apply` of examples/acme (two
sites, sections, groups, teams, SAML, content); then, with faults off, a plan must find nothing
to do and no natural key may be held twice. Prints the figure; asserts nothing. Takes minutes.
    bash scripts/soak [--seeds 20] [--fail-5xx 0.1] [--fail-429 0.1] [--drop-after-commit 0.05]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.emulator_harness import start_emulator  # noqa: E402
from tests.engine.faultkit import duplicates  # noqa: E402

MANIFEST = REPO / "examples" / "acme"


def docsync(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DOCSYNC_API_URL": url, "DOCSYNC_TOKEN": "tok_ada", "NO_COLOR": "1"}
    command = [str(Path(sys.executable).parent / "docsync"), *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)


def soak_one(seed: int, args: argparse.Namespace) -> tuple[bool, list[str], str]:
    faults = {
        "fail_5xx": args.fail_5xx,
        "fail_429": args.fail_429,
        "drop_after_commit": args.drop_after_commit,
        "retry_after": 0,
        "seed": seed,
    }
    with start_emulator() as emulator:
        emulator.set_faults(**faults)
        applied = docsync(emulator.url, "apply", str(MANIFEST), "--auto-approve")
        emulator.set_faults()
        plan = docsync(emulator.url, "plan", str(MANIFEST), "--detailed-exitcode")
        doubled = duplicates(emulator)
    converged = applied.returncode == 0 and plan.returncode == 0
    detail = ""
    if not converged:
        failed = [line for line in applied.stdout.splitlines() if "FAILED" in line]
        detail = "; ".join(failed[:3]) or applied.stderr.strip().splitlines()[-1:][0:1].__str__()
        if applied.returncode == 0:
            left = [ln.strip() for ln in plan.stdout.splitlines() if ln.strip()[:1] in "+-~"]
            detail = "changes left: " + "; ".join(left[:4])
    return converged, doubled, detail


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--fail-5xx", type=float, default=0.1)
    parser.add_argument("--fail-429", type=float, default=0.1)
    parser.add_argument("--drop-after-commit", type=float, default=0.05)
    args = parser.parse_args()
    print(
        f"soak: {args.seeds} seeds, one apply each of examples/acme; --fail-5xx {args.fail_5xx} "
        f"--fail-429 {args.fail_429} --drop-after-commit {args.drop_after_commit}"
    )
    converged = 0
    doubled_total = 0
    started = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        t0 = time.perf_counter()
        ok, doubled, detail = soak_one(seed, args)
        converged += ok
        doubled_total += len(doubled)
        verdict = "converged" if ok else "NOT converged"
        print(f"seed {seed:3}: {verdict} in {time.perf_counter() - t0:5.1f} s", end="")
        print(f"  {detail}" if detail else "", end="")
        print(f"  duplicates: {', '.join(doubled)}" if doubled else "")
    print(
        f"converged {converged}/{args.seeds} with one apply each; duplicates: {doubled_total}; "
        f"{time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main()

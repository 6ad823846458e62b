"""Fault soak: does every kind converge in one apply while the server fails, throttles and drops
answers?

For each fault seed: a fresh emulator; the stages of a rich example (examples/rich: the
organization's own kinds, then its sites, then who may access what, then how its sites look)
applied in order, each under a share of requests answered 5xx and 429 and of writes whose
answer is cut after they were carried out; a stage that fails is applied again (up to 4 times)
to count the applies it needed. Then, faults off, the next plan's exit code
(`--detailed-exitcode`: 0 is converged) and the natural keys held twice (duplicates).

The kinds come from the catalogue: each kind, and each part a kind writes under its entries
(`Kind.writes`), is reported with the stage that first writes it; one that no stage writes is
reported NOT COVERED and the soak exits 1, until a stage writes it. Prints figures; takes minutes.
    bash scripts/soak [--seeds 20] [--fail-5xx 0.1] [--fail-429 0.1] [--drop-after-commit 0.05]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.emulator_harness import start_emulator  # noqa: E402
from tests.engine.faultkit import duplicates  # noqa: E402
from tests.engine.rich import EXAMPLE, STAGES, every_written, written_by  # noqa: E402

MAX_APPLIES = 4


@dataclass
class Stage:
    """One stage's figures over every seed."""

    applies: Counter[int] = field(default_factory=Counter)  # applies needed -> seeds
    plans: Counter[int] = field(default_factory=Counter)  # next plan's exit code -> seeds
    doubled: list[str] = field(default_factory=list)
    faults: int = 0  # injected, over every seed
    failures: list[str] = field(default_factory=list)


def docsync(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DOCSYNC_API_URL": url, "DOCSYNC_TOKEN": "tok_ada", "NO_COLOR": "1"}
    command = [str(Path(sys.executable).parent / "docsync"), *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)


def soak_one(seed: int, args: argparse.Namespace, stages: dict[str, Stage]) -> list[str]:
    """Applies every stage under faults; `stages` gets the figures. The seed's line, per stage."""
    line = []
    counted: dict[str, int] = {}
    with start_emulator() as emulator:
        for number, name in enumerate(STAGES):
            stage = stages[name]
            faults = {
                "fail_5xx": args.fail_5xx,
                "fail_429": args.fail_429,
                "drop_after_commit": args.drop_after_commit,
                "retry_after": 0,
                "seed": seed * 100 + number,
            }
            emulator.set_faults(**faults)
            var = ("--var", f"stage={name}")
            applies = 0
            for applies in range(1, MAX_APPLIES + 1):
                done = docsync(emulator.url, "apply", str(EXAMPLE), *var, "--auto-approve")
                if done.returncode == 0:
                    break
                failed = [ln.strip() for ln in done.stdout.splitlines() if "FAILED" in ln]
                why = failed[:2] or done.stderr.strip().splitlines()[-1:]
                stage.failures.append(f"seed {seed}, apply {applies}: {'; '.join(why)}")
            faults = sum(emulator.stats()["faults"].values())
            emulator.set_faults()
            stage.applies[applies] += 1
            stage.faults += faults - sum(counted.values())
            counted[name] = faults - sum(counted.values())
            planned = docsync(emulator.url, "plan", str(EXAMPLE), *var, "--detailed-exitcode")
            stage.plans[planned.returncode] += 1
            if planned.returncode:
                left = [
                    ln.strip()
                    for ln in planned.stdout.splitlines()
                    if ln.strip()[:1] in ("+", "-", "~")
                ]
                stage.failures.append(f"seed {seed}: changes left: {'; '.join(left[:4])}")
            doubled = duplicates(emulator)
            stage.doubled += [f"seed {seed}: {d}" for d in doubled]
            line.append(f"{name} {applies}/{planned.returncode}/{len(doubled)} ({counted[name]})")
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--fail-5xx", type=float, default=0.1)
    parser.add_argument("--fail-429", type=float, default=0.1)
    parser.add_argument("--drop-after-commit", type=float, default=0.05)
    args = parser.parse_args()
    print(
        f"soak: {args.seeds} seeds of examples/rich, stages {', '.join(STAGES)}; --fail-5xx "
        f"{args.fail_5xx} --fail-429 {args.fail_429} --drop-after-commit {args.drop_after_commit}"
    )
    print("per seed and stage: applies needed / next plan's exit code / duplicates (faults)")
    first: dict[str, str] = {}
    for name in STAGES:
        for written in sorted(written_by(name)):
            first.setdefault(written, name)
    every = every_written()
    stages = {name: Stage() for name in STAGES}
    started = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        t0 = time.perf_counter()
        line = soak_one(seed, args, stages)
        seconds = time.perf_counter() - t0
        print(f"seed {seed:3}: {seconds:5.1f} s  {'  '.join(line)}", flush=True)
    print(
        f"\n{'stage':<14} {'1 apply':>8} {'applies needed':<22} {'next plan exit':<16} dups faults"
    )
    for name in STAGES:
        stage = stages[name]
        needed = ", ".join(f"{n}: {c}" for n, c in sorted(stage.applies.items()))
        plans = ", ".join(f"{n}: {c}" for n, c in sorted(stage.plans.items()))
        print(
            f"{name:<14} {stage.applies[1]:>5}/{args.seeds} {needed:<22} {plans:<16} "
            f"{len(stage.doubled):>4} {stage.faults:>6}"
        )
    by_stage: dict[str, list[str]] = defaultdict(list)
    for written in every:
        by_stage[first.get(written, "NOT COVERED")].append(written)
    print("\nkinds and parts of the catalogue, by the stage that first writes them:")
    for name in (*STAGES, "NOT COVERED"):
        if by_stage.get(name):
            stage = stages.get(name)
            figures = (
                f"  ({stage.applies[1]}/{args.seeds} in one apply, next plan 0 in "
                f"{stage.plans[0]}/{args.seeds}, {len(stage.doubled)} duplicates)"
                if stage
                else ""
            )
            print(f"  {name}: {', '.join(by_stage[name])}{figures}")
    for name in STAGES:
        for line in stages[name].failures + stages[name].doubled:
            print(f"  {name}: {line}")
    ok = all(
        stages[n].applies[1] == args.seeds
        and stages[n].plans[0] == args.seeds
        and not stages[n].doubled
        for n in STAGES
    )
    print(f"\n{'converged' if ok else 'NOT converged'}: {time.perf_counter() - started:.0f} s")
    sys.exit(0 if ok and not by_stage.get("NOT COVERED") else 1)


if __name__ == "__main__":
    main()

"""Benchmark: what every run of docsync pays before its own work, each figure the median of
REPEAT fresh processes, beside Python's own start and the import of docsync's dependencies, so a
reader sees docsync's own share. Prints figures; asserts nothing. Usage:

    bash scripts/bench --fixed [--latency MS]

Then the whole process of a plan of an organization read in about 100 requests, against the
emulator answering each request after --latency ms, next to the latency-bound ideal of its
requests: Python's start + (ceil(R / parallelism) + nesting depth) x latency (the organization's
lists, then each team's members and each site's structure; as in scripts/bench.py).
"""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import yaml
from bench import DEPTH, PARALLELISM, Org, Server, client  # scripts/ is on the path

REPO = Path(__file__).resolve().parent.parent
DOCSYNC = str(Path(sys.executable).with_name("docsync"))
COMMANDS = ("apply", "emulator", "export", "plan", "schema", "show", "validate")
REPEAT = 5
#: The targets of "instant commands", in seconds.
HELP_TARGET, VALIDATE_TARGET, PLAN_TARGET = 0.15, 0.35, 1.5


def median_wall(argv: Sequence[str], env: dict[str, str] | None = None) -> float:
    """The median wall time of REPEAT runs of a fresh process (after one warm-up run, so that
    the file system cache is not what is measured)."""
    times = []
    for attempt in range(REPEAT + 1):
        started = time.perf_counter()
        done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, check=False)
        elapsed = time.perf_counter() - started
        if done.returncode != 0:
            sys.exit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr.decode()}")
        if attempt:
            times.append(elapsed)
    return statistics.median(times)


def row(name: str, seconds: float, base: float, target: str = "") -> None:
    own = f"{(seconds - base) * 1000:+6.0f} ms over Python" if base else ""
    print(f"  {name:<48} {seconds * 1000:6.0f} ms  {own:<22} {target}")


def fixed_costs() -> float:
    """Prints the start of each command; answers Python's own start."""
    python = median_wall([sys.executable, "-c", "pass"])
    deps = median_wall([sys.executable, "-c", "import yaml, pydantic, httpx, click"])
    print(f"fixed costs, median of {REPEAT} fresh processes ({os.cpu_count()} CPUs):")
    row("python -c pass", python, 0)
    row("python -c 'import yaml, pydantic, httpx, click'", deps, python)
    row("docsync --version", median_wall([DOCSYNC, "--version"]), python)
    row("docsync --help", median_wall([DOCSYNC, "--help"]), python, f"<= {HELP_TARGET} s")
    for command in COMMANDS:
        seconds = median_wall([DOCSYNC, command, "--help"])
        row(f"docsync {command} --help", seconds, python, f"<= {HELP_TARGET} s")
    validate = median_wall([DOCSYNC, "validate", "examples/acme"])
    row("docsync validate examples/acme", validate, python, f"<= {VALIDATE_TARGET} s")
    return python


def plan_process(python: float, latency_ms: float) -> None:
    """The whole `docsync plan` process against the emulator at `latency_ms` per request."""
    org = Org(1258)  # about 100 reads: the lists, 63 teams' members, 31 sites' structures
    with tempfile.TemporaryDirectory() as tmp:
        seed, manifest = Path(tmp) / "seed.yaml", Path(tmp) / "org.yaml"
        seed.write_text(yaml.safe_dump(org.seed()), "utf-8")
        manifest.write_text(yaml.safe_dump(org.manifest()), "utf-8")
        emulator = Server("emulator", str(seed))
        try:
            client("apply", emulator.url, manifest)
            emulator.control("PUT", "faults", {"latency": latency_ms})
            requests = client("plan", emulator.url, manifest)["requests"]
            env = {**os.environ, "DOCSYNC_TOKEN": "tok_ada", "DOCSYNC_API_URL": emulator.url}
            argv = [DOCSYNC, "plan", str(manifest), "--parallelism", str(PARALLELISM)]
            wall = median_wall(argv, env)
        finally:
            emulator.stop()
    latency = latency_ms / 1000
    ideal = python + (math.ceil(requests / PARALLELISM) + DEPTH) * latency
    print(
        f"\nplan process: {org.resources:,} resources read in {requests} requests at "
        f"{latency_ms:.0f} ms each, parallelism {PARALLELISM}, median of {REPEAT}:"
    )
    row("docsync plan (the whole process)", wall, python)
    row("latency-bound ideal", ideal, python)
    print(f"  {'ratio':<48} {wall / ideal:6.2f}x{'':<32} <= {PLAN_TARGET}x")


def main(latency_ms: float) -> None:
    started = time.perf_counter()
    python = fixed_costs()
    plan_process(python, latency_ms)
    load = os.getloadavg()[0]
    print(f"(measured in {time.perf_counter() - started:.0f} s; load average {load:.2f})")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 50.0)

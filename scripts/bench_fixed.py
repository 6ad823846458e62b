"""Benchmark: what every run of docsync pays before its own work, beside the import of the
libraries it stands on, and a plan process beside its latency-bound ideal; with `--previous`,
the previous release measured in the same run, its processes alternating with this tree's, so
that both see the same machine. Prints figures; asserts nothing. Usage:

    bash scripts/bench --fixed [--latency MS] [--previous VENV]

VENV is a virtual environment where the previous release is installed (its `bin/docsync`, and
its `bin/python` for its own baselines), outside the repository, e.g.:

    python3 -m venv ../venv-041 && ../venv-041/bin/pip install "git+file://$PWD@5011912b7e9c"

Each figure is the median of REPEAT fresh processes (after one warm-up run each) of wall time
and of CPU time (user + sys, which a loaded machine inflates less than wall time). The targets:
`docsync --help` within 1.5x `python -c "import click"`, `docsync validate examples/acme`
within 2x `python -c "import pydantic, yaml, jinja2, click"`, and the whole process of a plan of
an organization read in about 100 requests at --latency ms each within 1.5x its latency-bound
ideal: Python's start + (ceil(R / parallelism) + nesting depth) x latency (the organization's
lists, then each team's members and each site's structure; as in scripts/bench.py).
"""

from __future__ import annotations

import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml
from bench import DEPTH, PARALLELISM, Org, Server, client  # scripts/ is on the path

from docsync.cli.commands import COMMANDS as COMMAND_MODULES

REPO = Path(__file__).resolve().parent.parent
#: this tree's commands; one the previous release lacks is shown as "-" in its columns
COMMANDS = tuple(sorted(COMMAND_MODULES))
REPEAT = 9
LIBS = "import pydantic, yaml, jinja2, click"
#: the targets: a command's start against the import it cannot do without
HELP_TARGET, VALIDATE_TARGET, PLAN_TARGET = 1.5, 2.0, 1.5


@dataclass(frozen=True)
class Install:
    """A docsync and the Python it runs on: this tree's (.venv) or the previous release's."""

    name: str
    python: str
    docsync: str

    @classmethod
    def of(cls, name: str, python: str) -> Install:
        return cls(name, python, str(Path(python).with_name("docsync")))


@dataclass(frozen=True)
class Cost:
    wall: float
    cpu: float


def _once(argv: Sequence[str], env: dict[str, str] | None) -> Cost:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr.decode()}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return Cost(wall, cpu)


def medians(runs: dict[str, Sequence[str]], env: dict[str, str] | None = None) -> dict[str, Cost]:
    """Each command's median wall and CPU time over REPEAT runs, the commands taking turns (so a
    burst of load falls on all of them alike), after one warm-up run each."""
    for argv in runs.values():
        _once(argv, env)
    seen: dict[str, list[Cost]] = {name: [] for name in runs}
    for _ in range(REPEAT):
        for name, argv in runs.items():
            seen[name].append(_once(argv, env))
    return {
        name: Cost(
            statistics.median(c.wall for c in costs), statistics.median(c.cpu for c in costs)
        )
        for name, costs in seen.items()
    }


def _ms(cost: Cost) -> str:
    return f"{cost.wall * 1000:5.0f} {cost.cpu * 1000:5.0f}"


def _ratio(cost: Cost, base: Cost) -> str:
    return f"{cost.wall / base.wall:4.2f}x {cost.cpu / base.cpu:4.2f}x"


def _has_command(install: Install, command: str) -> bool:
    """Whether `install` has `command` (the previous release may lack one added since)."""
    argv = [install.docsync, command, "--help"]
    return subprocess.run(argv, cwd=REPO, capture_output=True, check=False).returncode == 0


def fixed_costs(installs: list[Install]) -> None:
    """Prints each command's start beside its baseline, per install."""
    rows: list[tuple[str, str, str, float | None]] = [
        ("python -c pass", "python", "", None),
        (f"python -c '{LIBS}'", "libs", "", None),
        ("python -c 'import click'", "click", "", None),
        ("docsync --version", "version", "click", None),
        ("docsync --help", "help", "click", HELP_TARGET),
        *[(f"docsync {c} --help", f"help {c}", "click", HELP_TARGET) for c in COMMANDS],
        ("docsync validate examples/acme", "validate", "libs", VALIDATE_TARGET),
    ]
    runs: dict[str, Sequence[str]] = {}
    for install in installs:
        lacks = {c for c in COMMANDS if not _has_command(install, c)}
        argv = {
            "python": [install.python, "-c", "pass"],
            "libs": [install.python, "-c", LIBS],
            "click": [install.python, "-c", "import click"],
            "version": [install.docsync, "--version"],
            "help": [install.docsync, "--help"],
            "validate": [install.docsync, "validate", "examples/acme"],
            **{f"help {c}": [install.docsync, c, "--help"] for c in COMMANDS if c not in lacks},
        }
        runs |= {f"{install.name}|{key}": command for key, command in argv.items()}
    costs = medians(runs)
    print(
        f"fixed costs: median of {REPEAT} fresh processes, wall and CPU (user + sys) in ms, "
        f"{os.cpu_count()} CPUs"
    )
    head = "".join(f"  {i.name:>26}" for i in installs)
    print(f"  {'':<50}{head}   target")
    print(f"  {'':<50}" + "  wall   cpu  ratio: wall  cpu" * len(installs))
    for label, key, base, target in rows:
        cells = ""
        for install in installs:
            cost = costs.get(f"{install.name}|{key}")
            if cost is None:  # a command this install lacks
                cells += f"  {'-':>5} {'-':>5} {'':>12}"
                continue
            ratio = _ratio(cost, costs[f"{install.name}|{base}"]) if base else ""
            cells += f"  {_ms(cost)} {ratio:>12}"
        goal = f"<= {target}x {'import click' if base == 'click' else 'the libraries'}"
        print(f"  {label:<50}{cells}   {goal if target else ''}")


def plan_process(installs: list[Install], latency_ms: float) -> None:
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
            runs: dict[str, Sequence[str]] = {}
            for install in installs:
                runs[f"{install.name}|python"] = [install.python, "-c", "pass"]
                runs[f"{install.name}|plan"] = [
                    install.docsync, "plan", str(manifest), "--parallelism", str(PARALLELISM)
                ]  # fmt: skip
            costs = medians(runs, env)
        finally:
            emulator.stop()
    latency = latency_ms / 1000
    print(
        f"\nplan process: {org.resources:,} resources read in {requests} requests at "
        f"{latency_ms:.0f} ms each, parallelism {PARALLELISM}, median of {REPEAT}; the ideal is "
        f"Python's start + (ceil(R / {PARALLELISM}) + {DEPTH}) x latency:"
    )
    for install in installs:
        python, plan = costs[f"{install.name}|python"], costs[f"{install.name}|plan"]
        ideal = python.wall + (math.ceil(requests / PARALLELISM) + DEPTH) * latency
        print(
            f"  {install.name:<26} {plan.wall * 1000:6.0f} ms (CPU {plan.cpu * 1000:4.0f} ms), "
            f"ideal {ideal * 1000:4.0f} ms: {plan.wall / ideal:4.2f}x   target <= {PLAN_TARGET}x"
        )


def main(latency_ms: float, previous: str | None = None) -> None:
    started = time.perf_counter()
    load = os.getloadavg()[0]
    installs = [Install.of("this tree", sys.executable)]
    if previous is not None:
        python = Path(previous) / "bin" / "python"
        if not python.exists():
            sys.exit(f"--previous {previous}: no bin/python there (a virtual environment)")
        version = subprocess.run(
            [str(python.with_name("docsync")), "--version"], capture_output=True, text=True
        ).stdout.split()
        installs.append(
            Install.of(f"previous ({version[1] if len(version) > 1 else '?'})", str(python))
        )
    fixed_costs(installs)
    plan_process(installs, latency_ms)
    took = time.perf_counter() - started
    after = os.getloadavg()[0]
    print(f"(measured in {took:.0f} s; load average {load:.2f} before, {after:.2f} after)")


if __name__ == "__main__":
    main(
        float(sys.argv[1]) if len(sys.argv) > 1 else 50.0,
        sys.argv[2] if len(sys.argv) > 2 else None,
    )

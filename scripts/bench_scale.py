"""Benchmark: 100,000 entries. A translations glossary of 100,000 terms (in three languages) and
100,000 teams (each with one member), each in one manifest file: `docsync validate` and
`docsync plan` against the emulator (the example seed: the glossary planned as one batch of
100,000 inserts, the teams as 100,000 creates), wall time, CPU time and peak memory of each
process, the median of REPEAT runs; with `--previous VENV`, the previous release's beside.
Prints figures; asserts nothing. Usage:

    bash scripts/bench --scale [--previous VENV]

Targets: validate under 5 s and 300 MB, plan under 10 s, at 100,000 entries.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench import Server  # scripts/ is on the path

REPO = Path(__file__).resolve().parent.parent
SEED = REPO / "examples" / "emulator-seed.yaml"
ENTRIES = 100_000
REPEAT = 3
VALIDATE_SECONDS, VALIDATE_MB, PLAN_SECONDS = 5.0, 300.0, 10.0


def glossary(entries: int) -> str:
    terms = "".join(
        f"    - {{en: Term {i:06}, fr: Terme {i:06}, de: Begriff {i:06}}}\n" for i in range(entries)
    )
    return f"organization: org_acme\ntranslationsGlossary:\n  keyLanguage: en\n  entries:\n{terms}"


def teams(entries: int) -> str:
    written = "".join(
        f"  - title: Team {i:06}\n    members: [ada@acme.example]\n" for i in range(entries)
    )
    return f"organization: org_acme\nteams:\n{written}"


def measured(argv: Sequence[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(wall s, CPU s, peak MB) of one process, its own."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.stderr is not None
    errors = process.stderr.read().decode()
    process.stderr.close()
    if process.returncode not in (0, 2):  # 2: `plan --detailed-exitcode`, changes planned
        sys.exit(f"{' '.join(argv)} failed ({process.returncode}):\n{errors[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def median_of(argv: Sequence[str], env: dict[str, str]) -> tuple[float, float, float]:
    runs = [measured(argv, env) for _ in range(REPEAT)]
    return tuple(statistics.median(run[i] for run in runs) for i in range(3))  # type: ignore[return-value]


def main(previous: str | None = None) -> None:
    load = os.getloadavg()[0]
    installs = [("this tree", str(Path(sys.executable).with_name("docsync")))]
    if previous is not None:
        installs.append(("previous", str(Path(previous) / "bin" / "docsync")))
    print(
        f"100,000 entries: wall s / CPU s / peak MB of each process, median of {REPEAT}; "
        f"targets: validate < {VALIDATE_SECONDS:.0f} s and < {VALIDATE_MB:.0f} MB, "
        f"plan < {PLAN_SECONDS:.0f} s"
    )
    with tempfile.TemporaryDirectory() as tmp:
        files = {
            "glossary of 100,000 terms": Path(tmp) / "glossary.yaml",
            "100,000 teams": Path(tmp) / "teams.yaml",
        }
        files["glossary of 100,000 terms"].write_text(glossary(ENTRIES), "utf-8")
        files["100,000 teams"].write_text(teams(ENTRIES), "utf-8")
        emulator = Server("emulator", str(SEED))
        try:
            env = {**os.environ, "DOCSYNC_TOKEN": "tok_ada", "DOCSYNC_API_URL": emulator.url}
            for what, path in files.items():
                size = path.stat().st_size / 1e6
                for name, docsync in installs:
                    validate = median_of([docsync, "validate", str(path)], env)
                    plan = median_of([docsync, "plan", str(path)], env)
                    print(
                        f"  {what} ({size:.1f} MB), {name:<10} validate "
                        f"{validate[0]:5.2f} / {validate[1]:5.2f} / {validate[2]:4.0f}   plan "
                        f"{plan[0]:5.2f} / {plan[1]:5.2f} / {plan[2]:4.0f}"
                    )
        finally:
            emulator.stop()
    print(f"(load average {load:.2f} before, {os.getloadavg()[0]:.2f} after)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)

"""An apply stopped by Ctrl-C, SIGTERM or kill -9: a summary (or nothing, for kill -9), the
shell's exit code, no traceback, and the next apply converges without duplicates. The CLI runs
as its own process so that signals reach it as they would from a terminal or a CI runner."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.engine.conftest import Docsync, Write, apply_ok, assert_converged, cli_env, listed
from tests.engine.faultkit import ORG

TEAMS = 12
MANIFEST = "organization: org_acme\nteams:\n" + "".join(
    f"  - {{title: Team {i:02}}}\n" for i in range(TEAMS)
)


def start_apply(emulator: EmulatorHandle, path: Path) -> subprocess.Popen[str]:
    """`docsync apply` in a process of its own, one action at a time, on a slowed emulator."""
    emulator.set_faults(latency=40)  # milliseconds per request
    command = [str(Path(sys.executable).parent / "docsync"), "apply", str(path)]
    command += ["--auto-approve", "--parallelism", "1"]
    env = {**os.environ, **cli_env(emulator)}
    return subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def wait_for_progress(process: subprocess.Popen[str], lines: int = 2) -> str:
    """Reads stdout until `lines` apply lines (`[n/N] ok ...`) have come."""
    assert process.stdout is not None
    seen, seen_lines = "", 0
    while seen_lines < lines:
        line = process.stdout.readline()
        assert line, f"the apply ended early: {seen}"
        seen += line
        seen_lines += line.lstrip().startswith("[")
    return seen


def wait_until(condition: Callable[[], bool], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the apply sent nothing"
        time.sleep(0.01)


def finish(process: subprocess.Popen[str], before: str) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=30)
    return process.returncode, before + out, err


def assert_one_of_each(emulator: EmulatorHandle) -> None:
    counts = Counter(t["title"] for t in listed(emulator, f"{ORG}/teams"))
    assert all(n == 1 for n in counts.values()), counts


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupt_finishes_what_is_in_flight_and_says_what_was_not_started(
    docsync: Docsync, emulator: EmulatorHandle, write: Write, signum: int, code: int
) -> None:
    path = write("teams.yaml", MANIFEST)
    process = start_apply(emulator, path)
    before = wait_for_progress(process)
    process.send_signal(signum)
    returncode, out, err = finish(process, before)
    assert returncode == code, (out, err)
    assert "Traceback" not in out + err
    summary = next(line for line in out.splitlines() if line.startswith("Apply interrupted: "))
    done = int(summary.split()[2])
    assert 2 <= done < TEAMS and summary.endswith(f"{TEAMS - done} not started."), summary
    assert "starting nothing new" in err
    emulator.set_faults()
    assert len(listed(emulator, f"{ORG}/teams")) == done
    apply_ok(docsync, path)
    assert_converged(docsync, path)
    assert_one_of_each(emulator)


def test_a_second_signal_stops_at_once_without_a_traceback(
    emulator: EmulatorHandle, write: Write
) -> None:
    process = start_apply(emulator, write("teams.yaml", MANIFEST))
    before = wait_for_progress(process, 1)
    with emulator.holding():  # what is in flight now outlasts the second signal
        assert emulator.in_flight is not None and process.stderr is not None
        wait_until(lambda: emulator.in_flight.count > 0)  # type: ignore[union-attr]
        process.send_signal(signal.SIGINT)
        first = ""
        while "starting nothing new" not in first:  # the first signal is taken
            line = process.stderr.readline()
            assert line, f"the apply ended at the first signal: {first}"
            first += line
        process.send_signal(signal.SIGINT)
        started = time.monotonic()
        returncode, out, err = finish(process, before)
        assert returncode == 130 and time.monotonic() - started < 2, (out, first + err)
    assert "Stopped at once" in err and "Traceback" not in out + first + err


@pytest.mark.parametrize("after_lines", [1, 5])
def test_kill_9_mid_apply_then_apply_again_converges_without_duplicates(
    docsync: Docsync, emulator: EmulatorHandle, write: Write, after_lines: int
) -> None:
    path = write("teams.yaml", MANIFEST)
    process = start_apply(emulator, path)
    wait_for_progress(process, after_lines)
    process.kill()
    process.communicate(timeout=10)
    # The request the killed process had sent is still carried out (after the 40 ms latency);
    # the next apply starts once it has landed, as a person or a CI retry would, not before:
    # a create that commits after the next apply read the teams is a duplicate no client can see.
    emulator.wait_idle(settle=0.5)
    emulator.set_faults()
    apply_ok(docsync, path)
    assert_converged(docsync, path)
    assert_one_of_each(emulator)
    assert len(listed(emulator, f"{ORG}/teams")) == TEAMS

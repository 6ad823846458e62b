"""Ctrl-C or SIGTERM at any moment before an apply changes anything (while the manifests load,
while the live state is read) ends docsync with one line and the shell's code, 130 or 143:
never a traceback, click's `Aborted!`, or a silent death. The CLI runs as its own process, so
the signals reach it as they would from a terminal or a CI runner."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.kit import Write, cli_env

#: a template that keeps the loader busy (until the run's template budget stops it)
BUSY = "{% for i in range(100000) %}{% for j in range(1000) %}{% endfor %}{% endfor %}"


def started(command: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", "from docsync.cli import main; main()", *command],
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return process


def catches_sigterm(pid: int) -> bool:
    """Whether the process has its SIGTERM handler in place (docsync's command has begun)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        caught = next(line for line in status if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) & (1 << (signal.SIGTERM - 1)))


def wait_for(condition: object, what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"never {what}"
        time.sleep(0.02)


@pytest.mark.slow
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("phase", ["loading the manifests", "reading the live state"])
def test_an_interrupt_before_the_apply_ends_with_one_line_and_the_shell_code(
    emulator: EmulatorHandle, write: Write, tmp_path: Path, signum: int, code: int, phase: str
) -> None:
    if phase == "loading the manifests":
        manifest = write("m.yaml.j2", f"organization: org_acme\n# {BUSY}\n")
    else:
        manifest = write("m.yaml", "organization: org_acme\nteams: [{title: Platform}]\n")
        emulator.set_faults(latency=3000)
    process = started(["plan", str(manifest)], cli_env(emulator))
    try:
        wait_for(lambda: catches_sigterm(process.pid), "had its handlers")
        if phase == "reading the live state":
            assert emulator.in_flight is not None
            wait_for(lambda: emulator.in_flight.count > 0, "read")  # type: ignore[union-attr]
        else:
            time.sleep(0.3)
        process.send_signal(signum)
        out, err = process.communicate(timeout=20)
    finally:
        process.kill()
        emulator.set_faults()
    name = signal.Signals(signum).name
    assert process.returncode == code, (out, err)
    assert err.strip().splitlines() == [
        f"Interrupted by {name} while {phase}: nothing was changed."
    ], err
    assert out == ""

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


def opened_for_writing(fifo: Path) -> int:
    """Opens the FIFO once the process reads it (until then there is no reader to open for)."""
    deadline = time.monotonic() + 20
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            assert time.monotonic() < deadline, "the process never read the variable file"
            time.sleep(0.02)


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
    manifest = write("m.yaml", "organization: org_acme\nteams: [{title: Platform}]\n")
    # The loader waits on a variable file no one writes yet (a FIFO): loading, for as long as
    # the test needs; the reader waits on a slow emulator.
    variables = tmp_path / "vars.yaml"
    os.mkfifo(variables)
    if phase == "reading the live state":
        emulator.set_faults(latency=1500)
    command = ["plan", str(manifest), "--var-file", str(variables)]
    process = started(command, cli_env(emulator))
    writer = None
    try:
        wait_for(lambda: catches_sigterm(process.pid), "had its handlers")
        writer = opened_for_writing(variables)
        if phase == "reading the live state":
            os.close(writer)  # an empty variable file: loading ends, reading begins
            writer = None
            assert emulator.in_flight is not None
            wait_for(lambda: emulator.in_flight.count > 0, "read")  # type: ignore[union-attr]
        process.send_signal(signum)
        out, err = process.communicate(timeout=20)
    finally:
        process.kill()
        if writer is not None:
            os.close(writer)
        emulator.set_faults()
    name = signal.Signals(signum).name
    assert process.returncode == code, (out, err)
    assert err.strip().splitlines() == [
        f"Interrupted by {name} while {phase}: nothing was changed."
    ], err
    assert out == ""

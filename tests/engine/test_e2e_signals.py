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

#: docsync as `docsync` runs, but its reads of manifest and variable files stall as on a slow
#: network filesystem: the first one leaves a mark (so the test knows loading has begun) and
#: waits, for as long as the test needs
_STALLED = """
import sys, time
from docsync.manifest import files
def stalled(name):
    open(sys.argv[1], "w").close()
    time.sleep(600)
files.read_text = stalled
from docsync.cli import main
main(sys.argv[2:])
"""


def started(command: list[str], env: dict[str, str], stall: Path | None) -> subprocess.Popen[str]:
    """docsync in its own process; with `stall`, its file reads wait, and mark `stall` first."""
    plain = ["-c", "from docsync.cli import main; main()"]
    process = subprocess.Popen(
        [sys.executable, *(plain if stall is None else ["-c", _STALLED, str(stall)]), *command],
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
    manifest = write("m.yaml", "organization: org_acme\nteams: [{title: Platform}]\n")
    # Loading: the loader waits on its file for as long as the test needs; reading: the reader
    # waits on the emulator, which holds its requests for as long as the test needs (the files
    # are read at once).
    stall = tmp_path / "loading" if phase == "loading the manifests" else None
    with emulator.holding():
        process = started(["plan", str(manifest)], cli_env(emulator), stall)
        try:
            wait_for(lambda: catches_sigterm(process.pid), "had its handlers")
            if stall is not None:
                wait_for(stall.exists, "began loading")
            else:
                assert emulator.in_flight is not None
                wait_for(lambda: emulator.in_flight.count > 0, "read")  # type: ignore[union-attr]
            process.send_signal(signum)
            out, err = process.communicate(timeout=20)
        finally:
            process.kill()
    name = signal.Signals(signum).name
    assert process.returncode == code, (out, err)
    assert err.strip().splitlines() == [
        f"Interrupted by {name} while {phase}: nothing was changed."
    ], err
    assert out == ""

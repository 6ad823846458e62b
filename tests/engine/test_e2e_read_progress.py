"""While plan and apply read the live state, a terminal shows what is being read, on stderr, in
one line rewritten in place and cleared at the end; without a terminal nothing of it appears.
The CLI runs as its own process with stderr on a pseudo-terminal, as a person would see it."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.engine.conftest import Write, cli_env

MANIFEST = """organization: org_acme
teams:
  - {title: Platform}
sites:
  - title: Docs
"""
DOCSYNC = str(Path(sys.executable).parent / "docsync")

pytestmark = pytest.mark.slow  # each test starts the CLI as a process of its own


def run_cli(emulator: EmulatorHandle, *args: str, tty: bool) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of the CLI; with `tty`, stderr is a pseudo-terminal's."""
    env = {**os.environ, **cli_env(emulator), "COLUMNS": "200"}
    if not tty:
        done = subprocess.run([DOCSYNC, *args], env=env, capture_output=True, text=True)
        return done.returncode, done.stdout, done.stderr
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [DOCSYNC, *args], env=env, stdout=subprocess.PIPE, stderr=follower, stdin=subprocess.DEVNULL
    )
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # EIO: the process closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert process.stdout is not None
    out = process.stdout.read().decode()
    return process.wait(timeout=30), out, seen.decode()


def statuses(err: str) -> list[str]:
    """The status lines drawn, in order (each is written after a carriage return)."""
    return [part.strip() for part in err.split("\r") if part.strip().startswith("reading:")]


@pytest.mark.parametrize("command", [["plan"], ["apply", "--auto-approve"]])
def test_a_terminal_sees_what_is_read_then_a_cleared_line(
    emulator: EmulatorHandle, write: Write, command: list[str]
) -> None:
    path = write("org.yaml", MANIFEST)
    emulator.set_faults(latency=150)  # a read phase long enough to be drawn several times
    code, out, err = run_cli(emulator, *command, str(path), tty=True)
    assert code == 0, (out, err)
    drawn = statuses(err)
    assert drawn[0] == "reading: organization", err
    # the kinds still being read (teams, sites and the kinds they refer to), then fewer
    pending = [re.match(r"^reading: (\d)/(\d) \((.+)\), \d+ requests?$", line) for line in drawn]
    found = [(int(m[1]), int(m[2]), m[3].split(", ")) for m in pending if m]
    assert found and found[0][0] == 0 and {"teams", "sites"} <= set(found[0][2]), drawn
    assert all(done + len(still) == total for done, total, still in found), drawn
    # cleared at the end: blanks over the last line (shorter ones were padded over longer)
    blanks = " " * len(drawn[-1])
    assert re.search(rf"\r{blanks} *\r$", err), repr(err[-200:])
    assert "reading" not in out  # never on stdout


@pytest.mark.parametrize("command", [["plan"], ["apply", "--auto-approve"]])
def test_without_a_terminal_nothing_is_drawn_and_stdout_is_the_same(
    emulator: EmulatorHandle, write: Write, command: list[str]
) -> None:
    path = write("org.yaml", MANIFEST)
    emulator.set_faults(latency=150)
    code, out, err = run_cli(emulator, *command, str(path), tty=False)
    assert code == 0, (out, err)
    assert "reading" not in out + err and "\r" not in out + err
    if command == ["plan"]:
        _, on_terminal, _ = run_cli(emulator, *command, str(path), tty=True)
        assert on_terminal == out


def test_verbose_logs_are_the_progress_and_no_line_is_drawn(
    emulator: EmulatorHandle, write: Write
) -> None:
    code, out, err = run_cli(emulator, "plan", "-v", str(write("org.yaml", MANIFEST)), tty=True)
    assert code == 0, (out, err)
    assert "plan: " in err and "reading:" not in err

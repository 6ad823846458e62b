"""Helpers for the manifest tests: run `docsync validate` (`write` is in tests/conftest.py), in
process or, for hostile input, in one child process under a memory ceiling and a time limit."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence

from click.testing import CliRunner, Result

from docsync.cli import main

#: the child's address-space ceiling: what a regression would hit first
CEILING = 2 * 1024**3

_RUN = """
import json, sys, time
from click.testing import CliRunner
from docsync.cli import main
found = []
for args in json.loads(sys.argv[1]):
    started = time.process_time()
    result = CliRunner().invoke(main, args)
    found.append([result.exit_code, result.output, time.process_time() - started])
# The peak of this process's own memory since it began (not of the pytest worker it was forked
# from, whose pages the kernel counts in the child's ru_maxrss until the exec).
with open("/proc/self/status", encoding="ascii") as status:
    peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
print(json.dumps({"found": found, "peak_kb": peak}))
"""


def run_validate(*args: str, env: dict[str, str] | None = None) -> Result:
    """Run `docsync validate` in-process, as a user would from a shell."""
    return CliRunner().invoke(main, ["validate", *args], env=env, catch_exceptions=True)


def _ceiling() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CEILING, CEILING))


def run_bounded(
    commands: Sequence[Sequence[str]], timeout: float = 60
) -> tuple[list[tuple[int, str, float]], float]:
    """(exit code, output, CPU seconds) of each docsync command, run one after the other in one
    child process under CEILING; and that process's peak resident memory in MB (its own
    high-water mark, read by the child itself: wait4's maxrss counts the pages of the worker it
    was forked from). CPU time, not wall time: what a command costs, whatever else the machine
    runs. A command that hangs is killed at `timeout` and fails the test, not the suite."""
    with tempfile.TemporaryFile() as errors:
        child = subprocess.Popen(
            [sys.executable, "-c", _RUN, json.dumps([list(c) for c in commands])],
            stdout=subprocess.PIPE,
            stderr=errors,
            preexec_fn=_ceiling,
        )
        killer = threading.Timer(timeout, child.kill)
        killer.start()
        assert child.stdout is not None
        out = child.stdout.read()
        _pid, status, usage = os.wait4(child.pid, 0)
        killer.cancel()
        child.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        assert child.returncode != -signal.SIGKILL, f"still running after {timeout} s: {commands}"
        assert child.returncode == 0, errors.read().decode()[-3000:]
    del usage
    report = json.loads(out)
    return [tuple(r) for r in report["found"]], report["peak_kb"] / 1024  # type: ignore[misc]

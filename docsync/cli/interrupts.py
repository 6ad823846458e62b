"""Ctrl-C and SIGTERM during an apply: the first starts nothing new and lets the requests in
flight finish, so the summary can say what was done; a second stops at once. Never a traceback:
a half-read traceback is the last thing to show someone who just stopped a change."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager

from docsync.engine.executor import GRACE_SECONDS

SIGNALS = (signal.SIGINT, signal.SIGTERM)


def exit_code(signum: int) -> int:
    """The shell's convention: 128 + the signal's number (130 for SIGINT, 143 for SIGTERM)."""
    return 128 + signum


class Interrupts:
    """The signal an apply was stopped by (None: not stopped), and the event that stops it."""

    def __init__(self) -> None:
        self.stop = asyncio.Event()
        self.signum: int | None = None

    def receive(self, signum: int) -> None:
        if self.signum is not None:
            os.write(2, b"\nStopped at once: what was in flight may or may not have happened.\n")
            os._exit(exit_code(signum))
        self.signum = signum
        self.stop.set()
        name = signal.Signals(signum).name
        message = (
            f"\n{name}: starting nothing new; waiting up to {GRACE_SECONDS:.0f} s for the "
            "requests in flight (again to stop at once).\n"
        )
        os.write(2, message.encode())

    @contextmanager
    def watching(self) -> Iterator[Interrupts]:
        """Handles SIGINT and SIGTERM on the running loop for the `with` block."""
        loop = asyncio.get_running_loop()
        before = {signum: signal.getsignal(signum) for signum in SIGNALS}
        for signum in SIGNALS:
            loop.add_signal_handler(signum, self.receive, signum)
        try:
            yield self
        finally:
            for signum in SIGNALS:
                loop.remove_signal_handler(signum)
                # What handled them before the apply does again (`signals`): not the default,
                # which for SIGTERM is a silent death.
                signal.signal(signum, before[signum])

"""Ctrl-C and SIGTERM at any moment of a command: one line saying what docsync was doing and
that nothing was changed, and the shell's exit code (130, 143); never click's `Aborted!`, a
traceback or a silent death. The apply phase handles them its own way (`interrupts`): what is
in flight finishes and the summary says what was done.

SIGTERM is turned into what SIGINT does at that moment: Python's KeyboardInterrupt in plain
code, or, inside `asyncio.run`, the cancellation of the main task (so the reads in flight are
cancelled and the client closed before the line is printed)."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn

import click

_doing = "starting"
_received: int | None = None


@contextmanager
def doing(what: str) -> Iterator[None]:
    """Names what the command is doing, for the line an interrupt prints (left named when the
    block ends by an exception: an interrupt says where it came)."""
    global _doing
    before, _doing = _doing, what
    yield
    _doing = before


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    global _received
    _received = signum
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):  # Python's (raises KeyboardInterrupt) or asyncio's (cancels)
        handler(signal.SIGINT, frame)
    else:
        raise KeyboardInterrupt


def watch() -> None:
    """From the start of a command: SIGTERM interrupts as SIGINT does."""
    global _received
    _received = None
    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, _on_sigterm):
        signal.signal(signal.SIGTERM, _on_sigterm)


def received() -> int:
    """The signal behind a KeyboardInterrupt: SIGTERM when it was one, else SIGINT."""
    return _received or signal.SIGINT


def stop() -> NoReturn:
    """After a KeyboardInterrupt: the line, and the shell's code for the signal."""
    signum = received()
    name = signal.Signals(signum).name
    click.echo(f"Interrupted by {name} while {_doing}: nothing was changed.", err=True)
    sys.exit(128 + signum)

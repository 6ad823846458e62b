"""A status line on the terminal while plan and apply read the live state.

On stderr, only when stderr is a terminal and no `-v` log shares it: CI logs and piped output
stay exactly as they were. One line, rewritten in place with a carriage return and cut to the
terminal's width (a wrapped line could not be rewritten), then cleared before anything else
is printed.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, TextIO

from docsync.cli.signals import doing
from docsync.engine.reading import ReadWatch

if TYPE_CHECKING:
    from docsync.api import ApiClient

TICK = 0.1  # seconds between redraws


def status_text(watch: ReadWatch, requests: int) -> str:
    """`reading: 3/9 (sites, members), 14 requests`, or the organization before the kinds."""
    if not watch.total:
        return "reading: organization"
    still = f" ({', '.join(watch.pending)})" if watch.pending else ""
    plural = "" if requests == 1 else "s"
    return f"reading: {watch.done}/{watch.total}{still}, {requests} request{plural}"


class StatusLine:
    """One line of a terminal, rewritten in place; `clear()` leaves the cursor where it began."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._shown = ""

    def show(self, text: str) -> None:
        width = max(shutil.get_terminal_size().columns - 1, 10)
        text = text if len(text) <= width else text[: width - 3] + "..."
        if text == self._shown:
            return
        padding = " " * max(len(self._shown) - len(text), 0)
        self._stream.write(f"\r{text}{padding}\r{text}" if padding else f"\r{text}")
        self._stream.flush()
        self._shown = text

    def clear(self) -> None:
        if self._shown:
            self._stream.write("\r" + " " * len(self._shown) + "\r")
            self._stream.flush()
            self._shown = ""


def wanted(verbose: int, stream: TextIO | None = None) -> bool:
    """A status line only on a terminal, and not under -v (the log lines are the progress)."""
    stream = stream or sys.stderr
    return not verbose and bool(getattr(stream, "isatty", lambda: False)())


@asynccontextmanager
async def reading_status(api: ApiClient, verbose: int) -> AsyncIterator[ReadWatch]:
    """The watch `read_live` fills in, drawn on stderr every TICK while the block runs."""
    with doing("reading the live state"):
        async with _drawn(api, verbose) as watch:
            yield watch


@asynccontextmanager
async def _drawn(api: ApiClient, verbose: int) -> AsyncIterator[ReadWatch]:
    watch = ReadWatch()
    if not wanted(verbose):
        yield watch
        return
    line = StatusLine(sys.stderr)

    async def draw() -> None:
        while True:
            line.show(status_text(watch, api.stats.requests))
            await asyncio.sleep(TICK)

    drawing = asyncio.create_task(draw())
    try:
        yield watch
    finally:
        drawing.cancel()
        await asyncio.wait([drawing])  # ended, without taking a cancellation meant for us
        line.clear()

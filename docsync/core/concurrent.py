"""Reads run together, and the first that fails stops the others: their requests are cancelled
and awaited before the error goes up, so nothing keeps using a client that is about to close
(no `Cannot send a request, as the client has been closed` at exit, no task left running)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def gather_all(*awaitables: Awaitable[T]) -> list[T]:
    """Their results, in order; the first error (in the order given, among those that fail
    together) is raised once the others are cancelled and have ended."""
    tasks = [asyncio.ensure_future(a) for a in awaitables]
    if not tasks:
        return []
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
    finally:
        # Cancelled from outside, or one failed: what is left stops before anything goes up.
        pending = [t for t in tasks if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending)
    errors = [t.exception() for t in tasks if not t.cancelled()]  # each one retrieved
    first = next((e for e in errors if e is not None), None)
    if first is not None:
        raise first
    return [t.result() for t in tasks]

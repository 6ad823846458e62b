"""Reads run together, and the first that fails stops the others: their requests are cancelled
and awaited before the error goes up, so nothing keeps using a client that is about to close
(no `Cannot send a request, as the client has been closed` at exit, no task left running);
writes run together to their ends (`finish_all`); and a command's coroutine run to its end
(`run`).

Every kind's module imports this; `asyncio` is imported by the functions, when something is
first awaited, so that `docsync validate`, which never awaits, does not pay for it (about
15 ms of its start)."""

from __future__ import annotations

from collections.abc import Awaitable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


async def gather_all(*awaitables: Awaitable[T]) -> list[T]:
    """Their results, in order; the first error (in the order given, among those that fail
    together) is raised once the others are cancelled and have ended."""
    import asyncio

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


async def finish_all(*awaitables: Awaitable[T]) -> list[T]:
    """Their results, in order, each run to its end whatever the others do (a write is never
    cut off); then the first error, in the order given, is raised."""
    import asyncio

    done = await asyncio.gather(*awaitables, return_exceptions=True)
    failed = next((e for e in done if isinstance(e, BaseException)), None)
    if failed is not None:
        raise failed
    return done  # type: ignore[return-value]


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)`, with `main`'s result kept out of the event loop's main task.

    On its way out, Python 3.11's runner looks up its SIGINT handler, and the lookup formats
    the handler, a partial holding the main task, and so the task's result: a plan of 100,000
    actions was written out in full, twice, a second of CPU or more, for nothing."""
    import asyncio

    results: list[T] = []

    async def main_task() -> None:
        results.append(await main)

    asyncio.run(main_task())
    return results[0]

"""The cycle collector around bursts of allocation.

Loading a big manifest or planning 100,000 actions makes millions of small objects and hardly
a cycle among them. Python's collector, triggered by every few hundred new objects and now and
then over the whole heap, walked them again and again while they were made: twice the parse
time of a 10 MB manifest, a third of a 100,000-action plan's CPU. Paused for the burst, it
runs as usual afterwards."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """No automatic collection inside the block. What it made is then counted as old at once:
    the collector's next young collection would otherwise walk the whole burst (a tenth of a
    100,000-entry load), and `freeze` then `unfreeze` moves every object to the oldest
    generation without walking any."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        if enabled:
            gc.enable()

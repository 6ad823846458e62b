"""The templates' budget of work, counted in steps and never in seconds: the same manifests get
the same verdict on an idle machine and on a loaded one (a wall-clock budget passed 8,000 small
templates on the one and failed them on the other).

A step is one event of Python's trace while a template runs: a line of the template's own
code, or a call of any function written in Python (a filter, a macro, the sandbox's checks, a
generator resumed). Work that makes no event (code in C, and the loops inside a filter written
in Python) the sandbox charges before it runs by the bytes it reads or builds (`Work.bytes`),
BYTES_PER_STEP to a step: comparing, searching or summing a large value costs as many steps as
the lines a loop over it would (filter_sizes says what each filter reads). The templates of one
run share STEP_LIMIT; a template over it stops at its next line, located, and every template
after it stops at once.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

#: the steps the templates of one run may take together: about two seconds of template code
#: on an idle machine; a small template (`Team {{ region | upper }}`) takes about 107
STEP_LIMIT = 20_000_000
#: the bytes a step stands for when code in C reads or builds them (a substring search of
#: 16 bytes costs about what a line of template code does)
BYTES_PER_STEP = 16
#: the file name Jinja gives the code of a template made from a string
TEMPLATE_FILE = "<template>"


class WorkExceeded(Exception):
    """The templates of this run have taken more than STEP_LIMIT steps."""


class Work:
    """The steps the templates of one run have taken (one per run: the budget is the run's)."""

    def __init__(self) -> None:
        self.steps = 0

    @property
    def exhausted(self) -> bool:
        return self.steps > STEP_LIMIT

    def stop(self) -> WorkExceeded:
        return WorkExceeded(
            f"the templates of this run took more than {STEP_LIMIT:,} steps together"
        )

    def charge(self, steps: int) -> None:
        """Counts `steps` of work done in C; raises once the run's budget is spent."""
        self.steps += steps
        if self.steps > STEP_LIMIT:
            raise self.stop()

    def bytes(self, size: int) -> None:
        """Counts an operation that reads or builds `size` bytes in C (one step at least)."""
        self.charge(size // BYTES_PER_STEP + 1)

    @contextmanager
    def metered(self) -> Iterator[None]:
        """Counts the calls of the code run inside and the lines of the template's own code
        (tracing every line of every filter would cost a template a sixth more, for work the
        sandbox charges by size); once the budget is spent, the next event of the template's
        own code raises. Only there: a filter that catches exceptions of its own
        (`test_sequence`) cannot swallow the stop, and no code outside a template is
        interrupted halfway."""
        if self.exhausted:
            raise self.stop()
        previous = sys.gettrace()

        def count(frame: FrameType, event: str, arg: Any) -> Any:
            self.steps += 1
            if self.steps > STEP_LIMIT and frame.f_code.co_filename == TEMPLATE_FILE:
                raise self.stop()
            return count if frame.f_code.co_filename == TEMPLATE_FILE else None

        sys.settrace(count)
        try:
            yield
        finally:
            sys.settrace(previous)
        if self.exhausted:  # spent by the last steps, outside the template's own code
            raise self.stop()

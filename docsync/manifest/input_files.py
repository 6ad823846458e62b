"""Reading a file at a path a user gave (a manifest, a variable file, a saved plan): a regular
file only, and no more of it than a limit, both checked before anything is read.

A named pipe blocks its reader until someone writes to it, forever if no one does; a device such
as /dev/zero never ends. Either is refused by what it is, at its path, in one line; so is a file
over the limit, by its size, so that a 1 GB file costs nothing to refuse.
"""

from __future__ import annotations

import os
import stat

#: what a path may be instead of a regular file, named for a message
_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)
_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class InputRefused(Exception):
    """Why the file cannot be read, as the rest of a message that names its path."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def mebibytes(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB"


def read_input(path: str, limit: int) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them; raises InputRefused.

    The path is looked at before it is opened, and what was opened is looked at again (opened
    without waiting: a pipe put there in between cannot block), so nothing but a regular file is
    ever read. The read stops one byte past the limit, should the file grow meanwhile."""
    try:
        _regular(os.stat(path), limit)
        descriptor = os.open(path, _READ)
    except OSError as error:
        raise InputRefused(f"cannot read the file: {error.strerror or error}") from None
    try:
        _regular(os.fstat(descriptor), limit)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(descriptor, min(left, 1024 * 1024))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as error:
        raise InputRefused(f"cannot read the file: {error.strerror or error}") from None
    finally:
        os.close(descriptor)
    if left <= 0:
        raise InputRefused(f"the file is larger than {mebibytes(limit)}")
    return b"".join(chunks)


def kind_of(info: os.stat_result) -> str:
    """What a path is, for a message: `a file`, `a directory`, `a character device`..."""
    if stat.S_ISREG(info.st_mode):
        return "a file"
    return next((name for test, name in _KINDS if test(info.st_mode)), "a special file")


def _regular(info: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        kind = kind_of(info)
        raise InputRefused(f"{kind}, not a regular file: docsync reads regular files only")
    if info.st_size > limit:
        raise InputRefused(f"the file is larger than {mebibytes(limit)}")

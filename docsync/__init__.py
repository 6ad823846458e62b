"""docsync: configuration as code for a documentation platform's Management API."""

from __future__ import annotations

from typing import Any

#: The release this code is (docsync.version.release): looked up when first read, so that a
#: command that never prints it never pays for reading the distribution's metadata.
__version__: str


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from docsync.version import release

        return release()
    raise AttributeError(f"module 'docsync' has no attribute {name!r}")

"""A local server of the Management API: Starlette, uvicorn, SQLite (../shared/DESIGN.md §5).

Names are loaded on first use (PEP 562), so that `docsync.emulator.defaults` (what `docsync
emulator --help` shows) loads without Starlette.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docsync.emulator.app import EmulatorConfig, create_app

__all__ = ["EmulatorConfig", "create_app"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'docsync.emulator' has no attribute {name!r}")
    from docsync.emulator import app

    return getattr(app, name)

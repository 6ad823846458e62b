"""A local server of the Management API: Starlette, uvicorn, SQLite (../shared/DESIGN.md §5)."""

from __future__ import annotations

from docsync.emulator.app import EmulatorConfig, create_app

__all__ = ["EmulatorConfig", "create_app"]

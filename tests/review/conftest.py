"""Fixtures of the review tests: the CLI in-process against the session emulator."""

from __future__ import annotations

from tests.engine.conftest import docsync, write

__all__ = ["docsync", "write"]

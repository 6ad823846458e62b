"""Imports every command module so that each registers itself on the `main` group."""

from __future__ import annotations

from docsync.cli import apply as _apply  # noqa: F401
from docsync.cli import emulator as _emulator  # noqa: F401
from docsync.cli import export as _export  # noqa: F401
from docsync.cli import plan as _plan  # noqa: F401
from docsync.cli import schema as _schema  # noqa: F401
from docsync.cli import validate as _validate  # noqa: F401

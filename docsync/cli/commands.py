"""The commands and the module of each: imported only when the command runs.

Each module adds its command to `docsync.cli.main` (`@main.command(...)`) when imported.
"""

from __future__ import annotations

COMMANDS: dict[str, str] = {
    "apply": "docsync.cli.apply",
    "emulator": "docsync.cli.emulator",
    "export": "docsync.cli.export",
    "plan": "docsync.cli.plan",
    "rehearse": "docsync.cli.rehearse",
    "schema": "docsync.cli.schema",
    "show": "docsync.cli.show",
    "validate": "docsync.cli.validate",
}

"""Fast start: a command imports only what it needs (checked in a fresh interpreter)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.cli.conftest import ACME, REPO

# Run the CLI, then report which of the heavy modules the process imported.
_PROBE = """
import json, sys
from docsync.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
heavy = ("starlette", "uvicorn", "httpx", "deepdiff", "docsync.emulator", "docsync.api")
# The kinds' modules name the API's error types (plain Python); the client itself stays unloaded.
plain = ("docsync.api", "docsync.api.errors")
found = [m for m in sys.modules if m.startswith(heavy) and m not in plain]
print(json.dumps(sorted(found)), file=sys.stderr)
"""


def _imported(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    found: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return found


@pytest.mark.parametrize(
    "args",
    [["--version"], ["validate", str(ACME)], ["schema"], ["show", "--help"]],
    ids=["version", "validate", "schema", "show"],
)
def test_offline_commands_import_no_http_stack_and_no_emulator(args: list[str]) -> None:
    assert _imported(*args) == []


def test_a_command_that_calls_the_api_still_loads_it() -> None:
    """The probe sees imports: `plan --help` loads the plan command and with it the client."""
    found = _imported("plan", "--help")
    assert "httpx" in found
    assert "docsync.emulator" not in found

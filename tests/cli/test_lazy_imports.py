"""Fast start: a command imports only what it needs (checked in a fresh interpreter)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from docsync.cli.commands import COMMANDS
from tests.cli.conftest import ACME, REPO

POLICIES = REPO / "examples" / "policies"

# Run the CLI, then report which of the given module prefixes the process imported.
_PROBE = """
import json, sys
watched = tuple(json.loads(sys.argv[1]))
allowed = tuple(json.loads(sys.argv[2]))
from docsync.cli import main
try:
    main(sys.argv[3:])
except SystemExit:
    pass
# a module with no spec was never loaded: docsync's stand-in for httpx's command line
loaded = [m for m, module in sys.modules.items() if getattr(module, "__spec__", None) is not None]
found = [m for m in loaded if m.startswith(watched) and m not in allowed]
print(json.dumps(sorted(found)), file=sys.stderr)
"""

#: What a command that never calls the API must not load.
HTTP_STACK = ("starlette", "uvicorn", "httpx", "deepdiff", "docsync.emulator", "docsync.api")
#: The kinds' modules name the API's error types, answer shapes and what they say of production's
#: document (plain Python); the client itself stays unloaded.
PLAIN_API = ("docsync.api", "docsync.api.errors", "docsync.api.answers", "docsync.api.contract")
#: What `--help` must not load: it shows options, which need click and the command's module.
PIPELINE = (
    *HTTP_STACK,
    "pydantic",
    "yaml",
    "jinja2",
    "docsync.manifest",
    "docsync.kinds",
    "docsync.engine",
    "docsync.core",
    "docsync.render.",
    "docsync.export",
)
#: Plain Python that `--help` may load: the error types the CLI turns into one line, and the
#: emulator's defaults its options show.
HELP_ALLOWED = (
    *PLAIN_API,
    "docsync.core",
    "docsync.core.errors",
    "docsync.emulator",
    "docsync.emulator.defaults",
)


def _imported(watched: tuple[str, ...], allowed: tuple[str, ...], *args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(watched), json.dumps(allowed), *args],
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
    """Nor the CEL runtime (examples/acme has no policies), nor asyncio: nothing is awaited
    offline, and importing it costs `validate` about 15 ms."""
    watched = (*HTTP_STACK, "cel_expr_python", "asyncio")
    assert _imported(watched, PLAIN_API, *args) == []


@pytest.mark.parametrize("command", [[], *([name] for name in sorted(COMMANDS))], ids=str)
def test_help_loads_click_and_the_command_only(command: list[str]) -> None:
    """`docsync --help` and `docsync COMMAND --help`: no models, no pipeline, no HTTP stack."""
    assert _imported(PIPELINE, HELP_ALLOWED, *command, "--help") == []


def test_a_command_that_calls_the_api_still_loads_it() -> None:
    """The probe sees imports: a plan loads the client (its manifest fails to validate after)."""
    found = _imported(HTTP_STACK, PLAIN_API, "plan", str(ACME), "--api-url", "http://127.0.0.1:9")
    assert "httpx" in found
    assert "docsync.emulator" not in found


def test_the_cel_runtime_is_loaded_for_a_manifest_with_policies() -> None:
    """The other half of the offline commands' test above: validating rules loads CEL."""
    with_rules = _imported(("cel_expr_python",), (), "validate", str(ACME), str(POLICIES))
    assert "cel_expr_python" in with_rules


def test_import_docsync_loads_the_python_api_on_first_use_only() -> None:
    probe = (
        "import json, sys; import docsync; before = sorted(sys.modules); docsync.load; "
        "print(json.dumps([before, sorted(sys.modules)]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    before, after = json.loads(done.stdout)
    assert not [m for m in before if m.startswith(PIPELINE)], before
    assert "docsync.python_api" in after and "httpx" in after

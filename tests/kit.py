"""The CLI against the emulator: one kit for the end-to-end tests.

docsync runs in-process (click's runner: the CLI's code, real HTTP to the emulator on loopback)
unless a test is about the process itself (logging set-up, stderr, signals, the console script):
then `run_process`. The environment is the one a user sets (`cli_env`); manifests are files
(`write_file`, the `write` fixture); what the tests read back goes through the API (`listed`).
The `emulator`, `docsync` and `write` fixtures are in tests/conftest.py; the emulator itself is
served by tests/emulator_harness.py (re-exported here, so one import gives the whole kit).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner, Result

from docsync.cli import main
from tests.emulator_harness import REPO, SEED, EmulatorHandle, start_emulator

TOKEN = "tok_ada"
#: the certificate that SAML manifests read through env(): it must never be printed
CERT = "MIIC-test-certificate-very-secret"
ORG = "/v1/orgs/org_acme"
#: the `[n/N]` progress prefix of an apply line
STEP = re.compile(r"^\[\d+/\d+\] ")

__all__ = [
    "CERT",
    "ORG",
    "REPO",
    "SEED",
    "STEP",
    "TOKEN",
    "Docsync",
    "EmulatorHandle",
    "Write",
    "apply",
    "apply_ok",
    "assert_converged",
    "cli_env",
    "cli_for",
    "converged",
    "export_plans_empty",
    "id_of",
    "invoke",
    "listed",
    "progress_lines",
    "requests_between",
    "run_process",
    "start_emulator",
    "write_file",
]

Docsync = Callable[..., Result]
Write = Callable[[str, str], Path]


def cli_env(emulator: EmulatorHandle, **extra: str) -> dict[str, str]:
    """What a user exports to run docsync against `emulator` as tok_ada (SAML_CERT for the
    manifests that read it), plus `extra`."""
    return {
        "DOCSYNC_API_URL": emulator.url,
        "DOCSYNC_TOKEN": TOKEN,
        "SAML_CERT": CERT,
        "NO_COLOR": "1",
        **extra,
    }


def cli_for(emulator: EmulatorHandle, **env: str) -> Docsync:
    """docsync(*args) -> Result against `emulator` with cli_env's environment (plus `env`): for
    a test whose emulator or token is not the `docsync` fixture's (another contract, a user
    other than ada)."""

    def run(*args: str | Path) -> Result:
        return invoke(cli_env(emulator, **env), *args)

    return run


def invoke(env: dict[str, str], *args: str | Path) -> Result:
    """docsync in-process with this environment; stdout and stderr kept apart."""
    return CliRunner().invoke(main, [str(a) for a in args], env=env)


def run_process(
    *args: str | Path, env: dict[str, str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """docsync as a separate process, run as the `docsync` executable runs it (logging set-up,
    stderr and the end of the process as a user sees them)."""
    merged = {**os.environ, "NO_COLOR": "1", **env}
    return subprocess.run(
        [sys.executable, "-c", "from docsync.cli import run; run()", *map(str, args)],
        env=merged,
        cwd=cwd or REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )


#: libyaml's parser and emitter where PyYAML was built with it: ten times its Python parser on
#: the workflows the CI tests read again and again, three times its emitter on big manifests
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def yaml_data(text: str) -> Any:
    """A test input's YAML as data: what `yaml.safe_load` gives, parsed by libyaml."""
    return yaml.load(text, Loader=_LOADER)


def yaml_text(data: Any, **options: Any) -> str:
    """Data as a YAML test input, written by libyaml: `yaml.safe_dump`'s defaults and data, not
    always its text (libyaml quotes more, escapes characters outside the Basic Multilingual
    Plane): for inputs docsync reads, never for text compared with docsync's own output."""
    return str(yaml.dump(data, Dumper=_DUMPER, **options))


def write_file(directory: Path, name: str, text: str) -> Path:
    """The file `directory/name` (parents made) with this text."""
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# -- applying and checking ----------------------------------------------------------------------
def apply_ok(docsync: Docsync, *paths: Path) -> Result:
    """`apply --auto-approve`, which must go through entirely."""
    result = docsync("apply", *paths, "--auto-approve")
    assert result.exit_code == 0, result.output
    assert "0 failed, 0 skipped" in result.stdout or "No changes" in result.stdout
    return result


def apply(docsync: Docsync, path: Any, *extra: str) -> str:
    """`apply --auto-approve` plus `extra` options, which must go through; its stdout."""
    result = docsync("apply", path, "--auto-approve", *extra)
    assert result.exit_code == 0, result.output
    assert "0 failed, 0 skipped" in result.stdout or "No changes" in result.stdout, result.output
    return str(result.stdout)


def assert_converged(docsync: Docsync, *paths: Path) -> Result:
    """The plan is empty, in so many words, and `--detailed-exitcode` says 0."""
    result = docsync("plan", *paths, "--detailed-exitcode")
    assert result.exit_code == 0, result.output
    assert "No changes." in result.stdout
    assert "Plan: 0 to create, 0 to update, 0 to delete." in result.stdout
    return result


def export_plans_empty(docsync: Docsync, out: Path, file: str) -> tuple[Result, str]:
    """Exports the organization into `out` and checks that the export plans empty (the law of
    export); returns the export's result and the text of the exported `file`."""
    exported = docsync("export", "--org", "org_acme", "--out", out)
    assert exported.exit_code == 0, exported.output
    assert_converged(docsync, out)
    return exported, (out / file).read_text(encoding="utf-8")


def converged(docsync: Docsync, path: Any) -> None:
    result = docsync("plan", path, "--detailed-exitcode")
    assert result.exit_code == 0, result.output
    assert "No changes." in result.stdout, result.output


def progress_lines(result: Result) -> list[str]:
    """The apply's progress lines (`ok create team["X"]`), in completion order, timings cut."""
    out = []
    for line in result.stdout.splitlines():
        line = STEP.sub("", line.strip())
        words = line.split()
        if words and words[0] in ("ok", "FAILED", "skipped"):
            out.append(line.split("  (")[0])
    return out


# -- reading back through the API ---------------------------------------------------------------
def listed(emulator: EmulatorHandle, path: str) -> list[dict[str, Any]]:
    """Every item of a list endpoint, read directly (not through docsync)."""
    items: list[dict[str, Any]] = []
    params: dict[str, Any] = {"limit": 1000}
    with emulator.client() as client:
        while True:
            response = client.get(path, params=params)
            response.raise_for_status()
            body = response.json()
            items += body["items"]
            page = (body.get("next") or {}).get("page")
            if not page:
                return items
            params = {"limit": 1000, "page": page}


def id_of(emulator: EmulatorHandle, what: str, key: str, value: str) -> str:
    """The id of the live item of list `what` (under the org) whose `key` is `value`."""
    items = listed(emulator, f"{ORG}/{what}")
    return str(next(i["id"] for i in items if i.get(key) == value))


def site_part(emulator: EmulatorHandle, title: str, part: str) -> Any:
    """What the API answers for one part of the site with this title (`customization`,
    `publishing/auth`, `structure`), read directly."""
    site = id_of(emulator, "sites", "title", title)
    with emulator.client() as client:
        answer = client.get(f"{ORG}/sites/{site}/{part}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def requests_between(before: dict[str, Any], after: dict[str, Any]) -> Counter[str]:
    """Requests per `METHOD /route` made between two emulator.stats() snapshots."""
    counts = Counter(after["requests"])
    counts.subtract(before["requests"])
    return +counts

"""Helpers for the engine tests: manifests on disk, the CLI in-process against the emulator."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from docsync.cli import main
from tests.emulator_harness import EmulatorHandle

MANIFESTS = Path(__file__).resolve().parent / "manifests"
TOKEN = "tok_ada"
#: the certificate that SAML manifests read through env(): it must never be printed
CERT = "MIIC-test-certificate-very-secret"

#: the `[n/N]` progress prefix of an apply line
STEP = re.compile(r"^\[\d+/\d+\] ")

Docsync = Callable[..., Result]
Write = Callable[[str, str], Path]


def cli_env(emulator: EmulatorHandle, **extra: str) -> dict[str, str]:
    return {
        "DOCSYNC_API_URL": emulator.url,
        "DOCSYNC_TOKEN": TOKEN,
        "SAML_CERT": CERT,
        "NO_COLOR": "1",
        **extra,
    }


@pytest.fixture
def docsync(emulator: EmulatorHandle) -> Docsync:
    """docsync(*args, env=None) -> click Result: the CLI in-process, real HTTP to the emulator."""

    def run(*args: str | Path, env: dict[str, str] | None = None) -> Result:
        merged = cli_env(emulator, **(env or {}))
        return CliRunner().invoke(main, [str(a) for a in args], env=merged)

    return run


@pytest.fixture
def write(tmp_path: Path) -> Write:
    """write(name, text) -> path of a manifest file in the test's temporary directory."""

    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return _write


def apply_ok(docsync: Docsync, *paths: Path) -> Result:
    result = docsync("apply", *paths, "--auto-approve")
    assert result.exit_code == 0, result.output
    assert "0 failed, 0 skipped" in result.stdout or "No changes" in result.stdout
    return result


def assert_converged(docsync: Docsync, *paths: Path) -> Result:
    result = docsync("plan", *paths, "--detailed-exitcode")
    assert result.exit_code == 0, result.output
    assert "No changes." in result.stdout
    assert "Plan: 0 to create, 0 to update, 0 to delete." in result.stdout
    return result


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


def requests_between(before: dict[str, Any], after: dict[str, Any]) -> Counter[str]:
    """Requests per `METHOD /route` made between two emulator.stats() snapshots."""
    counts = Counter(after["requests"])
    counts.subtract(before["requests"])
    return +counts


def progress_lines(result: Result) -> list[str]:
    """The apply's progress lines (`ok create team["X"]`), in completion order, timings cut."""
    out = []
    for line in result.stdout.splitlines():
        line = STEP.sub("", line.strip())
        words = line.split()
        if words and words[0] in ("ok", "FAILED", "skipped"):
            out.append(line.split("  (")[0])
    return out


# -- helpers of the tests that drive a manifest to convergence --------------------------------
ORG = "/v1/orgs/org_acme"


def apply(docsync: Docsync, path: Any, *extra: str) -> str:
    result = docsync("apply", path, "--auto-approve", *extra)
    assert result.exit_code == 0, result.output
    assert "0 failed, 0 skipped" in result.stdout or "No changes" in result.stdout, result.output
    return str(result.stdout)


def converged(docsync: Docsync, path: Any) -> None:
    result = docsync("plan", path, "--detailed-exitcode")
    assert result.exit_code == 0, result.output
    assert "No changes." in result.stdout, result.output


def id_of(emulator: EmulatorHandle, what: str, key: str, value: str) -> str:
    """The id of the live item of list `what` (under the org) whose `key` is `value`."""
    items = listed(emulator, f"{ORG}/{what}")
    return str(next(i["id"] for i in items if i.get(key) == value))

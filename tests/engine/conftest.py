"""The engine tests use the CLI-against-emulator kit (tests/kit.py; the `docsync` and `write`
fixtures are in tests/conftest.py). Its names stay importable from here."""

from __future__ import annotations

from pathlib import Path

from tests.kit import (
    CERT,
    ORG,
    STEP,
    TOKEN,
    Docsync,
    Write,
    apply,
    apply_ok,
    assert_converged,
    cli_env,
    converged,
    id_of,
    listed,
    progress_lines,
    requests_between,
)

MANIFESTS = Path(__file__).resolve().parent / "manifests"

__all__ = [
    "CERT",
    "MANIFESTS",
    "ORG",
    "STEP",
    "TOKEN",
    "Docsync",
    "Write",
    "apply",
    "apply_ok",
    "assert_converged",
    "cli_env",
    "converged",
    "id_of",
    "listed",
    "progress_lines",
    "requests_between",
]

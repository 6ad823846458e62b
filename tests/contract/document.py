"""Where the production contract is: fetched by scripts/contract.sh, or ../shared as a fallback.

`scripts/test` runs `scripts/contract.sh` first, which `npm pack`s the pinned `@gitbook/api` into
`.cache/contract/`. Without the document, a contract test skips locally with one loud line and
fails under `CI=true`, so a clone without the contract cannot pass CI by skipping.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / ".cache" / "contract"
FETCHED = CACHE / "openapi.json"
FALLBACK = REPO.parent / "shared" / "reference" / "gitbook-openapi.json"
JS_CLIENT = CACHE / "package" / "dist" / "index.cjs"
VERSION = "0.202.0"


def in_ci() -> bool:
    """True when the run is CI's (`CI=true`): missing inputs fail instead of skipping."""
    return os.environ.get("CI", "").lower() in ("true", "1")


def spec_path() -> Path | None:
    """The contract document, or None when neither the fetched copy nor the fallback exists."""
    for path in (FETCHED, FALLBACK):
        if path.is_file():
            return path
    return None


@functools.cache
def load_spec() -> dict[str, Any] | None:
    """The parsed contract, or None when it is absent."""
    path = spec_path()
    if path is None:
        return None
    spec: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return spec


MISSING = (
    f"the production contract is absent: run `bash scripts/contract.sh` (npm pack "
    f"@gitbook/api@{VERSION} into .cache/contract/) or provide ../shared/reference/"
    "gitbook-openapi.json"
)


def require_spec() -> dict[str, Any]:
    """The contract; skips the calling test when it is absent (fails under CI=true)."""
    spec = load_spec()
    if spec is None:
        missing(MISSING)
    assert spec is not None
    return spec


def missing(reason: str) -> None:
    """Skip the calling test with a loud reason, or fail it under CI=true."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: a missing contract input fails the run)")
    pytest.skip(f"!!! {reason} !!!")

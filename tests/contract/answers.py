"""Explicit checks of emulator answers, on the contract checker (`tests/contract/checker.py`).

The harness's middleware already validates every answer an emulator gives; a test that calls an
operation on purpose states more with these: which production operation the answer belongs to,
that its status is one that operation declares (error statuses included), and that its body
validates, with no documented conflict forgiven. Where docs-platform-api.md wins, `check_schema`
validates against a schema written from the description instead. Without the contract, the
calling test skips (fails under CI=true).
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

import httpx
from jsonschema import Draft202012Validator

from tests.contract.checker import Contract
from tests.contract.document import MISSING, load_spec, missing


@functools.cache
def _loaded() -> Contract | None:
    spec = load_spec()
    return None if spec is None else Contract(spec, strict=True)


def contract() -> Contract:
    """The contract checker; skips the calling test when the document is absent."""
    checker = _loaded()
    if checker is None:
        missing(MISSING)
    assert checker is not None
    return checker


def _check(method: str, template: str, path: str, status: int, raw: bytes) -> None:
    checker = contract()
    template = template.removeprefix("/v1")
    operations = checker.spec["paths"].get(template, {})
    assert method.lower() in operations, f"{method} {template} is not in the production document"
    mapped = checker.operation_of(method, path)
    assert mapped == template, f"{method} {path} is production's {mapped}, not {template}"
    responses = operations[method.lower()]["responses"]
    assert str(status) in responses, (
        f"{method} {template}: status {status} is not declared (declared: {sorted(responses)})"
    )
    found = checker.check_answer(method, path, status, raw)
    assert found is not None and not found, "; ".join(str(v) for v in found or [])


def check_response(method: str, template: str, response: httpx.Response) -> None:
    """One emulator answer, as production's `method template` would give it."""
    path = response.request.url.path
    _check(method, template, path, response.status_code, response.content)


def check_body(method: str, template: str, status: int, body: Any) -> None:
    """A body (an answer of another operation, say) as production's `method template` answer."""
    path = re.sub(r"\{[^}]+\}", "x", template.removeprefix("/v1"))
    _check(method, template, path, status, b"" if body is None else json.dumps(body).encode())


def check_schema(schema: dict[str, Any], body: Any, what: str) -> None:
    """Validate `body` against a schema written from docs-platform-api.md (for conflicts)."""
    errors = list(Draft202012Validator(schema).iter_errors(body))
    assert not errors, f"{what}: " + "; ".join(e.message for e in errors[:5])

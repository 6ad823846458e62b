"""Each documented conflict (tests/contract/conflicts.py) still holds against production's
document: a listed operation is absent from it and served by the emulator's description mode
only; a listed field conflict names an operation the document has. Contract fuzzing
(test_fuzz.py) reads none of them: both modes pass it on production's document as it is."""

from __future__ import annotations

from docsync.emulator.app import collect_routes
from tests.contract.checker import Contract as Checker
from tests.contract.conflicts import FIELDS, NOT_IN_PRODUCTION
from tests.contract.document import require_spec


def _served(mode: str) -> set[tuple[str, str]]:
    return {
        (method, getattr(route, "path", ""))
        for route in collect_routes(mode)  # type: ignore[arg-type]
        for method in getattr(route, "methods", None) or ()
    }


def test_listed_operations_are_the_descriptions_alone() -> None:
    spec = require_spec()
    description, production = _served("description"), _served("production")
    for key in NOT_IN_PRODUCTION:
        method, template = key.split(" ", 1)
        assert method.lower() not in spec["paths"].get(template, {}), key
        assert (method, "/v1" + template) in description - production, key


def test_listed_field_conflicts_name_operations_of_the_document() -> None:
    checker = Checker(require_spec())
    for operation, side, _field in FIELDS:
        method, template = operation.split(" ", 1)
        assert checker.operation_of(method, "/v1" + template) == template, operation
        assert side in ("request", "query", "answer"), operation

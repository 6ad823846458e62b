"""The fuzzer's document is production's, restricted to the operations the emulator serves,
but where it lists a departure with its reason: nothing is narrowed or widened silently."""

from __future__ import annotations

import pytest

from docsync.emulator.defaults import Contract
from tests.contract.document import require_spec
from tests.contract.fuzz_document import DEPARTURES, EMULATOR_409S, fuzz_document


@pytest.mark.parametrize("mode", ["description", "production"])
def test_the_fuzzers_document_differs_only_where_listed(mode: Contract) -> None:
    spec = require_spec()
    doc = fuzz_document(spec, mode, "http://fuzz/v1")
    schemas, theirs = doc["components"]["schemas"], spec["components"]["schemas"]
    assert schemas.keys() == theirs.keys()
    changed = {name for name in schemas if schemas[name] != theirs[name]}
    assert changed == set(DEPARTURES)
    added: set[str] = set()
    for template, operations in doc["paths"].items():
        for method, operation in operations.items():
            production = spec["paths"][template][method]
            if operation == production:
                continue
            key = f"{method.upper()} {template}"
            responses = {k: v for k, v in operation["responses"].items() if k != "409"}
            assert {**operation, "responses": responses} == production, key
            assert "409" not in production["responses"], key  # added, not replaced
            added.add(key)
    served = {f"{m.upper()} {t}" for t, ops in doc["paths"].items() for m in ops}
    assert added == set(EMULATOR_409S) & served
    assert doc["paths"].keys() <= spec["paths"].keys()
    assert doc["servers"] == [{"url": "http://fuzz/v1"}]

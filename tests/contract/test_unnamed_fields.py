"""docsync's request check catches a field production's schema does not name, wherever it is
in the body, whatever the emulator does with it (production ignores such a field:
tests/contract/conflicts.py, UNKNOWN_FIELDS); a name any of a choice's options declares, and a
key of a free map, is named."""

from __future__ import annotations

import json
from typing import Any

from tests.contract.checker import Contract
from tests.contract.document import require_spec


def _unnamed(method: str, path: str, body: Any, *, strict: bool = False) -> list[str]:
    checker = Contract(require_spec(), strict=strict)
    found = checker.check_request(method, path, [], json.dumps(body).encode())
    assert found is not None
    return [v.field for v in found if "not named" in v.message]


def test_a_field_production_does_not_name_is_a_violation() -> None:
    assert _unnamed("POST", "/v1/orgs/o/collections", {"title": "x", "color": "red"}) == ["color"]
    rules = {"mergeRules": {"type": "none", "extra": 1}}
    assert _unnamed("PATCH", "/v1/spaces/s", rules) == ["mergeRules.extra"]
    links = {"redirects": [{"source": "/a", "destination": None, "typo": True}]}
    assert _unnamed("PUT", "/v1/orgs/o/sites/s/redirects", links) == ["redirects.0.typo"]


def test_choices_and_free_maps_name_their_keys() -> None:
    assert _unnamed("PATCH", "/v1/spaces/s", {"emoji": "1f4d8", "icon": None}) == []
    configuration = {"configuration": {"any_key": 1, "nested": {"deep": True}}}
    assert _unnamed("PATCH", "/v1/integrations/ga/installations/i", configuration) == []
    headers = {"name": "m", "url": "https://m.example", "headers": {"X-Key": "v"}}
    assert _unnamed("POST", "/v1/orgs/o/sites/s/mcp-servers", headers) == []


def test_a_listed_conflict_is_named_for_the_description_alone() -> None:
    body = {"agentsContext": "included"}  # the description's field, production has none
    assert _unnamed("PATCH", "/v1/orgs/o/sites/s", body) == []
    assert _unnamed("PATCH", "/v1/orgs/o/sites/s", body, strict=True) == ["agentsContext"]

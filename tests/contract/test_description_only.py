"""docsync sends only production's operations: the description's own (the section-group
membership endpoints, §2.5) are served by the emulator but refused when docsync calls them."""

from __future__ import annotations

from tests.contract.plugin import _not_an_operation

MEMBERSHIP = "/v1/orgs/o/sites/s/section-groups/g/sections"


def test_a_request_docsync_sends_to_a_description_only_operation_is_refused() -> None:
    (found,) = _not_an_operation("POST", MEMBERSHIP)
    assert found.operation == f"POST {MEMBERSHIP}"
    assert "not an operation of the production contract" in found.message


def test_the_emulator_answering_a_listed_description_operation_is_fine() -> None:
    assert _not_an_operation("POST", MEMBERSHIP, 201) == []
    assert _not_an_operation("DELETE", f"{MEMBERSHIP}/x", 205) == []


def test_an_unlisted_operation_is_refused_on_both_sides() -> None:
    assert _not_an_operation("POST", "/v1/orgs/o/made-up", 200)
    assert _not_an_operation("POST", "/v1/orgs/o/made-up")

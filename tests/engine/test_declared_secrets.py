"""Every field a kind declares secret is found in what was read, on a resource or in a part read
with its parent, so that the client masks it wherever a server repeats it."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.core.state import LiveResource, LiveState
from docsync.engine.declared_secrets import declared_secrets
from docsync.kinds.catalogue import CATALOGUE
from docsync.kinds.declaration import Declaration, Field

SECRET_FIELDS = [
    (declared, field)
    for declared in CATALOGUE
    for field in declared.fields
    if field.sensitive or field.secret_text or field.secret_keys
]


def _value(field: Field, secret: str) -> Any:
    if field.secret_keys:
        return {field.secret_keys[0]: secret, "plain": "a plain value"}
    if field.secret_text:
        return {"apiKey": secret, "enabled": True}
    return secret


def _live_holding(declared: Declaration, item: dict[str, Any]) -> LiveState:
    """A live state in which `item` is read as this kind reads it: a resource of its own, or
    a part in a slot of its parent's item."""
    live = LiveState({"id": "org_1", "title": "Org"})
    if declared.part or declared.mapped:
        parent = declared.parents[0]
        raw = {"id": "p1", f"_{declared.section}": [item] if declared.mapped else item}
        live.add(LiveResource(parent, "p1", "P", f'{parent}["P"]', "P", {}, raw))
    else:
        live.add(LiveResource(declared.name, "r1", "R", f'{declared.name}["R"]', "R", item, item))
    return live


@pytest.mark.parametrize(
    ("declared", "field"), SECRET_FIELDS, ids=[f"{d.name}.{f.name}" for d, f in SECRET_FIELDS]
)
def test_a_secret_read_in_any_declared_field_is_found(declared: Declaration, field: Field) -> None:
    secret = f"read-secret-of-{declared.name}-{field.name}"
    found = declared_secrets(_live_holding(declared, {field.name: _value(field, secret)}))
    assert secret in found
    assert "a plain value" not in found  # the other keys of a mapping with secret keys
    assert "apiKey" not in found and "plain" not in found  # names are not secrets


def test_the_catalogue_declares_secrets_on_resources_and_on_parts() -> None:
    # The cases above cover both ways a secret is read: a kind of its own and a part.
    assert any(not (d.part or d.mapped) for d, _ in SECRET_FIELDS)
    assert any(d.part for d, _ in SECRET_FIELDS) and any(d.mapped for d, _ in SECRET_FIELDS)

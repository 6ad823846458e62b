"""Secrets by declaration, as read: every value the live state holds in a field a kind declares
secret (`Field.sensitive`, `secret_text`, `secret_keys`), on a resource or in a part read with it
(a site's publishing auth, an installation's sites), whichever kind read it. The client masks
them wherever a server repeats them, as it masks what the manifest sends (`LoadedManifest.
secrets`): a server's error may echo the stored record, the stored certificate included.

A kind that keeps a secret only as a digest (an MCP server's headers, a connection's token)
masks the value it read itself, before it digests it; what it keeps is harmless here."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from docsync.core.state import LiveState
from docsync.kinds.catalogue import CATALOGUE
from docsync.kinds.declaration import Declaration


def declared_secrets(live: LiveState) -> set[str]:
    """Every text the live state holds in a field declared secret."""
    found: set[str] = set()
    for resource in live.by_address.values():
        declared = CATALOGUE.by_name.get(resource.kind)
        if declared is None:
            continue
        found.update(_held(declared, resource.fields))
        for part in CATALOGUE.parts(resource.kind):
            slot = resource.raw.get(f"_{part.section}")
            for item in slot if isinstance(slot, list) else [slot]:
                if isinstance(item, dict):
                    found.update(_held(part, item))
    return found


def _held(declared: Declaration, values: dict[str, Any]) -> Iterator[str]:
    """The secret texts of one item: whole fields declared so, and the secret keys of others."""
    for field in declared.fields:
        value = values.get(field.name)
        if field.sensitive or field.secret_text:
            yield from _texts(value)
        elif field.secret_keys and isinstance(value, dict):
            for key in field.secret_keys:
                yield from _texts(value.get(key))


def _texts(value: Any) -> Iterator[str]:
    """The texts of a value, its mappings' values but not their keys (a header's name is not
    its secret)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)

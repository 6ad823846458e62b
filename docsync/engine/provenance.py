"""Secrets by provenance, whatever kind planned them: a value that holds the text of something the
manifest read with `env()` (or wrote in a field declared secret) is sensitive in every change
that shows it, and in the saved plan's fingerprint of the live resource that holds it; a note
that repeats one says `(sensitive)` instead. The kinds mark what they know to be secret at its
path; this is the one net under them, so that a kind that forgets (a field of a list part,
a leaf of a merged object) cannot print a secret."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from docsync.core.model import Action
from docsync.core.state import LiveState

SHOWN = "(sensitive)"


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)


def holds(value: Any, secrets: Collection[str]) -> bool:
    """Whether any text in `value` (keys included) contains one of `secrets`."""
    return any(secret in text for text in _texts(value) for secret in secrets)


def hide(actions: list[Action], secrets: Collection[str]) -> None:
    """Every change that would show a secret marked sensitive; secrets in notes replaced."""
    if not secrets:
        return
    longest = sorted(secrets, key=len, reverse=True)
    for action in actions:
        for change in action.changes:
            if not change.sensitive and holds([change.before, change.after], secrets):
                change.sensitive = True
        for index, note in enumerate(action.notes):
            for secret in longest:
                note = note.replace(secret, SHOWN)
            action.notes[index] = note


def holding(live: LiveState, secrets: Collection[str]) -> set[tuple[str, str]]:
    """The (address, field) of every live field that holds a secret of the manifest."""
    if not secrets:
        return set()
    return {
        (resource.address, name)
        for resource in live.by_address.values()
        for name, value in resource.fields.items()
        if holds(value, secrets)
    }

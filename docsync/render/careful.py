"""What puts an action under "Needs a careful look" in every rendering: it is destructive (by
its verb, or a loss its kind recorded: `Action.takes_away`), it changes who can read (audience)
or what runs (security), or a policy's `warn` rule matched it.

A policy's warning travels as a note of the action (`POLICY <rule>: <message>`), beside the
`AUDIENCE CHANGE:` and `SECURITY CHANGE:` notes the kinds write: a note is already shown under
its action in every format and kept by saved plans, so `docsync show` and the apply of a saved
plan see the same warnings as the plan that was reviewed."""

from __future__ import annotations

import re

from docsync.core.model import Action

_PREFIX = "POLICY "
_NOTE = re.compile(r"^POLICY ([A-Za-z0-9][A-Za-z0-9_.-]*): (.+)$", re.S)


def policy_note(rule: str, message: str) -> str:
    """The note a `warn` rule leaves on an action it matched."""
    return f"{_PREFIX}{rule}: {message}"


def policy_warnings(action: Action) -> list[tuple[str, str]]:
    """The (rule, message) of each `warn` rule that matched the action."""
    found = []
    for note in action.notes:
        matched = _NOTE.match(note)
        if matched is not None:
            found.append((matched.group(1), matched.group(2)))
    return found


def reasons(action: Action) -> list[str]:
    """Why the action needs a careful look, each said in a few words (none: it does not)."""
    found = []
    if action.destructive:
        found.append("destructive")
    if action.audience_change:
        found.append("audience change")
    if action.security_change:
        found.append("security change")
    found += [f"policy {rule}: {message}" for rule, message in policy_warnings(action)]
    return found


def needs_review(action: Action) -> bool:
    return (
        action.destructive
        or action.audience_change
        or action.security_change
        or any(note.startswith(_PREFIX) for note in action.notes)
    )

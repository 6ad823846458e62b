"""Production as it answers: what production sends and takes beyond its own document, each
behaviour seen, with where. The suite checks an emulator serving `--contract production`
against production's document with these amendments (and nothing else forgiven), so that what
the emulator answers there is what production answers; an emulator of the API description is
checked against the document as it is. docs/emulator.md ("Production as it answers") lists each
behaviour by its id, and `tests/contract/test_observed.py` holds the two together.

Behaviours that fit production's schemas (an empty `localizedTitle` on every section, a 409 to
a move that changes nothing, the wrapper section a site without sections gets) need no
amendment: they are listed in docs/emulator.md alone."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.contract.document import load_spec

Spec = dict[str, Any]


@dataclass(frozen=True)
class Observed:
    """One behaviour of production's that its document does not describe."""

    id: str
    what: str
    #: where it was seen
    seen: str
    #: how the document is amended to describe it
    amend: Callable[[Spec], None]


def _schema(spec: Spec, name: str) -> dict[str, Any]:
    found: dict[str, Any] = spec["components"]["schemas"][name]
    return found


def _legacy_git_sync(spec: Spec) -> None:
    _schema(spec, "GitSyncState")["required"] = ["installationProvider"]


def _customization_switches(spec: Spec) -> None:
    groups = _schema(spec, "SiteCustomizationSettingsBase")["properties"]
    flag = {"type": "boolean"}
    groups["pdf"] = {
        "type": "object",
        "properties": {"enabled": flag},
        "required": ["enabled"],
    }
    groups["git"] = {
        "type": "object",
        "properties": {"showEditLink": flag},
        "required": ["showEditLink"],
    }
    page_actions = groups["pageActions"]
    page_actions["properties"] |= {"externalAI": flag, "markdown": flag, "mcp": flag}
    page_actions["required"] = []


def _relative_location(spec: Spec) -> None:
    _schema(spec, "Space")["properties"]["urls"]["properties"]["location"].pop("format", None)


OBSERVED = (
    Observed(
        "legacy-git-sync",
        "a space synced through the older GitHub or GitLab integration answers `gitSync: "
        "{installationProvider, integration, url, updatedAt}`, without the `installationId` "
        "and `installationStatus` GitSyncState requires",
        "a real organization's spaces synced from GitHub; GitBook's own API reference shows "
        "the same object as its example of a Space",
        _legacy_git_sync,
    ),
    Observed(
        "customization-switches",
        "a site's customization answers `pdf: {enabled}`, `git: {showEditLink}` and "
        "`pageActions: {externalAI, markdown, mcp}` without `pageActions.items`, and its PUT "
        "takes them back",
        "a real organization's site customization (read, then written back by the app)",
        _customization_switches,
    ),
    Observed(
        "relative-location",
        "a space's `urls.location` is relative to the API (`/spaces/ID`), not the URI its "
        "document says (a format the contract fuzzer asserts)",
        "a real organization's spaces",
        _relative_location,
    ),
)


def as_production_answers(spec: Spec) -> Spec:
    """Production's document with every observed behaviour described."""
    amended = copy.deepcopy(spec)
    for behaviour in OBSERVED:
        behaviour.amend(amended)
    return amended


@functools.cache
def load_observed_spec() -> Spec | None:
    """The amended document, or None when production's is absent."""
    spec = load_spec()
    return None if spec is None else as_production_answers(spec)

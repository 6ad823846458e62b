"""The translations glossary planned without HTTP: entries matched by their term in
`keyLanguage`, the fewest batch operations, one action showing each entry that changes."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.kinds.content.glossary import Glossary, batch
from docsync.manifest import ManifestError
from docsync.render.elements import ABSENT, element_changes
from tests.core import plankit as k


def _live(*entries: tuple[str, dict[str, str]]) -> dict[str, Any]:
    return {"translations_glossary": [{"id": i, "translations": t} for i, t in entries]}


WORKSPACE = {"en": "Workspace", "fr": "Espace de travail"}

BATCHES = [
    # (wanted, live, operations)
    ([WORKSPACE], [], [{"type": "insert", "translations": WORKSPACE}]),
    ([WORKSPACE], [{"id": "g1", "translations": WORKSPACE}], []),
    (
        [WORKSPACE],
        [{"id": "g1", "translations": {"en": "Workspace", "fr": "Espace"}}],
        [{"type": "update", "id": "g1", "translations": WORKSPACE}],
    ),
    ([], [{"id": "g1", "translations": WORKSPACE}], [{"type": "delete", "id": "g1"}]),
    # a second live entry of one term, and one without the key's term, go
    (
        [WORKSPACE],
        [
            {"id": "g1", "translations": WORKSPACE},
            {"id": "g2", "translations": WORKSPACE},
            {"id": "g3", "translations": {"fr": "Sans clé"}},
        ],
        [{"type": "delete", "id": "g2"}, {"type": "delete", "id": "g3"}],
    ),
]


@pytest.mark.parametrize(("wanted", "live", "operations"), BATCHES)
def test_the_batch_has_the_fewest_operations(
    wanted: list[dict[str, str]], live: list[dict[str, Any]], operations: list[dict[str, Any]]
) -> None:
    assert batch("en", wanted, live) == operations


MANIFEST = """translationsGlossary:
  keyLanguage: en
  entries:
    - {en: Workspace, fr: Espace de travail, de: Arbeitsbereich}
    - {en: Site, fr: Site}
"""


def test_one_update_shows_each_entry_that_changes_by_its_term() -> None:
    live = _live(("g1", {"en": "Workspace", "fr": "Espace"}), ("g2", {"en": "Old"}))
    [action] = k.plan(MANIFEST, live).actions
    assert (action.verb, action.address) == ("update", "translationsGlossary")
    [change] = action.changes
    assert change.field == "entries"
    shown = {e.path: (e.before, e.after) for e in element_changes(change, "update") or []}
    assert shown == {
        "entries.Old": ({"en": "Old"}, ABSENT),
        "entries.Site": (ABSENT, {"en": "Site", "fr": "Site"}),
        "entries.Workspace.de": (ABSENT, "Arbeitsbereich"),
        "entries.Workspace.fr": ("Espace", "Espace de travail"),
    }
    assert action.notes == ['LOSS: deletes 1 entry ("Old"): translations no longer use its terms']
    assert action.loss
    assert isinstance(action.payload, Glossary) and action.payload.key == "en"


def test_a_glossary_as_written_plans_nothing_and_one_not_written_is_not_managed() -> None:
    live = _live(
        ("g1", {"en": "Workspace", "fr": "Espace de travail", "de": "Arbeitsbereich"}),
        ("g2", {"en": "Site", "fr": "Site"}),
    )
    assert k.plan(MANIFEST, live).actions == []
    assert k.plan("teams: []\n", live).actions == []


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ("[{fr: Sans clé}]", "entries[0] has no 'en' term"),
        ("[{en: Site}, {en: Site, fr: Site}]", "the term 'Site' is written twice"),
        ('[{en: "two\\nlines"}]', "translationsGlossary.entries[0].en: must be one line"),
        ("[{xx: Site}]", "translationsGlossary.entries[0].xx: not an allowed key"),
    ],
)
def test_validate_refuses_an_entry_production_or_the_plan_could_not_take(
    entries: str, message: str
) -> None:
    with pytest.raises(ManifestError, match=message.replace("[", r"\[").replace(".", r"\.")):
        k.load(f"translationsGlossary:\n  keyLanguage: en\n  entries: {entries}\n")

"""The net under every kind: a change or a note that holds the text of an env() value is
hidden, and a live field holding one is masked in the saved plan's fingerprint, whichever kind
planned it (a kind that forgets to mark its path still prints nothing)."""

from __future__ import annotations

from docsync.core.model import Action, FieldChange
from docsync.core.state import LiveResource, LiveState
from docsync.engine.provenance import hide, holding

SECRET = "s3cr3t-from-env"


def test_a_change_or_a_note_holding_a_secret_is_hidden() -> None:
    action = Action(
        "update",
        "site",
        'site["Docs"]',
        [
            FieldChange("url", "https://old.example", f"https://x.example/?k={SECRET}"),
            FieldChange("tree", {"deep": [{"key": SECRET}]}, None),
            FieldChange("title", "Docs", "Docs 2"),
        ],
        notes=[f"was {SECRET}!"],
    )
    hide([action], {SECRET})
    assert [c.sensitive for c in action.changes] == [True, True, False]
    assert action.notes == ["was (sensitive)!"]


def test_a_live_field_holding_a_secret_is_found_for_the_fingerprint() -> None:
    live = LiveState({"id": "org"})
    fields = {"description": f"about {SECRET}", "title": "Dev"}
    live.add(LiveResource("collection", "c1", "Dev", 'collection["Dev"]', "Dev", fields))
    assert holding(live, {SECRET}) == {('collection["Dev"]', "description")}
    assert holding(live, set()) == set()

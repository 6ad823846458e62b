"""How a declared field compares a live value with a written one (`Field.same`): what the
declaration says, so that no kind overrides its planning to compare otherwise."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.kinds.declaration import Field


def _faces(faces: list[dict[str, Any]]) -> list[tuple[Any, Any]]:
    """Font faces as compared: by weight and style; the file each names is never read back."""
    return sorted((face.get("weight"), face.get("style")) for face in faces)


FACES = Field("fontFaces", compared=_faces)
WRITTEN = [{"weight": 400, "style": "normal", "storageKey": "k/inter-400"}]
ANSWERED = [{"weight": 400, "style": "normal", "sources": [{"url": "https://cdn/x.woff2"}]}]

CASES: list[tuple[str, Field, Any, Any, bool]] = [
    ("equal values", Field("title"), "Docs", "Docs", True),
    ("different values", Field("title"), "Docs", "Guides", False),
    ("a write-only value the API never shows", Field("token", write_only=True), None, "t", True),
    ("a write-only value the API shows", Field("token", write_only=True), "t0", "t", False),
    ("an unordered list in another order", Field("tags", unordered=True), [1, 2], [2, 1], True),
    ("a list whose order counts", Field("tags"), [1, 2], [2, 1], False),
    ("the compared part equal, the rest written only", FACES, ANSWERED, WRITTEN, True),
    (
        "the compared part changed",
        FACES,
        ANSWERED,
        [{**WRITTEN[0], "weight": 700}],
        False,
    ),
    ("nothing live yet", FACES, None, WRITTEN, False),
]


@pytest.mark.parametrize(
    ("field", "before", "after", "same"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_field_compares_as_declared(field: Field, before: Any, after: Any, same: bool) -> None:
    assert field.same(before, after) is same


def test_what_is_compared_leaves_the_value_sent_whole() -> None:
    """`compared` reduces both sides for the comparison only: the written value is unchanged
    (where `normalize` would change what is sent too)."""
    written = [dict(face) for face in WRITTEN]
    FACES.same(ANSWERED, written)
    assert written == WRITTEN and FACES.normalize(written) == WRITTEN

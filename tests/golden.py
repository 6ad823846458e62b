"""Golden files: output compared byte for byte with a file kept beside the tests.

The one way to update them: run the tests with `DOCSYNC_UPDATE_GOLDEN=1` (for example
`DOCSYNC_UPDATE_GOLDEN=1 .venv/bin/pytest tests/gitops -n 0`), which writes every golden file
the run compares, missing ones included, then review the diff before committing it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from docsync.kinds.catalogue import CATALOGUE

UPDATE = "DOCSYNC_UPDATE_GOLDEN"

# Ids the emulator makes are 20 characters of [A-Za-z0-9]; seeded ids (u_ada, space_guides)
# have an underscore and are kept.
_ID = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z0-9]{20}(?![A-Za-z0-9_])")
#: what looks like an emulator's id and is not: a section's or a field's name
#: (`translationsGlossary`, `localizedDescription`)
_WORDS = frozenset(d.section for d in CATALOGUE) | {f.name for d in CATALOGUE for f in d.fields}
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z")
_VERSION = re.compile(r'"docsync_version": "[^"]*"')


def updating() -> bool:
    """Whether this run rewrites golden files instead of comparing with them."""
    return os.environ.get(UPDATE) == "1"


def stable(text: str) -> str:
    """What survives a rerun against the emulator: generated ids become <id-1>, <id-2>... in order
    of first appearance, timestamps <time>, the docsync version <version>."""
    seen: dict[str, str] = {}

    def name(match: re.Match[str]) -> str:
        if match.group(0) in _WORDS:
            return match.group(0)  # a manifest's section of twenty letters, not an id
        return seen.setdefault(match.group(0), f"<id-{len(seen) + 1}>")

    text = _VERSION.sub('"docsync_version": "<version>"', text)
    return _ID.sub(name, _TIME.sub("<time>", text))


def check_golden(path: Path, text: str) -> None:
    """`text` is exactly the content of the golden file `path` (rewritten under UPDATE=1)."""
    if updating():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"{path} is missing: create it with {UPDATE}=1, then review it"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{path} differs; review the change, then regenerate: {UPDATE}=1"


def golden_files(
    directory: Path, normalize: Callable[[str], str] = str
) -> Callable[[str, str], None]:
    """check(name, text): `normalize(text)` against the golden file `directory/name`."""

    def check(name: str, text: str) -> None:
        check_golden(directory / name, normalize(text))

    return check

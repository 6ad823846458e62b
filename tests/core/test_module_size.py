"""No module of docsync is over about 400 lines: a module holds one concept, and a longer one
holds more than one (docs/architecture.md). A concept is never split to fit the number."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "docsync"
MAXIMUM = 400


def sizes() -> dict[str, int]:
    """Lines of every module of the package, by path from the repository's root."""
    return {
        str(path.relative_to(PACKAGE.parent)): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def test_no_module_is_over_400_lines() -> None:
    found = sizes()
    assert len(found) > 100  # the walk reads the package (an empty one passes nothing)
    over = {path: lines for path, lines in found.items() if lines > MAXIMUM}
    listed = "\n".join(f"  {path}: {lines} lines" for path, lines in sorted(over.items()))
    assert not over, f"modules over {MAXIMUM} lines (each holds more than one concept):\n{listed}"

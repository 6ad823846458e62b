"""A kind is named in its own module only: outside `docsync/kinds/`, what a kind adds (offline
checks, addresses, rendering, the lockout rail, the dependency graph, the wire) comes through
the catalogue, never by a kind's name or an import of its module. (The emulator stands apart:
it mirrors the API, not docsync's kinds.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from docsync.kinds.catalogue import CATALOGUE

PACKAGE = Path(__file__).resolve().parents[2] / "docsync"
#: what any module may import of the kinds: the catalogue and what every kind shares
SHARED = {
    "docsync.kinds",
    "docsync.kinds.catalogue",
    "docsync.kinds.declaration",
    "docsync.kinds.kind",
    "docsync.kinds.requests",
}
NAMES = {d.name for d in CATALOGUE} | {d.section for d in CATALOGUE}
OUTSIDE = sorted(
    path
    for path in PACKAGE.rglob("*.py")
    if path.relative_to(PACKAGE).parts[0] not in ("kinds", "emulator")
)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _is_module(name: str) -> bool:
    """A kind's module or family package (`from docsync.kinds import organization`)."""
    return (PACKAGE / "kinds" / f"{name}.py").exists() or (PACKAGE / "kinds" / name).is_dir()


def _kind_module(name: str) -> bool:
    return name.startswith("docsync.kinds.") and name not in SHARED


def kind_names(source: str) -> list[str]:
    """Where a module names a kind: an import of a kind's module, or a kind's name or section
    as a string (docstrings aside)."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value in NAMES and id(node) not in docs:
                found.append(f"line {node.lineno}: {node.value!r}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
            if node.module == "docsync.kinds":  # `from docsync.kinds import organization`
                modules += [f"docsync.kinds.{a.name}" for a in node.names if _is_module(a.name)]
            found += [f"line {node.lineno}: imports {m}" for m in modules if _kind_module(m)]
        elif isinstance(node, ast.Import):
            found += [
                f"line {node.lineno}: imports {a.name}" for a in node.names if _kind_module(a.name)
            ]
    return found


@pytest.mark.parametrize("path", OUTSIDE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_kind_is_named_outside_its_module(path: Path) -> None:
    assert kind_names(path.read_text("utf-8")) == []


def test_the_check_sees_a_name_and_an_import() -> None:
    source = '"""team"""\nfrom docsync.kinds.organization.teams import TeamKind\nkind = "team"\n'
    assert kind_names(source) == [
        "line 2: imports docsync.kinds.organization.teams",
        "line 3: 'team'",
    ]
    assert kind_names("from docsync.kinds import organization\n") == [
        "line 1: imports docsync.kinds.organization"
    ]
    assert kind_names("from docsync.kinds.catalogue import CATALOGUE\n") == []

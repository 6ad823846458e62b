"""The import graph between docsync's packages: arrows point down, and the core stands alone.

Imports are read from the source, every one of them: module level, inside functions (lazy
imports) and under `if TYPE_CHECKING:` (a type named from above is a dependency on what is
above, even if it never runs). Neither packages nor modules import each other in a circle."""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from docsync.kinds import FRAMEWORK_PACKAGES

PACKAGE = Path(__file__).resolve().parents[2] / "docsync"


def _package(module: str) -> str:
    """`docsync.kinds.sites.site` -> `kinds`; a top-level module is its own package (`export`)."""
    parts = [p for p in module.split(".") if p != "__init__"]
    return parts[1] if len(parts) > 1 else "docsync"


def _imports(tree: ast.AST) -> list[str]:
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
            found.extend(f"{node.module}.{alias.name}" for alias in node.names)
    return found


@dataclass(frozen=True)
class _Source:
    """What the tests here read of a source file: its imports, and the lines of its late ones."""

    imports: tuple[str, ...]
    late: tuple[int, ...]


@cache
def _read(path: Path) -> _Source:
    """A source file parsed once for every test here (each reads them all); only what they read
    is kept, never the syntax tree, which would stay in the worker for the rest of the suite
    (about 170,000 nodes for the cycle collector to walk at each of its full collections)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return _Source(tuple(_imports(tree)), tuple(_late_imports(tree)))


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def module_graph() -> dict[str, set[str]]:
    """module -> the other docsync modules it imports (a package's own `__init__` aside, which
    its modules import as they load)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = _read(path).imports
        graph[name] = {
            t for t in targets if t in modules and t != name and not name.startswith(f"{t}.")
        }
    return graph


def package_graph() -> dict[str, set[str]]:
    """package -> the other docsync packages it imports at run time."""
    graph: dict[str, set[str]] = defaultdict(set)
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        own = _package(".".join(relative.parts))
        graph[own]
        for name in _read(path).imports:
            if not name.startswith("docsync.") or name.count(".") < 1:
                continue
            target = _package(name)
            submodule = PACKAGE / name.split(".")[1]
            if target != own and (submodule.is_dir() or submodule.with_suffix(".py").exists()):
                graph[own].add(target)
    return graph


def test_the_core_imports_nothing_above_it() -> None:
    assert package_graph()["core"] <= {"errors"}


def test_render_manifest_and_kinds_stay_below_the_engine() -> None:
    graph = package_graph()
    # The kinds' declarations (and entry models) live in their modules: the manifest and the
    # renderers read them there; the kinds themselves never read a manifest file or render.
    assert graph["render"] <= {"core", "kinds", "errors", "docsync"}
    assert graph["manifest"] <= {"core", "kinds", "errors"}
    assert not graph["kinds"] & {"engine", "render", "cli", "export", "emulator", "manifest"}


def test_the_emulator_shares_no_code_with_the_client_side() -> None:
    graph = package_graph()
    assert not graph["emulator"] & {"core", "kinds", "engine", "manifest", "api", "render"}


def test_no_package_cycle() -> None:
    graph = package_graph()
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        raise AssertionError(f"a cycle between packages: {' -> '.join(error.args[1])}") from None


def test_no_module_cycle() -> None:
    try:
        TopologicalSorter(module_graph()).prepare()
    except CycleError as error:
        raise AssertionError(f"modules import each other: {' -> '.join(error.args[1])}") from None


#: The standard library's modules a kind or the core may import when first used, and why:
#: none is part of docsync's import graph, and each is a cost the offline commands never need.
DEFERRED = {"asyncio": "validate never awaits, and importing it costs about 15 ms of its start"}


def _late_imports(tree: ast.Module) -> list[int]:
    """Lines of imports that run after the module has loaded (inside a function or a class),
    and of `import_module` or `__import__` calls: both hide an edge of the import graph; a
    `DEFERRED` module of the standard library, imported alone, is no edge of it."""
    at_load = {
        id(node)
        for top in tree.body
        if isinstance(top, ast.Import | ast.ImportFrom | ast.If)
        for node in ast.walk(top)
    }
    found = []
    for node in ast.walk(tree):
        deferred = isinstance(node, ast.Import) and all(n.name in DEFERRED for n in node.names)
        if (
            isinstance(node, ast.Import | ast.ImportFrom)
            and id(node) not in at_load
            and not deferred
        ):
            found.append(node.lineno)
        elif isinstance(node, ast.Name | ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name in ("import_module", "__import__"):
                found.append(node.lineno)
    return found


def test_the_kinds_and_the_core_import_at_load_time_only() -> None:
    """What a kind or the core needs is imported where the module starts (the catalogue is
    handed to the kinds, never looked up from inside them), so the graph above is whole."""
    late = {
        str(path.relative_to(PACKAGE)): lines
        for package in ("kinds", "core")
        for path in sorted((PACKAGE / package).rglob("*.py"))
        if (lines := list(_read(path).late))
    }
    assert not late, f"imports inside functions, or import_module: {late}"


def test_the_check_sees_a_late_import() -> None:
    source = "import os\ndef f():\n    from x import y\n    importlib.import_module('z')\n"
    assert _late_imports(ast.parse(source)) == [3, 4]
    deferred = "def f():\n    import asyncio\n    import asyncio, os\n    from asyncio import run\n"
    assert _late_imports(ast.parse(deferred)) == [3, 4]


def family_graph() -> dict[str, set[str]]:
    """family -> the other families of `docsync/kinds` it imports (the framework's modules and
    packages, `FRAMEWORK_PACKAGES`, are one family; the catalogue and its registry, which
    gather every kind, stand above them all)."""
    root = PACKAGE / "kinds"

    def family(name: str) -> str:
        framework = not (root / name).is_dir() or name in FRAMEWORK_PACKAGES
        return "framework" if framework else name

    graph: dict[str, set[str]] = defaultdict(set)
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).parts
        if parts[0] in ("catalogue.py", "registry.py", "__init__.py"):
            continue
        own = family(parts[0])
        graph[own]
        for name in _read(path).imports:
            pieces = name.split(".")
            if pieces[:2] != ["docsync", "kinds"] or len(pieces) < 3:
                continue
            target = family(pieces[2])
            if target in ("catalogue", "registry"):
                graph[own].add("catalogue")
            elif target != own:
                graph[own].add(target)
    return graph


def test_the_kinds_families_import_each_other_without_a_circle_and_never_the_catalogue() -> None:
    graph = family_graph()
    assert len(graph) >= 7, sorted(graph)  # the walk reads the families
    assert not any("catalogue" in targets for targets in graph.values()), graph
    assert graph["framework"] == set(), "the framework names no family"
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        raise AssertionError(f"families in a circle: {' -> '.join(error.args[1])}") from None

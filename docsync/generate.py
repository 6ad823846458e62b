"""Everything generated from the kinds' declarations, written anew by one command:

    bash scripts/generate

- `docsync/kinds/registry.py`: the kinds' classes, found in the family packages;
- `schemas/manifest.schema.json` and `schemas/plan.schema.json`;
- the generated tables of docs/manifest.md (`docsync.manifest.reference`), of
  docs/architecture.md (the order of kinds, the hooks a kind may override), of docs/usage.md
  (the role each kind needs) and docs/contributing.md's layout of the code.

Each has a test that fails when the committed file differs from what this writes, so a new kind
is complete when `bash scripts/generate` leaves nothing to commit. This module is the one place
that finds kinds by walking the package (`importlib`); the catalogue imports the registry.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REGISTRY = ROOT / "docsync" / "kinds" / "registry.py"
ARCHITECTURE_PAGE = "docs/architecture.md"
USAGE_PAGE = "docs/usage.md"
CONTRIBUTING_PAGE = "docs/contributing.md"


def kind_classes() -> list[type]:
    """Every class of the family packages that is a kind: a `Kind` subclass with its own
    `declaration`, defined in the module that holds it."""
    from docsync.kinds.kind import Kind

    package = importlib.import_module("docsync.kinds")
    found: list[type] = []
    for info in pkgutil.walk_packages(package.__path__, "docsync.kinds."):
        if info.name == "docsync.kinds.registry":
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            own = isinstance(value, type) and value.__module__ == module.__name__
            if own and issubclass(value, Kind) and "declaration" in vars(value):
                found.append(value)
    return found


@dataclass(frozen=True)
class HookRow:
    """One hook as docs/architecture.md's table shows it, read off its docstring."""

    hook: str
    question: str
    asked_by: str
    returns: str
    default: str
    #: what it is asked with, as its framework class gives it (`(desired, live, ctx)`)
    asked_with: str = ""


def _part(text: str, label: str) -> str:
    found = re.search(rf"{label}:\s*(.*?)(?=\s+(?:Asked by|Returns|Default):|$)", text, re.S)
    return " ".join(found.group(1).split()) if found else ""


def _row(framework: type, name: str) -> HookRow:
    """A hook's row, from the first class of `framework`'s ancestry documenting it."""
    given = inspect.signature(getattr(framework, name)).parameters
    asked_with = "(" + ", ".join(p for p in given if p != "self") + ")"
    for cls in framework.__mro__:
        member = vars(cls).get(name)
        doc = inspect.getdoc(member) if member is not None else None
        if doc and "Asked by:" in doc:
            question = " ".join(doc.split("\n\n", 1)[0].split())
            rest = doc.split("\n\n", 1)[1] if "\n\n" in doc else ""
            asked, returns = _part(rest, "Asked by"), _part(rest, "Returns")
            return HookRow(name, question, asked, returns, _part(rest, "Default"), asked_with)
    return HookRow(name, "", "", "", "", asked_with)


def framework_classes() -> list[type]:
    """The classes kinds are made from: a `Kind` below some kind, declaring none itself."""
    from docsync.kinds.kind import Kind

    found: dict[str, type] = {}
    for cls in kind_classes():
        for base in cls.__mro__:
            if (
                isinstance(base, type)
                and issubclass(base, Kind)
                and "declaration" not in vars(base)
            ):
                found[base.__qualname__] = base
    return sorted(found.values(), key=lambda c: len(c.__mro__))


def hook_names() -> tuple[str, ...]:
    """Every hook name of the framework, in the order of the first framework class opening it."""
    found: dict[str, None] = {}
    for framework in framework_classes():
        found |= dict.fromkeys(framework.HOOKS)  # type: ignore[attr-defined]
    return tuple(found)


def hook_rows() -> dict[str, list[HookRow]]:
    """Each distinct set of hooks as documented and asked, named by the framework classes that
    open it (a part's `plan` is asked with other things than a top-level kind's)."""
    groups: dict[tuple[HookRow, ...], list[str]] = {}
    for framework in framework_classes():
        hooks: tuple[str, ...] = framework.HOOKS  # type: ignore[attr-defined]
        rows = tuple(_row(framework, h) for h in hooks)
        groups.setdefault(rows, []).append(framework.__qualname__)
    return {", ".join(f"`{name}`" for name in names): list(rows) for rows, names in groups.items()}


def hook_tables() -> str:
    """docs/architecture.md's tables of the hooks a kind may override, per framework class."""
    names = hook_names()
    out = [
        f"{len(names)} hook names in the whole framework: "
        + ", ".join(f"`{name}`" for name in names)
        + ".\n"
    ]
    for frameworks, rows in hook_rows().items():
        out.append(f"**{frameworks}** ({len(rows)} hooks)\n")
        out.append("| hook | the question it answers | asked with | asked by | returns | default |")
        out.append("|---|---|---|---|---|---|")
        for row in rows:
            cells = (
                f"`{row.hook}`",
                row.question,
                f"`{row.asked_with}`",
                row.asked_by,
                row.returns,
                row.default,
            )
            out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        out.append("")
    return "\n".join(out)


def order_table() -> str:
    """docs/architecture.md's order of kinds: what every plan, export and listing follows."""
    from docsync.kinds.catalogue import CATALOGUE, ORDER

    rows = [
        "| # | kind | written as | after (depends on) | rank in `ORDER` |",
        "|---|---|---|---|---|",
    ]
    for index, declared in enumerate(CATALOGUE, 1):
        where = ".".join(
            (*(CATALOGUE.named(p).section for p in declared.parents[:1]), declared.section)
        )
        after = sorted(declared.depends_on)
        rank = str(ORDER.index(declared.name) + 1) if declared.name in ORDER else "not named"
        deps = ", ".join(f"`{d}`" for d in after) or "-"
        rows.append(f"| {index} | `{declared.name}` | `{where}` | {deps} | {rank} |")
    return "\n".join(rows) + "\n"


def roles_table() -> str:
    """docs/usage.md's roles: what a token's role must be to plan and to apply each kind that
    says it, with the kinds written in its entries that say none (its parts, its children)."""
    from docsync.kinds.catalogue import CATALOGUE

    def within(name: str) -> tuple[str, tuple[str, ...]]:
        """The kind saying the roles of `name`, and the sections from it down to `name`."""
        declared = CATALOGUE.named(name)
        if declared.roles or not declared.parents:
            return name, ()
        sayer, path = min((within(p) for p in declared.parents), key=lambda found: len(found[1]))
        return sayer, (*path, declared.section)

    rows = ["| kind (manifest) | plan, export | apply |", "|---|---|---|"]
    for declared in CATALOGUE:
        if not declared.roles:
            continue
        where = ", ".join(f"`{CATALOGUE.named(p).section}`" for p in declared.parents)
        shown = f"`{declared.section}`" + (f" (in {where})" if where else "")
        under = [
            ".".join(path)
            for sayer, path in (within(d.name) for d in CATALOGUE)
            if sayer == declared.name and path
        ]
        shown += f", and in each: {', '.join(f'`{s}`' for s in under)}" if under else ""
        rows.append(f"| {shown} | {' | '.join(declared.roles)} |")
    return "\n".join(rows) + "\n"


#: what the repository holds beside the package, for docs/contributing.md's layout (the files
#: every repository has, README and the like, aside): a test fails on an entry not here
REPOSITORY = {
    ".ci/": "what CI runs: `bash scripts/test`, exactly",
    ".pre-commit-hooks.yaml": "docsync validate as a pre-commit hook",
    "action.yml": "the GitHub Action (a composite action: installs docsync from its own commit)",
    "docs/": "the user's and the contributor's documents",
    "examples/": (
        "acme/ (an organization), environments/ (one set for staging and production), "
        "policies/ (rules on plans), ci/ (the GitHub Actions workflow), multilingual/ (a site "
        "shaped as a real one), rich/ (every kind, in stages: the soak's and the property "
        "tests' organization), and the emulator's seeds"
    ),
    "schemas/": "manifest.schema.json and plan.schema.json, written by `bash scripts/generate`",
    "scripts/": "test, generate, demo, the benchmarks, the soak, the fuzzer, the pinned inputs",
    "tests/": (
        "unit, golden, property and end-to-end tests (real HTTP on loopback), by package; the "
        "end-to-end tests share one kit (tests/kit.py), golden files tests/golden.py "
        "(DOCSYNC_UPDATE_GOLDEN=1 rewrites them)"
    ),
}
#: the files every repository has, which the layout leaves out
USUAL = {".gitignore", "CHANGELOG.md", "README.md", "pyproject.toml"}


def _said(path: Path) -> str:
    """The first sentence of a module's (or a package's `__init__`) docstring."""
    module = path / "__init__.py" if path.is_dir() else path
    found = ast.get_docstring(ast.parse(module.read_text("utf-8"))) or ""
    first = " ".join(found.split("\n\n", 1)[0].split())
    sentence = re.split(r"(?<=[.!?])\s", first, maxsplit=1)[0].rstrip(":.")
    clause = re.split(r": |; ", sentence, maxsplit=1)[0]
    return clause if len(clause) >= 12 else sentence


def _line(name: str, depth: int, what: str) -> list[str]:
    """A layout line, `what` wrapped under its column."""
    head = f"{'  ' * depth}{name}".ljust(24)
    lines = textwrap.wrap(what, 100, initial_indent=head, subsequent_indent=" " * 24)
    return lines or [head.rstrip()]


def layout() -> str:
    """docs/contributing.md's layout: the package's packages (and the kinds' framework modules
    and families) and modules, each with the first sentence of its docstring, then what the
    repository holds beside it."""
    package = ROOT / "docsync"
    lines = _line("docsync/", 0, _said(package))

    def walk(directory: Path, depth: int) -> None:
        inside = sorted(directory.iterdir())
        for path in [p for p in inside if (p / "__init__.py").exists()]:
            lines.extend(_line(f"{path.name}/", depth, _said(path)))
            walk(path, depth + 1)
        if directory in (package, package / "kinds"):
            for path in [p for p in inside if p.suffix == ".py" and p.name != "__init__.py"]:
                lines.extend(_line(path.name, depth, _said(path)))

    walk(package, 1)
    for name, what in REPOSITORY.items():
        lines.extend(_line(name, 0, what))
    return "```\n" + "\n".join(lines) + "\n```\n"


#: the generated blocks of each document, by block name
PAGES: dict[str, dict[str, Any]] = {
    ARCHITECTURE_PAGE: {"kind-order": order_table, "kind-hooks": hook_tables},
    USAGE_PAGE: {"kind-roles": roles_table},
    CONTRIBUTING_PAGE: {"layout": layout},
}


def generated(page: str, text: str) -> str:
    """A document (`page`, from the repository's root) with its generated blocks written anew."""
    from docsync.manifest.reference import BLOCK

    def fill(match: re.Match[str]) -> str:
        return f"{match.group(1)}{PAGES[page][match['name']]()}{match.group(4)}"

    return BLOCK.sub(fill, text)


def architecture(page: str) -> str:
    """docs/architecture.md with its generated blocks written anew."""
    return generated(ARCHITECTURE_PAGE, page)


def registry() -> str:
    from docsync.kinds.catalogue import registry_source

    return registry_source(kind_classes())


def main(argv: list[str]) -> int:
    """`registry`: write the registry alone (what the catalogue then loads is read from it, so
    the rest runs in a process of its own); otherwise what is derived from the catalogue."""
    if argv == ["registry"]:
        REGISTRY.write_text(registry(), "utf-8")
        print(f"wrote {REGISTRY.relative_to(ROOT)}")
        return 0
    from docsync.cli.schema import SCHEMAS, schema_text
    from docsync.manifest import reference

    for name, build in SCHEMAS.items():
        target = ROOT / "schemas" / f"{name}.schema.json"
        target.write_text(schema_text(build()), "utf-8")
        print(f"wrote {target.relative_to(ROOT)}")
    path = ROOT / "docs/manifest.md"
    path.write_text(reference.regenerate(path.read_text("utf-8")), "utf-8")
    print("wrote docs/manifest.md")
    for page in PAGES:
        path = ROOT / page
        path.write_text(generated(page, path.read_text("utf-8")), "utf-8")
        print(f"wrote {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

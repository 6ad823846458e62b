"""Everything generated from the kinds' declarations, written anew by one command:

    bash scripts/generate

- `docsync/kinds/registry.py`: the kinds' classes, found in the family packages;
- `schemas/manifest.schema.json` and `schemas/plan.schema.json`;
- the generated tables of docs/manifest.md (`docsync.manifest.reference`) and of
  docs/architecture.md (the order of kinds, the hooks a kind may override).

Each has a test that fails when the committed file differs from what this writes, so a new kind
is complete when `bash scripts/generate` leaves nothing to commit. This module is the one place
that finds kinds by walking the package (`importlib`); the catalogue imports the registry.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REGISTRY = ROOT / "docsync" / "kinds" / "registry.py"


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
    for page in ("docs/manifest.md",):
        path = ROOT / page
        path.write_text(reference.regenerate(path.read_text("utf-8")), "utf-8")
        print(f"wrote {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

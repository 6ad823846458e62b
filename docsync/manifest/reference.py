"""The tables of docs/manifest.md that the kinds' declarations and models determine: the
sections that merge by concatenation, each list's natural key, what `prune` names, and where
`null` may be written. They are generated, never kept by hand, so that a new kind or field
shows up in the reference the day it is declared:

    python -m docsync.manifest.reference docs/manifest.md     # rewrite the generated blocks

A block sits between `<!-- generated: NAME -->` and `<!-- end generated -->`;
`tests/manifest/test_manifest_reference.py` fails when the committed page differs from what
this writes."""

from __future__ import annotations

import re
import sys
import types
import typing
from collections.abc import Callable, Iterator
from pathlib import Path

from pydantic import BaseModel

from docsync.core.nullability import nullable
from docsync.kinds.catalogue import CATALOGUE, entry_model
from docsync.kinds.declaration import Declaration

BLOCK = re.compile(
    r"(<!-- generated: (?P<name>[a-z-]+) -->\n)(?P<body>.*?)(<!-- end generated -->)", re.DOTALL
)


def _code(names: typing.Iterable[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


#: How the manifest's own keys merge (`docsync/manifest/merge.py`); the kinds' follow.
_OWN_KEYS = (
    ("organization", "must be given at least once; files that give it must agree"),
    ("prune", "union (of kinds, or of patterns per kind)"),
    ("safety", "set in one file only"),
    ("policies", "concatenated in file order; a rule's name is its own across the files"),
)


def merged_sections() -> str:
    """How each top-level key merges: the manifest's own, then the kinds' (a singleton's
    entry field by field, the lists concatenated)."""
    rows = "".join(f"| `{key}` | {rule} |\n" for key, rule in _OWN_KEYS)
    singles = [d.section for d in CATALOGUE.top if d.singleton]
    rows += f"| {_code(singles)} | merged field by field; a field set in two files is an error "
    rows += "naming both places |\n"
    lists = f"| {_code(d.section for d in CATALOGUE.lists)} | concatenated in file order |\n"
    return f"| top-level key | merge rule |\n|---|---|\n{rows}{lists}"


def _where(declared: Declaration) -> str:
    """`sections (in a site)`, `site spaces (in a section, or in a site without sections)`."""
    if not declared.parents:
        return declared.section
    first, *others = (CATALOGUE.named(p) for p in declared.parents)
    where = f"in a {first.noun}"
    for other in others:
        where += f", or in a {other.noun} without {first.plural}"
    return f"{declared.plural} ({where})"


def _key(declared: Declaration) -> str:
    text = f"`{declared.key}`"
    if declared.key_folds_case:
        text += " (compared case-insensitively)"
    if declared.scope:
        text += f" within the same `{declared.scope}`"
    if declared.alt_key:
        text += f", or {' and '.join(f'`{f}`' for f in declared.alt_key)}"
    if declared.key_note:
        text += f"{declared.key_note}"
    if declared.renames:
        text += "; renamed in place with `was:`"
    return text


def natural_keys() -> str:
    """Each list's natural key, top-level lists first, then the lists nested in them."""
    lists = [d for d in CATALOGUE if not d.singleton and not d.mapped]
    ordered = [d for d in lists if not d.nested] + [d for d in lists if d.nested]
    rows = "".join(f"| {_where(d)} | {_key(d)} |\n" for d in ordered)
    return f"| section | natural key |\n|---|---|\n{rows}"


def prune_names() -> str:
    lists = CATALOGUE.lists
    kept = " and ".join(f"`{d.section}`" for d in lists if not d.prunable)
    prunable = _code(d.section for d in lists if d.prunable)
    return (
        f"A list of section names ({prunable}) whose live resources that match no entry are "
        f"deleted. {kept} are never deleted without an explicit `state: absent` entry: "
        "`validate` refuses them in `prune`.\n"
    )


def _models_in(annotation: object, item: str = "") -> Iterator[tuple[type[BaseModel], str]]:
    """The models an annotation holds (`Model | None`, `list[Model]`, `Annotated[...]`), each
    with `[]` when it is an item of a list."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation, item
        return
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated or origin in (typing.Union, types.UnionType, list, dict):
        for arg in typing.get_args(annotation):
            yield from _models_in(arg, "[]" if origin is list else item)


def _nullable_fields(model: type[BaseModel], prefix: str, seen: set[type]) -> list[str]:
    """The fields of `model`, and of the models inside it, that take `null`; not those of the
    lists of nested kinds in an entry, which are listed under their own kind."""
    if model in seen:
        return []
    seen = seen | {model}
    nested_sections = {d.section for d in CATALOGUE if d.nested and not (d.mapped or d.part)}
    out = []
    for name, field in model.model_fields.items():
        if nullable(model, name):
            out.append(f"{prefix}{name}")
        if name in nested_sections and not prefix:
            continue
        for inner, item in _models_in(field.annotation):
            out += _nullable_fields(inner, f"{prefix}{name}{item}.", seen)
    return out


def null_fields() -> str:
    """Where `null` may be written, kind by kind (the NULL markers of the entry models)."""
    rows = []
    for declared in CATALOGUE:
        if declared.mapped or declared.part:
            continue  # a part's fields are its parent's, walked with it
        names = _nullable_fields(entry_model(declared.name), "", set())
        if names:
            rows.append(f"| {_where(declared)} | {_code(names)} |\n")
    return f"| section | fields that take `null` |\n|---|---|\n{''.join(rows)}"


GENERATORS: dict[str, Callable[[], str]] = {
    "merged-sections": merged_sections,
    "natural-keys": natural_keys,
    "prune-names": prune_names,
    "null-fields": null_fields,
}


def regenerate(page: str) -> str:
    """The page with every generated block written anew; an unknown block name is a bug."""

    def fill(match: re.Match[str]) -> str:
        body = GENERATORS[match["name"]]()
        return f"{match.group(1)}{body}{match.group(4)}"

    return BLOCK.sub(fill, page)


def main(argv: list[str]) -> int:
    for name in argv or ["docs/manifest.md"]:
        path = Path(name)
        path.write_text(regenerate(path.read_text("utf-8")), "utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

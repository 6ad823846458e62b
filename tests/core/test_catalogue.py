"""Every table derived from the kinds' declarations covers every kind: forgetting one is a
failing test here, not a KeyError on every `validate`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, get_args

import pytest
from pydantic import BaseModel

import docsync.kinds as kinds_package
from docsync.export import FILES
from docsync.generate import REGISTRY, kind_classes, registry
from docsync.kinds import FRAMEWORK_PACKAGES, KINDS, kind_named
from docsync.kinds.catalogue import CATALOGUE
from docsync.kinds.catalogue import entry_model as entry_model_of
from docsync.kinds.declaration import Catalogue, Declaration, Field, dependency_order
from docsync.manifest.context import CheckContext
from docsync.manifest.models import SECTIONS, Manifest
from docsync.manifest.references import check_references
from docsync.manifest.schema import manifest_schema
from docsync.manifest.yamlpos import SourceMap

DECLARED = [pytest.param(d, id=d.name) for d in CATALOGUE]


def entry_model(declared: Declaration) -> type[BaseModel]:
    """The manifest model of a kind's entries: its field in Manifest, or in its parent's entry."""
    holder: type[BaseModel] = (
        entry_model(CATALOGUE.named(declared.parents[0])) if declared.nested else Manifest
    )
    annotation = holder.model_fields[declared.section].annotation
    for arg in (annotation, *get_args(annotation)):
        for inner in (arg, *get_args(arg)):
            if isinstance(inner, type) and issubclass(inner, BaseModel):
                return inner
    raise AssertionError(f"{declared.section} holds no entry model")


def test_every_declaration_has_one_registered_kind_in_order() -> None:
    assert [k.name for k in KINDS] == [d.name for d in CATALOGUE]
    assert all(k.declaration is CATALOGUE.named(k.name) for k in KINDS)


@pytest.mark.parametrize("declared", DECLARED)
def test_the_manifest_model_holds_the_kind_its_key_and_its_fields(declared: Declaration) -> None:
    model = entry_model(declared)
    if declared.mapped:
        # A mapping its parents declare (`permissions: {teams: {NAME: ROLE}}`): keyed by the
        # mapping's keys, in the declared model (a site's may refine it), no list added.
        assert issubclass(model, declared.entry or BaseModel)
        for parent in declared.parents:
            held = entry_model_of(parent).model_fields[declared.section].annotation
            models = [a for a in get_args(held) if isinstance(a, type)]
            assert any(issubclass(m, declared.entry or BaseModel) for m in models), parent
        return
    assert declared.singleton or declared.key in model.model_fields
    for f in declared.fields:
        assert f.name in model.model_fields, f"{declared.name}.{f.name}"
    for parent in declared.parents:
        assert declared.section in entry_model(CATALOGUE.named(parent)).model_fields


def test_prune_names_schema_and_export_cover_every_top_level_kind() -> None:
    lists = [d.section for d in CATALOGUE.lists]
    assert list(SECTIONS) == lists
    as_list, as_map = manifest_schema()["properties"]["prune"]["oneOf"]
    assert as_list["items"]["enum"] == lists
    assert as_map["propertyNames"]["enum"] == lists
    exported = [section for sections in FILES.values() for section in sections]
    assert sorted(exported) == sorted(d.section for d in CATALOGUE.top)


def test_sensitive_paths_reach_nested_kinds() -> None:
    catalogue = Catalogue(
        Declaration("site", "sites", "site", "title"),
        Declaration("section", "sections", "section", "title", parents=("site",)),
        Declaration(
            "link",
            "links",
            "link",
            "title",
            parents=("section", "site"),
            fields=(Field("token", sensitive=True),),
        ),
    )
    assert catalogue.sensitive_paths() == [
        ("sites", "*", "sections", "*", "links", "*", "token"),
        ("sites", "*", "links", "*", "token"),
    ]
    assert ("saml", "*", "certificate") in CATALOGUE.sensitive_paths()


@pytest.mark.parametrize("declared", DECLARED)
def test_a_kind_lives_in_one_module_with_its_entry_model(declared: Declaration) -> None:
    kind = kind_named(declared.name)
    if declared.entry is None and declared.part:
        return  # free-form fields its parent declares (a site's customization)
    assert declared.entry is not None, f"{declared.name} declares no entry model"
    assert declared.entry.__module__ == type(kind).__module__
    assert vars(sys.modules[type(kind).__module__])[declared.entry.__name__] is declared.entry


def _kind(name: str, rank: int, *depends: str) -> Declaration:
    del rank  # the order table below says it
    return Declaration(name, f"{name}s", name, "title", needs=depends)


def _table(declared: list[tuple[Any, ...]]) -> list[str]:
    """The order table of (name, rank, ...) specs: by rank, then name."""
    return [spec[0] for spec in sorted(declared, key=lambda spec: (spec[1], spec[0]))]


ORDERS = [
    # (declarations as (name, order, depends...), expected order)
    ([("b", 2), ("a", 1)], ["a", "b"]),
    ([("a", 1, "b"), ("b", 2)], ["b", "a"]),
    ([("site", 80, "space"), ("space", 50), ("team", 20), ("grant", 85, "team", "site")],
     ["team", "space", "site", "grant"]),
    ([("x", 5), ("y", 5)], ["x", "y"]),
]  # fmt: skip


@pytest.mark.parametrize(("declared", "expected"), ORDERS)
def test_dependencies_first_then_the_declared_order_whatever_the_discovery_order(
    declared: list[tuple[Any, ...]], expected: list[str]
) -> None:
    kinds = [_kind(*spec) for spec in declared]
    for shuffled in (kinds, kinds[::-1]):
        assert [d.name for d in dependency_order(shuffled, _table(declared))] == expected


def test_a_kind_the_order_table_does_not_name_goes_after_those_it_names() -> None:
    kinds = [_kind("z", 0), _kind("b", 0), _kind("a", 0)]
    assert [d.name for d in dependency_order(kinds, ["z"])] == ["z", "a", "b"]


def test_a_dependency_cycle_is_named() -> None:
    with pytest.raises(RuntimeError, match="in a cycle: a, b"):
        dependency_order([_kind("a", 1, "b"), _kind("b", 2, "a")])


def test_the_registry_is_what_the_family_packages_define() -> None:
    """`registry.py` (written by `bash scripts/generate`) lists every class of the packages
    that defines a kind, and only those: a kind added without regenerating it fails here."""
    assert REGISTRY.read_text("utf-8") == registry(), "run `bash scripts/generate`"
    defined = {cls.declaration.name for cls in kind_classes()}  # type: ignore[attr-defined]
    assert defined == {k.name for k in KINDS}


def test_kinds_are_in_family_packages_below_a_few_framework_modules() -> None:
    """`docsync/kinds/` holds the framework's few modules, one package per family and the
    framework's packages (`FRAMEWORK_PACKAGES`: a framework concept too big for one module).
    A family package defines kinds; a framework package defines none and imports no family
    (tests/core/test_layers.py reads it as the framework)."""
    root = Path(kinds_package.__file__).parent
    top = sorted(p.name for p in root.glob("*.py"))
    assert len(top) <= 12, top
    packages = {p.name for p in root.iterdir() if (p / "__init__.py").exists()}
    assert set(FRAMEWORK_PACKAGES) <= packages, FRAMEWORK_PACKAGES
    defining: dict[str, set[str]] = {name: set() for name in packages}
    for cls in kind_classes():
        family = cls.__module__.split(".")
        assert len(family) == 4, f"{cls.__name__} is not in a family package: {cls.__module__}"
        defining[family[2]].add(cls.__name__)
    for name, kinds in defining.items():
        if name in FRAMEWORK_PACKAGES:
            assert not kinds, f"the framework package {name}/ defines kinds: {sorted(kinds)}"
        else:
            assert kinds, f"{name}/ defines no kind: a family's package, or the framework's?"


def test_nested_lists_are_added_to_every_parent_entry_model() -> None:
    site = entry_model_of("site").model_fields
    section = entry_model_of("section").model_fields
    assert {"sections", "siteSpaces", "sectionGroups"} <= set(site)
    assert "siteSpaces" in section and "sectionGroups" not in section
    assert "without sections" in str(site["siteSpaces"].description)


def test_a_catalogue_refuses_duplicates_and_unknown_targets() -> None:
    team = Declaration("team", "teams", "team", "title")
    with pytest.raises(RuntimeError, match="declared twice"):
        Catalogue(team, team)
    with pytest.raises(RuntimeError, match="undeclared kind 'site'"):
        Catalogue(Declaration("x", "xs", "x", "title", fields=(Field("s", ref="site"),)))


def _document_with(pattern: tuple[str | int, ...], leaf: Any) -> dict[str, Any]:
    """A document holding `leaf` at `pattern`, with index 0 for every `*`."""
    root: dict[str, Any] = {"organization": "org"}
    node: Any = root
    parts = [0 if p == "*" else p for p in pattern]
    for part, following in zip(parts, [*parts[1:], None], strict=True):
        child: Any = leaf if following is None else ([] if following == 0 else {})
        if isinstance(node, list):
            node.append(child)
        else:
            node[part] = child
        node = child
    return root


REFERENCES = [
    pytest.param(d, f, id=f"{d.name}.{f.name}")
    for d in CATALOGUE
    for f in d.fields
    if f.ref and not f.ref_live
]


@pytest.mark.parametrize(("declared", "field"), REFERENCES)
def test_every_reference_field_is_checked_offline(declared: Declaration, field: Field) -> None:
    base = (declared.section,) if declared.singleton else CATALOGUE.entry_paths(declared.name)[0]
    value: Any = "No such thing"
    for part in reversed(field.ref_at):
        value = {part: value}
    if declared.field(field.name).ref_sibling:
        value = [value]
    document = _document_with((*base, field.name), value)
    ctx = CheckContext(document, SourceMap(), lambda path: False)
    check_references(ctx)
    noun = CATALOGUE.named(str(field.ref)).noun
    assert any(f"names no {noun}" in p.message for p in ctx.problems), ctx.problems


@pytest.mark.parametrize("declared", DECLARED)
def test_a_kind_says_what_it_writes_and_each_has_a_lost_answer_test(declared: Declaration) -> None:
    """Every kind declares, in its own class, what it writes (itself and the parts its entries
    write) and how a write whose answer was lost is settled (`kinds.lost`); each of those has an
    end-to-end test where such answers are lost (tests/engine/test_e2e_lost_answers.py)."""
    from tests.engine.test_e2e_lost_answers import COVERED

    kind = kind_named(declared.name)
    assert declared.writes, f"{declared.name} declares no `writes`"
    assert any(not w.part for w in kind.writes), f"{declared.name}: `writes` lacks the kind"
    model = entry_model_of(declared.name) if declared.entry is not None else None
    for writes in kind.writes:
        name = f"{declared.name}.{writes.part}" if writes.part else declared.name
        if writes.part:
            assert model is not None and writes.part in model.model_fields, name
        assert name in COVERED, f"{name} has no test where the answers of its writes are lost"


def test_a_rename_is_declared_only_on_a_key_the_update_carries() -> None:
    """`renames` is what lets an entry say `was:`; on a key the update cannot send (a site
    space's path is, an integration's name is not), the declaration is refused as it loads."""
    assert {d.name for d in CATALOGUE if d.renames} >= {"team", "space", "site", "section"}
    assert not any(d.renames for d in CATALOGUE if d.name in ("site_space", "invite_link"))
    carried = (Field("name"),)
    assert Declaration("font", "fonts", "font", key="name", fields=carried, renames=True).renames
    with pytest.raises(ValueError, match="renames its key 'name': no update carries it"):
        Declaration(
            "font", "fonts", "font", key="name", fields=(Field("name", update=False),), renames=True
        )

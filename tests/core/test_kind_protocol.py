"""The kind protocol is narrow and is what runs: each framework class names the hooks a kind may
override (`HOOKS`, each documented for docs/architecture.md's table), at most 15 names in the
whole framework, everything else it offers is final, and no kind overrides anything but a hook
of its framework class."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from docsync.generate import (
    ARCHITECTURE_PAGE,
    ROOT,
    architecture,
    framework_classes,
    hook_names,
    hook_rows,
    kind_classes,
)
from docsync.kinds import FRAMEWORK_PACKAGES
from docsync.kinds.kind import Kind, TopKind

KIND_CLASSES = kind_classes()


FRAMEWORK = framework_classes()


def _methods(cls: type) -> dict[str, Any]:
    """Public methods reachable on `cls` (properties and data are not hooks)."""
    return {
        name: member
        for name, member in inspect.getmembers(cls)
        if not name.startswith("_") and inspect.isfunction(member)
    }


@pytest.mark.parametrize("framework", FRAMEWORK, ids=lambda c: c.__qualname__)
def test_a_framework_class_opens_at_most_15_hooks_and_closes_the_rest(framework: type) -> None:
    hooks = framework.HOOKS
    assert len(hooks) <= 15, f"{framework.__qualname__}: {len(hooks)} hooks"
    methods = _methods(framework)
    for name in hooks:
        assert name in methods, f"{framework.__qualname__}.{name} is not a method"
        assert not getattr(methods[name], "__final__", False), f"{name} is a hook and final"
    open_ = sorted(
        name for name, member in methods.items() if not getattr(member, "__final__", False)
    )
    assert set(open_) <= set(hooks), (
        f"{framework.__qualname__} offers methods that are neither hooks nor final: "
        f"{sorted(set(open_) - set(hooks))}"
    )


def test_the_whole_framework_asks_at_most_15_hook_names() -> None:
    """A part, a site's child or a merged part answers the questions every kind answers (how
    it is read, planned, written, exported, its checks) under the same names, `Kind`'s and
    `TopKind`'s, each with what its framework class hands it; what is data rather than a
    question (what a merged part compares apart from what it sends, what a nested kind's
    actions carry, how the picture draws it) is declared, not asked."""
    names = hook_names()
    assert len(names) <= 15, f"{len(names)} hook names: {', '.join(names)}"
    assert set(names) <= set(TopKind.HOOKS), (
        f"hooks named otherwise than every kind's: {sorted(set(names) - set(TopKind.HOOKS))}"
    )


#: framework classes still defined in a family's package, which the framework cannot import
#: (tests/core/test_layers.py). The list only shrinks (it is empty now: a holder's grants and
#: Git Sync installation are parts it holds, `parts.HeldPart`): a class moved, or a new one
#: added in a family, fails here.
IN_A_FAMILY: set[str] = set()


def _in_the_framework(module: str) -> bool:
    """A top-level module of `docsync.kinds`, or a module of one of its framework packages."""
    parts = module.split(".")
    return len(parts) == 3 or (len(parts) == 4 and parts[2] in FRAMEWORK_PACKAGES)


def test_every_framework_class_is_defined_in_the_framework() -> None:
    """The classes kinds are made from are defined in the top-level modules of
    `docsync.kinds` or in its framework packages, never in a family's package (a site's parts,
    `kinds.parts`; a merged part, `kinds.partial`; a kind nested in a site's structure,
    `kinds.nested`)."""
    outside = {c.__qualname__ for c in FRAMEWORK if not _in_the_framework(c.__module__)}
    assert outside == IN_A_FAMILY, (
        f"moved: {sorted(IN_A_FAMILY - outside)}; in a family: {sorted(outside - IN_A_FAMILY)}"
    )


@pytest.mark.parametrize("kind", KIND_CLASSES, ids=lambda c: c.__name__)
def test_a_kind_overrides_hooks_only(kind: type[Kind]) -> None:
    """A kind's own public methods are hooks of its framework class (helpers are private)."""
    own = [
        name
        for name, member in vars(kind).items()
        if not name.startswith("_") and inspect.isfunction(member)
    ]
    assert set(own) <= set(kind.HOOKS), (
        f"{kind.__name__} defines {sorted(set(own) - set(kind.HOOKS))}, which are not hooks "
        f"of its framework class (its hooks: {', '.join(kind.HOOKS)})"
    )


def test_every_hook_is_documented_for_the_table() -> None:
    """Each hook says, in its docstring, the question it answers, who asks it, what it returns
    and its default: docs/architecture.md's table is generated from them."""
    for framework, rows in hook_rows().items():
        for row in rows:
            assert row.question.endswith("?"), f"{framework}.{row.hook}: {row.question!r}"
            assert row.asked_by and row.returns and row.default, f"{framework}.{row.hook}"


def test_the_check_sees_an_open_method() -> None:
    class Loose(Kind):
        def helper(self) -> None: ...

    assert "helper" in _methods(Loose)
    assert not getattr(_methods(Loose)["helper"], "__final__", False)


def test_the_architecture_page_shows_the_kinds_as_they_are() -> None:
    """docs/architecture.md's order of kinds and tables of hooks are what `bash scripts/generate`
    writes from the catalogue and the hooks' docstrings."""
    path = ROOT / ARCHITECTURE_PAGE
    page = path.read_text("utf-8")
    assert "<!-- generated: kind-hooks -->" in page and "<!-- generated: kind-order -->" in page
    assert architecture(page) == page, "run `bash scripts/generate`"

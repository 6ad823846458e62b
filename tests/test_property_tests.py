"""The contributor guide's table of property tests (docs/testing.md) is the suite's: every
Hypothesis test, with the examples it draws."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import tests
from tests.depth import DEFAULT, examples

GUIDE = Path(__file__).parents[1] / "docs" / "testing.md"
ROW = re.compile(r"^\| `(tests/[^`]+)` \| (\d+) \|$", re.MULTILINE)


def _property_tests() -> dict[str, int]:
    """Every Hypothesis test of the suite, by node id, with the examples it draws."""
    found: dict[str, int] = {}
    for info in pkgutil.walk_packages(tests.__path__, "tests."):
        if not info.name.rsplit(".", 1)[-1].startswith("test_"):
            continue
        module = importlib.import_module(info.name)
        path = info.name.replace(".", "/") + ".py"
        for name, value in vars(module).items():
            if name.startswith("test_") and getattr(value, "is_hypothesis_test", False):
                chosen = getattr(value, "_hypothesis_internal_use_settings", None)
                found[f"{path}::{name}"] = chosen.max_examples if chosen else examples(DEFAULT)
    return found


def test_the_guide_lists_every_property_test_with_its_examples() -> None:
    listed = {name: examples(int(count)) for name, count in ROW.findall(GUIDE.read_text("utf-8"))}
    assert listed == _property_tests(), "docs/testing.md, section 'Property tests'"

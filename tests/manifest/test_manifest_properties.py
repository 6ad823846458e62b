"""Property tests: no input, however odd, produces a traceback; every problem is located."""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.manifest import ManifestError, load_manifests
from tests.depth import examples
from tests.manifest.conftest import run_validate

EXAMPLES = Path(__file__).parents[2] / "examples" / "acme"
SETTINGS = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.sampled_from(["admin", "public", "Platform", "{{ x }}", "{{ env('X') }}", "a b", ""]),
)
keys = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["organization", "teams", "saml", "sites", "title", "members", "state"]),
)
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=25,
)


def _example_data() -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for path in sorted(EXAMPLES.glob("*.yaml")):
        for key, value in yaml.safe_load(path.read_text(encoding="utf-8")).items():
            if isinstance(value, list):
                merged.setdefault(key, []).extend(value)
            else:
                merged.setdefault(key, value)
    return merged


EXAMPLE = _example_data()


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


def _check(text: str | bytes, suffix: str = ".yaml") -> None:
    """Load the text as a manifest and via the CLI; both must fail cleanly or succeed."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"manifest{suffix}"
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        try:
            load_manifests([path], variables={"x": "1"}, environ={"X": "secret-x"})
        except ManifestError as error:
            assert error.problems
            for problem in error.problems:
                assert problem.location is not None, str(problem)
                assert str(problem).startswith(f"{path}:"), str(problem)
                assert "secret-x" not in str(problem)
        result = run_validate(str(path), env={"X": "secret-x"})
        assert result.exit_code in (0, 1), result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "Traceback" not in result.output


@SETTINGS
@given(documents)
def test_arbitrary_yaml_documents(document: Any) -> None:
    _check(yaml.safe_dump(document, allow_unicode=True))


@SETTINGS
@given(st.text(max_size=200))
def test_arbitrary_text(text: str) -> None:
    _check(text)


@SETTINGS
@given(st.binary(max_size=200))
def test_arbitrary_bytes(data: bytes) -> None:
    _check(data)


@SETTINGS
@given(st.text(max_size=120))
def test_arbitrary_whole_file_templates(text: str) -> None:
    _check("organization: org_acme\n" + text, suffix=".yaml.j2")


@pytest.mark.slow
@SETTINGS
@given(st.data())
def test_mutations_of_a_valid_manifest(data: st.DataObject) -> None:
    document = copy.deepcopy(EXAMPLE)
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [path for path in _paths(document) if path]
        target = data.draw(st.sampled_from(paths))
        parent: Any = document
        for part in target[:-1]:
            parent = parent[part]
        action = data.draw(st.sampled_from(["replace", "delete", "add", "duplicate"]))
        last = target[-1]
        if action == "replace":
            parent[last] = data.draw(documents)
        elif action == "delete":
            del parent[last]
        elif action == "add" and isinstance(parent, dict):
            parent[data.draw(keys)] = data.draw(scalars)
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[last]))
    _check(yaml.safe_dump(document, allow_unicode=True, sort_keys=False))


@pytest.mark.parametrize(
    "sections",
    ["true", "[{title: [], siteSpaces: [{space: Guides, path: a}]}]"],
    ids=["sections not a list", "a title not a string"],
)
def test_redirect_checks_meet_a_malformed_structure(sections: str) -> None:
    """The offline redirect checks read the raw entries, before their model: found by the
    mutations above once the example wrote redirects."""
    _check(
        "organization: org_acme\nsites:\n  - title: Docs\n"
        f"    sections: {sections}\n"
        "    redirects: [{source: /old, destination: {section: Guides}}]\n"
    )
